import CacheStore
import Testing

/// Ranges served from the store: a range fetched once is a hit afterwards, a wider request
/// fetches only the gap, and ranges are resolved against the length the origin told.
@Suite struct RangeHitTests {
    let path = TestEnvironment.path
    let content = TestEnvironment.content

    @Test func aRangeFetchedOnceIsServedFromTheStoreAfterwards() async throws {
        try await TestEnvironment.with { environment in
            let proxy = try await environment.startProxy()
            let first = try await proxy.get(path, range: "bytes=0-999", with: environment.client)
            #expect(first.status == 206)
            #expect(first.body == Array(content[0..<1000]))
            #expect(first.header("Content-Range") == "bytes 0-999/\(content.count)")
            #expect(first.header("ETag") == TestOrigin.entityTag)
            #expect(environment.origin.received.map(\.range) == ["bytes=0-999"])

            let again = try await proxy.get(path, range: "bytes=100-499", with: environment.client)
            #expect(again.status == 206)
            #expect(again.body == Array(content[100..<500]))
            #expect(environment.origin.received.count == 1)
            #expect(proxy.store.statistics.hits == 1)
            try await proxy.stop()
        }
    }

    @Test func aWiderRequestFetchesOnlyTheGap() async throws {
        try await TestEnvironment.with { environment in
            let proxy = try await environment.startProxy()
            _ = try await proxy.get(path, range: "bytes=0-999", with: environment.client)
            let whole = try await proxy.get(path, with: environment.client)
            #expect(whole.status == 200)
            #expect(whole.body == content)
            #expect(environment.origin.received.map(\.range) == ["bytes=0-999", "bytes=1000-\(content.count - 1)"])

            let tail = try await proxy.get(path, range: "bytes=-100", with: environment.client)
            #expect(tail.body == Array(content.suffix(100)))
            #expect(environment.origin.received.count == 2)
            try await proxy.stop()
        }
    }

    @Test func aRangePastTheEndIsNotSatisfiable() async throws {
        try await TestEnvironment.with { environment in
            let proxy = try await environment.startProxy()
            _ = try await proxy.get(path, range: "bytes=0-0", with: environment.client)
            let answer = try await proxy.get(path, range: "bytes=\(content.count)-", with: environment.client)
            #expect(answer.status == 416)
            #expect(answer.header("Content-Range") == "bytes */\(content.count)")
            try await proxy.stop()
        }
    }

    @Test func aMissingResourceIsABadGateway() async throws {
        try await TestEnvironment.with { environment in
            let proxy = try await environment.startProxy()
            let answer = try await proxy.get("/media/none.mp4", with: environment.client)
            #expect(answer.status == 502)
            #expect(proxy.store.entry(for: proxy.store.key(for: environment.origin.url + "/media/none.mp4")) == nil)
            try await proxy.stop()
        }
    }
}
