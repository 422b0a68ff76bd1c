import AsyncHTTPClient
import CacheProxy
import CacheProxyParsing
import CacheStore
import Foundation
import NIOCore
import NIOHTTP1
import SparseFile
import Testing
import TestSupport

@Suite("Prefetching the heads of upcoming videos", .timeLimit(.minutes(2)))
struct PrefetchTests {
    static let segmentSize = 100_000

    /// A presentation at `/NAME/`: a multivariant playlist with a low and a high variant, each a
    /// VOD media playlist with an init section and ten 2-second segments.
    static func publish(_ name: String, on origin: TestOrigin, segments: Int = 10, faults: TestOrigin.Faults = .init()) {
        let playlist = "application/vnd.apple.mpegurl"
        origin.set("/\(name)/master.m3u8", .init(Array("""
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=800000
            low/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=4000000
            high/index.m3u8

            """.utf8), contentType: playlist))
        for variant in ["low", "high"] {
            var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-MAP:URI=\"init.mp4\"\n"
            for index in 0..<segments { text += "#EXTINF:2.0,\ns\(index).m4s\n" }
            text += "#EXT-X-ENDLIST\n"
            origin.set("/\(name)/\(variant)/index.m3u8", .init(Array(text.utf8), contentType: playlist))
            origin.set("/\(name)/\(variant)/init.mp4", .init(TestBytes(seed: 7).bytes(0, 1000), contentType: "video/mp4"))
            for index in 0..<segments {
                origin.set("/\(name)/\(variant)/s\(index).m4s",
                           .init(TestBytes(seed: UInt64(index)).bytes(0, segmentSize), contentType: "video/mp4", faults: faults))
            }
        }
    }

    static func post(_ harness: ProxyHarness, _ json: String) async throws -> ProxyHarness.Response {
        try await send(harness, method: .POST, body: json)
    }

    static func send(_ harness: ProxyHarness, method: HTTPMethod, body: String? = nil) async throws -> ProxyHarness.Response {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(harness.port)/prefetch")
        request.method = method
        if let body {
            request.body = .bytes(ByteBuffer(string: body))
            request.headers.add(name: "Content-Type", value: "application/json")
        }
        let response = try await harness.client.execute(request, timeout: .seconds(30))
        var bytes: [UInt8] = []
        for try await chunk in response.body { bytes.append(contentsOf: chunk.readableBytesView) }
        return ProxyHarness.Response(status: Int(response.status.code), headers: response.headers, body: bytes)
    }

    /// Waits until no prefetch job is queued or running.
    static func settle(_ harness: ProxyHarness) async throws -> PrefetchStatus {
        for _ in 0..<400 {
            if let status = harness.proxy.status?.prefetch, status.queued == 0, status.running == 0 { return status }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw CacheProxyError(.invalidConfiguration, "prefetching did not settle")
    }

    /// Bytes of the resource at `path` cached from its start on.
    static func cachedLength(_ harness: ProxyHarness, _ path: String) -> UInt64 {
        harness.store.reader(for: harness.store.key(for: harness.origin.url(path))).file?.cachedLength(from: 0) ?? 0
    }

    /// Bytes the origin was asked for at `path`, from its request log.
    static func bytesRequested(_ origin: TestOrigin, _ path: String, length: Int) -> Int {
        origin.requests(for: path).reduce(0) { total, request in
            guard let range = request.range, case .single(let specifier)? = try? RangeRequest(parsing: range),
                  let resolved = specifier.resolve(length: UInt64(length)) else { return total + length }
            return total + resolved.count
        }
    }

    @Test("The chosen variant's playlist, init section and first segments within a seconds budget, nothing more")
    func secondsBudget() async throws {
        try await ProxyHarness.run { harness in
            Self.publish("a", on: harness.origin)
            let url = harness.origin.url("/a/master.m3u8")
            let accepted = try await Self.post(harness, #"{"urls": ["\#(url)"], "seconds": 5, "variant": "lowest"}"#)
            #expect(accepted.status == 202)
            let queue = try JSONDecoder().decode(PrefetchStatus.self, from: Data(accepted.body))
            #expect(queue.jobs.map(\.url) == [url])
            let status = try await Self.settle(harness)
            #expect(status.jobs.first?.state == .done)
            let paths = Set(harness.origin.requests.map(\.path))
            #expect(paths == ["/a/master.m3u8", "/a/low/index.m3u8", "/a/low/init.mp4", "/a/low/s0.m4s", "/a/low/s1.m4s", "/a/low/s2.m4s"])
            // Offline, the player gets exactly what was warmed.
            await harness.origin.stop()
            #expect(try await harness.get("/a/master.m3u8").status == 200)
            #expect(try await harness.get("/a/low/index.m3u8").status == 200)
            #expect(try await harness.get("/a/low/s2.m4s").body == TestBytes(seed: 2).bytes(0, Self.segmentSize))
            #expect(try await harness.get("/a/low/s3.m4s").status == 502)
        }
    }

    @Test("A bytes budget is never exceeded, playlists included")
    func bytesBudget() async throws {
        try await ProxyHarness.run { harness in
            Self.publish("b", on: harness.origin)
            let budget = 350_000
            _ = try await Self.post(harness, #"{"urls": ["\#(harness.origin.url("/b/master.m3u8"))"], "bytes": \#(budget), "variant": "highest"}"#)
            let status = try await Self.settle(harness)
            let job = try #require(status.jobs.first)
            #expect(job.bytesFetched <= UInt64(budget))
            #expect(job.bytesFetched > 200_000)
            let origin = harness.origin
            var sent = 0
            for request in Set(origin.requests.map(\.path)) {
                let length = request.hasSuffix(".m4s") ? Self.segmentSize : request.hasSuffix("init.mp4") ? 1000 : 0
                sent += length > 0 ? Self.bytesRequested(origin, request, length: length) : 0
            }
            #expect(sent <= budget)
            #expect(!origin.requests.contains { $0.path.hasPrefix("/b/low/") })
        }
    }

    @Test("Segments budget, several videos in feed order, each warmed once")
    func segmentsBudgetAcrossAFeed() async throws {
        try await ProxyHarness.run { harness in
            let names = ["v1", "v2", "v3", "v4", "v5"]
            for name in names { Self.publish(name, on: harness.origin) }
            let urls = names.map { "\"" + harness.origin.url("/\($0)/master.m3u8") + "\"" }.joined(separator: ",")
            _ = try await Self.post(harness, #"{"urls": [\#(urls)], "segments": 2}"#)
            let status = try await Self.settle(harness)
            #expect(status.jobs.map(\.state) == Array(repeating: .done, count: 5))
            for name in names {
                #expect(harness.origin.requests(for: "/\(name)/low/s1.m4s").count == 1)
                #expect(harness.origin.requests(for: "/\(name)/low/s2.m4s").isEmpty)
            }
        }
    }

    @Test("A new list replaces the old one: dropped videos finish the resource in flight and fetch nothing more, or never start")
    func replacingTheList() async throws {
        try await ProxyHarness.run(configure: { $0.timeouts.originRead = .seconds(300) }) { harness in
            let gate = TestGate()
            let held = TestOrigin.Faults(chunkSize: 10_000, pauseAfter: 10_000, gate: gate)
            for name in ["p", "q", "r", "s"] { Self.publish(name, on: harness.origin, faults: held) }
            let urls = ["p", "q", "r", "s"].map { "\"" + harness.origin.url("/\($0)/master.m3u8") + "\"" }
            _ = try await Self.post(harness, #"{"urls": [\#(urls.joined(separator: ","))], "segments": 3}"#)
            // Two videos warm at a time, the first in the list first: p is in the middle of its
            // first segment, q waits for its turn to ask for its own.
            try await waitUntil("p is fetching its first segment") { gate.arrivals == 1 }
            try await waitUntil("q is waiting for its first segment") {
                harness.proxy.status?.prefetch.jobs.map(\.state) == [.running, .running, .queued, .queued]
            }
            #expect(harness.origin.requests(for: "/q/low/s0.m4s").isEmpty, "the next video's head goes first")
            let replaced = try await Self.post(harness, #"{"urls": [\#(urls[3])], "segments": 1}"#)
            let queue = try JSONDecoder().decode(PrefetchStatus.self, from: Data(replaced.body))
            #expect(queue.jobs.map(\.url) == [harness.origin.url("/s/master.m3u8")])
            gate.open()
            let status = try await Self.settle(harness)
            #expect(status.jobs.count == 1)
            #expect(status.jobs.first?.state == .done)
            #expect(harness.origin.requests(for: "/r/master.m3u8").isEmpty)
            // p was dropped in the middle of its first segment: it finishes it (the video swiped
            // to asks for it next) and fetches nothing more; q, dropped before its turn, nothing.
            try await waitUntil("p's first segment is in") {
                Self.cachedLength(harness, "/p/low/s0.m4s") == UInt64(Self.segmentSize)
            }
            #expect(harness.origin.requests(for: "/p/low/s0.m4s").count == 1)
            #expect(harness.origin.requests(for: "/p/low/s1.m4s").isEmpty)
            #expect(harness.origin.requests(for: "/q/low/s0.m4s").isEmpty)
            #expect(harness.origin.requests(for: "/s/low/s0.m4s").count == 1)
        }
    }

    @Test("A video in both lists keeps its job and its progress")
    func keptJobKeepsProgress() async throws {
        try await ProxyHarness.run { harness in
            let gate = TestGate()
            for name in ["k", "x", "y"] { Self.publish(name, on: harness.origin) }
            // k's second segment stops half-way until the gate opens.
            harness.origin.update("/k/low/s1.m4s") { $0.faults = .init(chunkSize: 10_000, pauseAfter: 50_000, gate: gate) }
            let (k, x, y) = ("k", "x", "y")
            func url(_ name: String) -> String { "\"" + harness.origin.url("/\(name)/master.m3u8") + "\"" }
            _ = try await Self.post(harness, #"{"urls": [\#(url(k)), \#(url(x))], "segments": 3}"#)
            try await waitUntil("k is in the middle of its second segment") { gate.arrivals == 1 }
            let before = try #require(harness.proxy.status?.prefetch.jobs.first)
            #expect(before.state == .running && before.bytesFetched > UInt64(Self.segmentSize))
            let replaced = try await Self.post(harness, #"{"urls": [\#(url(k)), \#(url(y))], "segments": 3}"#)
            let queue = try JSONDecoder().decode(PrefetchStatus.self, from: Data(replaced.body))
            #expect(queue.jobs.first?.state == .running)
            #expect((queue.jobs.first?.bytesFetched ?? 0) >= before.bytesFetched, "k's progress was kept")
            gate.open()
            let status = try await Self.settle(harness)
            #expect(status.jobs.map(\.state) == [.done, .done])
            // Nothing of k was fetched twice (the multivariant playlist would be: it is fetched
            // fresh every time), and its count covers everything it fetched, before and after.
            let paths = ["/k/master.m3u8", "/k/low/index.m3u8", "/k/low/init.mp4", "/k/low/s0.m4s", "/k/low/s1.m4s", "/k/low/s2.m4s"]
            for path in paths { #expect(harness.origin.requests(for: path).count == 1, "\(path)") }
            let total = paths.reduce(0) { $0 + (harness.origin.resource($1)?.body.count ?? 0) }
            #expect(status.jobs.first?.bytesFetched == UInt64(total))
        }
    }

    @Test("DELETE /prefetch cancels everything, fetches in flight included; GET and /status report the queue")
    func cancelAndReport() async throws {
        // A held body never times out here: only the cancellation can end its fetch.
        try await ProxyHarness.run(configure: { $0.timeouts.originRead = .seconds(300) }) { harness in
            let gate = TestGate()
            Self.publish("c", on: harness.origin, faults: .init(chunkSize: 5_000, pauseAfter: 20_000, gate: gate))
            _ = try await Self.post(harness, #"{"urls": ["\#(harness.origin.url("/c/master.m3u8"))"], "seconds": 20}"#)
            try await waitUntil("the first segment is being fetched") { gate.arrivals == 1 }
            let listed = try await Self.send(harness, method: .GET)
            #expect(try JSONDecoder().decode(PrefetchStatus.self, from: Data(listed.body)).jobs.count == 1)
            let cancelled = try await Self.send(harness, method: .DELETE)
            #expect(cancelled.status == 200)
            #expect(try JSONDecoder().decode(PrefetchStatus.self, from: Data(cancelled.body)).jobs.isEmpty)
            let report = try await harness.fetch("http://127.0.0.1:\(harness.port)/status")
            let status = try JSONDecoder().decode(ProxyStatus.self, from: Data(report.body))
            #expect(status.prefetch.jobs.isEmpty)
            // Fetching stopped: the segment in flight was cut where it was, and nothing more
            // was asked for, even once the origin goes on.
            let key = harness.store.key(for: harness.origin.url("/c/low/s0.m4s"))
            let segment = try #require(ByteRange(offset: 0, length: UInt64(Self.segmentSize)))
            try await waitUntil("the segment's fetch has ended") {
                !harness.store.plan(key: key, range: segment).pieces.contains { $0.state == .inFlight }
            }
            gate.open()
            try await waitUntil("the origin's response has ended") { !harness.origin.outcomes(for: "/c/low/s0.m4s").isEmpty }
            #expect(Self.cachedLength(harness, "/c/low/s0.m4s") < UInt64(Self.segmentSize))
            #expect(harness.origin.requests.filter { $0.path.hasSuffix(".m4s") }.map(\.path) == ["/c/low/s0.m4s"])
        }
    }

    @Test(arguments: [
        (#"{"urls": []}"#, 400), (#"{"urls": ["ftp://x/y"], "seconds": 1}"#, 400), (#"not json"#, 400),
        (#"{"urls": ["http://127.0.0.1/a"], "seconds": 1, "bytes": 5}"#, 400), (#"{"urls": ["http://127.0.0.1/a"]}"#, 400),
    ])
    func badRequestsAreRefused(body: String, status: Int) async throws {
        try await ProxyHarness.run { harness in
            let response = try await Self.post(harness, body)
            #expect(response.status == status)
        }
    }

    @Test("Prefetching stops when the cache is near its size limit instead of evicting")
    func storeNearLimit() async throws {
        try await ProxyHarness.run(storeSize: 1_000_000) { harness in
            Self.publish("d", on: harness.origin)
            try harness.store.put(key: "watching", offset: 0, bytes: TestBytes(seed: 1).bytes(0, 800_000))
            _ = try await Self.post(harness, #"{"urls": ["\#(harness.origin.url("/d/master.m3u8"))"], "segments": 5}"#)
            let status = try await Self.settle(harness)
            #expect(status.jobs.first?.state == .stopped)
            #expect(harness.store.entry(for: "watching") != nil)
        }
    }

    @Test("An MP4 with its moov box at the end: the tail holding it and the head within the budget")
    func mp4WithMovieBoxAtTheEnd() async throws {
        try await ProxyHarness.run { harness in
            let file = MP4Fixture.make(mediaBytes: 2_000_000, seconds: 20)
            harness.origin.set("/e.mp4", .init(file.bytes, contentType: "video/mp4"))
            let budget = 300_000
            _ = try await Self.post(harness, #"{"urls": ["\#(harness.origin.url("/e.mp4"))"], "bytes": \#(budget)}"#)
            let status = try await Self.settle(harness)
            #expect(status.jobs.first?.state == .done)
            #expect((status.jobs.first?.bytesFetched ?? .max) <= UInt64(budget))
            let reader = harness.store.reader(for: harness.store.key(for: harness.origin.url("/e.mp4")))
            let cached = try #require(reader.file).cachedRanges
            #expect(cached.contains { $0.end == UInt64(file.bytes.count) && $0.offset <= file.moovOffset })
            #expect(cached.first?.offset == 0)
        }
    }
}

/// A minimal MP4: `ftyp`, a large `mdat`, and the `moov` (with an `mvhd` giving the duration) last.
enum MP4Fixture {
    static func make(mediaBytes: Int, seconds: UInt32) -> (bytes: [UInt8], moovOffset: UInt64) {
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let size = UInt32(8 + payload.count)
            return withUnsafeBytes(of: size.bigEndian, Array.init) + Array(type.utf8) + payload
        }
        let ftyp = box("ftyp", Array("isom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8))
        let mdat = box("mdat", TestBytes(seed: 11).bytes(0, mediaBytes))
        var mvhd: [UInt8] = [0, 0, 0, 0] + [UInt8](repeating: 0, count: 8)  // version, flags, times
        mvhd += withUnsafeBytes(of: UInt32(1000).bigEndian, Array.init)  // timescale
        mvhd += withUnsafeBytes(of: (seconds * 1000).bigEndian, Array.init)  // duration
        mvhd += [UInt8](repeating: 0, count: 80)
        let moov = box("moov", box("mvhd", mvhd))
        return (ftyp + mdat + moov, UInt64(ftyp.count + mdat.count))
    }
}
