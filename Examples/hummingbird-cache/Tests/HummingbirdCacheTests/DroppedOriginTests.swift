import AsyncHTTPClient
import CacheStore
import SparseFile
import Testing

/// An origin that drops the connection mid-body: the bytes it sent stay cached, the request
/// being served claims the rest and fetches it alone, and when the origin stays down the
/// client's response is cut, never completed with wrong bytes.
@Suite struct DroppedOriginTests {
    let path = TestEnvironment.path
    let content = TestEnvironment.content
    let dropAt = 300 * 1024

    @Test func aDropMidBodyIsResumedFromTheFirstMissingByte() async throws {
        try await TestEnvironment.with { environment in
            let origin = environment.origin
            let proxy = try await environment.startProxy()
            origin.hold(at: dropAt)
            let download = Task { try await proxy.get(path, with: environment.client) }
            try await eventually("the bytes before the drop are cached") {
                ByteRange(from: 0, to: UInt64(dropAt)).map { proxy.isCached(path, $0, origin: origin) } ?? false
            }
            origin.release(dropping: true)
            let answer = try await download.value
            #expect(answer.status == 200)
            #expect(answer.body == content)
            #expect(origin.received.map(\.range) == ["bytes=0-", "bytes=\(dropAt)-\(content.count - 1)"])
            try await proxy.stop()
        }
    }

    @Test func anOriginThatStaysDownCutsTheResponseAndKeepsWhatItSent() async throws {
        try await TestEnvironment.with { environment in
            let origin = environment.origin
            let proxy = try await environment.startProxy()
            let before = ByteRange(from: 0, to: UInt64(dropAt))
            origin.hold(at: dropAt)
            let download = Task { try await proxy.get(path, with: environment.client) }
            try await eventually("the bytes before the drop are cached") {
                before.map { proxy.isCached(path, $0, origin: origin) } ?? false
            }
            origin.isFailing = true
            origin.release(dropping: true)
            await #expect(throws: (any Error).self) { try await download.value }
            #expect(before.map { proxy.isCached(path, $0, origin: origin) } == true)

            origin.isFailing = false
            let healed = try await proxy.get(path, with: environment.client)
            #expect(healed.body == content)
            #expect(origin.received.last?.range == "bytes=\(dropAt)-\(content.count - 1)")
            try await proxy.stop()
        }
    }
}
