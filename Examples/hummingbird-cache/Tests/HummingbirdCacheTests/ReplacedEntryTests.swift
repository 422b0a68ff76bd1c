import CacheStore
import Hummingbird
@testable import HummingbirdCache
import SparseFile
import Testing

/// A resource that changes at the origin is never mixed in one response: the headers promised
/// one version, so bytes of another are not sent under them.
@Suite struct ReplacedEntryTests {
    let path = TestEnvironment.path
    let content = TestEnvironment.content
    let newVersion = TestEnvironment.content.map { $0 ^ 0xFF }

    @Test func aResponseFollowingAnEntryThatIsReplacedIsCut() async throws {
        try await TestEnvironment.with { environment in
            let proxy = try await environment.startProxy()
            _ = try await proxy.get(path, range: "bytes=0-999", with: environment.client)
            environment.origin.replace(path, with: newVersion, entityTag: "\"v2\"")
            // The cached version's headers; the gap's fill brings the new one, which replaces it.
            await #expect(throws: (any Error).self) { try await proxy.get(path, with: environment.client) }
            let fresh = try await proxy.get(path, with: environment.client)
            #expect(fresh.header("ETag") == "\"v2\"")
            #expect(fresh.body == newVersion)
            try await proxy.stop()
        }
    }

    /// The same when the entry was replaced before the body started: every byte is cached, of
    /// the new version, and the body must still not send them under the old headers.
    @Test func aBodyPromisedForAnOlderVersionSendsNothingOfTheNewOne() async throws {
        try await TestEnvironment.with { environment in
            let proxy = try await environment.startProxy()
            environment.origin.replace(path, with: newVersion, entityTag: "\"v2\"")
            _ = try await proxy.get(path, with: environment.client)
            let url = environment.origin.url + path
            let body = EntryBody(resource: ProxiedResource(url: url, key: proxy.store.key(for: url)),
                                 fetcher: proxy.proxy.fetcher,
                                 promised: EntryMetadata(contentLength: UInt64(content.count), entityTag: TestOrigin.entityTag))
            let range = try #require(ByteRange(from: 0, to: 1000))
            var writer: any ResponseBodyWriter = CollectingWriter()
            await #expect(throws: OriginError.self) { try await body.write(range, to: &writer) }
            #expect((writer as? CollectingWriter)?.bytes.isEmpty == true)
            try await proxy.stop()
        }
    }
}

/// A response body writer that keeps what it is given.
struct CollectingWriter: ResponseBodyWriter {
    var bytes: [UInt8] = []

    mutating func write(_ buffer: ByteBuffer) async throws {
        bytes += Array(buffer: buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
