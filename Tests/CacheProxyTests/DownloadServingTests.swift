import CacheProxy
import CacheProxyServer
import CacheProxyParsing
import CacheStore
import Foundation
import SparseFile
import Testing
import TestSupport

/// Downloads made by a running proxy (`POST /downloads`): whole presentations into the cache
/// while it serves, reported, cancelled and resumed.
@Suite("Downloads while serving", .timeLimit(.minutes(2)))
struct DownloadServingTests {
    static func waitForState(_ client: SessionClient, _ id: String, in states: Set<String>) async throws -> [String: Any] {
        var last: [String: Any] = [:]
        let reached = try await SessionClient.eventually(timeout: .seconds(30)) {
            last = SessionClient.object(try await client.send(.GET, "/downloads/\(id)").body) ?? [:]
            return states.contains(last["state"] as? String ?? "")
        }
        guard reached else { throw SessionClient.Failure("download \(id) stayed \(last["state"] ?? "unknown")") }
        return last
    }

    @Test("A presentation downloaded through POST /downloads then plays whole with the origin down")
    func downloadThenOffline() async throws {
        try await ProxyHarness.run { harness in
            let presentation = TestPresentation.publish("dl", on: harness.origin, segments: 5, audio: true)
            let client = SessionClient(harness: harness)
            let started = try await client.send(.POST, "/downloads", body: #"{"url": "\#(harness.origin.url(presentation.masterPath))", "variant": "lowest", "pin": true}"#)
            #expect(started.status == 202)
            let id = try #require(SessionClient.object(started.body)?["id"] as? String)
            let done = try await Self.waitForState(client, id, in: ["done", "failed"])
            #expect(done["state"] as? String == "done" && done["error"] is NSNull)
            #expect(done["segments"] as? Int == 10 && done["segmentsDone"] as? Int == 10, "five video and five audio segments")
            let resources = try #require(done["resources"] as? Int)
            #expect(resources >= 12 && done["resourcesDone"] as? Int == resources, "the playlists and every segment")
            let listed = try JSONSerialization.jsonObject(with: Data(try await client.send(.GET, "/downloads").body)) as? [[String: Any]]
            #expect(listed?.map { $0["id"] as? String } == [id])
            #expect(!harness.origin.requests.contains { $0.path.hasPrefix("/dl/mid/") || $0.path.hasPrefix("/dl/high/") })
            #expect(harness.store.entry(for: harness.store.key(for: harness.origin.url(presentation.path("low", segment: 0))))?.pinned == true)
            await harness.origin.stop()
            let master = try await harness.get(presentation.masterPath)
            #expect(master.status == 200)
            for segment in 0..<5 {
                #expect(try await harness.get(presentation.path("low", segment: segment)).body == presentation.segmentBytes(variant: 0, segment: segment))
                #expect(try await harness.get(presentation.path("audio", segment: segment)).body == presentation.segmentBytes(variant: 3, segment: segment))
            }
        }
    }

    @Test("A cancelled download keeps what it stored; started again, it never asks twice for a stored byte")
    func cancelAndResume() async throws {
        try await ProxyHarness.run { harness in
            let slow = TestOrigin.Faults(chunkDelay: .milliseconds(20), chunkSize: 10_000)
            let presentation = TestPresentation.publish("cr", on: harness.origin, segments: 6, segmentSize: 200_000, faults: slow)
            let client = SessionClient(harness: harness)
            let body = #"{"url": "\#(harness.origin.url(presentation.mediaPath("low")))"}"#
            let first = try #require(SessionClient.object(try await client.send(.POST, "/downloads", body: body).body)?["id"] as? String)
            let store = harness.store
            let paths = (0..<6).map { presentation.path("low", segment: $0) }
            func cached(_ path: String) -> [ByteRange] { store.reader(for: store.key(for: harness.origin.url(path))).file?.cachedRanges ?? [] }
            #expect(await SessionClient.eventually { paths.contains { !cached($0).isEmpty } })
            let cancelled = try await client.send(.DELETE, "/downloads/\(first)")
            #expect(cancelled.status == 200 && SessionClient.object(cancelled.body)?["state"] as? String == "cancelled")
            _ = try await Self.waitForState(client, first, in: ["cancelled"])
            let before = Dictionary(uniqueKeysWithValues: paths.map { ($0, cached($0)) })
            #expect(before.values.contains { !$0.isEmpty } && before.values.contains { $0.isEmpty }, "cut part-way")
            harness.origin.resetLog()
            let second = try #require(SessionClient.object(try await client.send(.POST, "/downloads", body: body).body)?["id"] as? String)
            #expect(try await Self.waitForState(client, second, in: ["done", "failed"])["state"] as? String == "done")
            for path in paths {
                for request in harness.origin.requests(for: path) {
                    let start = request.range.flatMap { UInt64($0.dropFirst(6).prefix { $0 != "-" }) } ?? 0
                    #expect(!(before[path] ?? []).contains { $0.offset <= start && start < $0.end }, "\(path) from \(start) was stored already")
                }
                #expect(cached(path) == [ByteRange(offset: 0, length: UInt64(presentation.segmentSize))])
            }
        }
    }

    @Test("Bad download requests are refused naming the field; unknown IDs get 404", arguments: [
        (#"{}"#, #""url""#), (#"{"url": "ftp://x"}"#, #""url""#), (#"{"url": "http://x/a.m3u8", "variant": "best"}"#, #""variant""#),
        (#"{"url": "http://x/a.m3u8", "pin": "yes"}"#, #""pin""#), (#"{"url": "http://x/a.m3u8", "all": true}"#, #""all""#),
    ])
    func badRequests(body: String, field: String) async throws {
        try await ProxyHarness.run { harness in
            let client = SessionClient(harness: harness)
            let response = try await client.send(.POST, "/downloads", body: body)
            #expect(response.status == 400 && SessionClient.object(response.body)?["field"] as? String == field)
            let statuses = [try await client.send(.GET, "/downloads/d99").status, try await client.send(.DELETE, "/downloads/d99").status]
            #expect(statuses == [404, 404])
        }
    }

    @Test("From Swift: download() starts one and downloadStatus() follows it to done")
    func library() async throws {
        try await ProxyHarness.run { harness in
            let presentation = TestPresentation.publish("lb", on: harness.origin, segments: 2)
            let started = try #require(harness.proxy.download(DownloadRequest(url: try OriginURL(parsing: harness.origin.url(presentation.mediaPath("mid"))))))
            #expect(await SessionClient.eventually { harness.proxy.downloadStatus(started.id)?.state == .done })
            #expect(harness.proxy.downloadStatus(started.id)?.segmentsDone == 2)
        }
    }

    @Test("A stopped proxy lets go of its store: nothing it ran (prefetch, sessions, downloads) keeps it alive")
    func noReferenceCycle() async throws {
        weak var released: CacheStore?
        let origin = try await TestOrigin.start()
        let presentation = TestPresentation.publish("rc", on: origin, segments: 2)
        try await {
            let directory = TemporaryDirectory("proxy-cycle")
            let store = try CacheStore.open(at: directory.path, configuration: .init(fileOptions: SparseFileOptions(durability: .none)))
            released = store
            var configuration = CacheProxyConfiguration.server
            configuration.port = 0
            let proxy = try CacheProxy(store: store, configuration: configuration)
            try await withThrowingTaskGroup { group in
                group.addTask { try await proxy.run() }
                _ = try await proxy.start()
                let url = try OriginURL(parsing: origin.url(presentation.mediaPath("low")))
                proxy.prefetch(PrefetchRequest(urls: [url], budget: .segments(1)))
                _ = try await proxy.openSession(PlaybackSessionRequest(url: url))
                _ = proxy.download(DownloadRequest(url: url))
                proxy.shutdown()
                try await group.waitForAll()
            }
            try store.close()
        }()
        await origin.stop()
        #expect(released == nil)
    }
}
