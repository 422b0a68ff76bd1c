import CacheProxy
import CacheStore
import Foundation
import SparseFile
import Testing
import TestSupport

/// Hits on cache files are written from a read-only mapping of the file
/// (`CacheProxyConfiguration.mappedFiles`). The mapping must serve exactly the bytes `sendfile`
/// would, map only what qualifies, stay within its limit, and let go of a file the store removed.
/// The proxy runs in the test's process, so `/proc/self/maps` shows what it mapped.
@Suite("Hits written from mapped cache files", .timeLimit(.minutes(2)))
struct MappedHitTests {
    static let segment = TestBytes(seed: 77).bytes(0, 2_000_000)

    /// A file of /proc/self, read to its end (its size is 0 to `stat`, which Foundation's
    /// whole-file readers trust).
    static func procFile(_ name: String) throws -> String {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/" + name))
        defer { try? handle.close() }
        return String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
    }

    /// The files under `directory` mapped in this process now, "(deleted)" ones included.
    static func mappedFiles(under directory: String) throws -> Set<String> {
        let maps = try procFile("maps")
        return Set(maps.split(separator: "\n").compactMap { line in
            guard let slash = line.firstIndex(of: "/") else { return nil }
            let path = String(line[slash...])
            return path.hasPrefix(directory + "/") ? path : nil
        })
    }

    /// The resident bytes (`Rss` in /proc/self/smaps) of the mappings of files under `directory`.
    static func residentBytes(under directory: String) throws -> Int {
        var total = 0
        var counting = false
        for line in try procFile("smaps").split(separator: "\n") {
            // A mapping's header starts with its address range ("7f12...-7f13... r--s ...").
            if let address = line.split(separator: " ").first, address.contains("-"), address.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
                counting = line.firstIndex(of: "/").map { line[$0...].hasPrefix(directory + "/") } ?? false
            } else if counting, line.hasPrefix("Rss:") {
                total += (Int(line.split(separator: " ")[1]) ?? 0) * 1024
            }
        }
        return total
    }

    /// Hits `path` (checking its bytes) until its file is mapped: a file is mapped once its
    /// fill is committed, which may come a little after the miss's response ended. The files
    /// under `directory` mapped then.
    static func hitUntilMapped(_ harness: ProxyHarness, _ path: String, _ body: [UInt8], under directory: String) async throws -> Set<String> {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let hit = try await harness.get(path)
            try #require(hit.status == 200 && sameBytes(hit.body, body))
            let mapped = try mappedFiles(under: directory)
            if !mapped.isEmpty { return mapped }
            try await Task.sleep(for: .milliseconds(20))
        }
        return []
    }

    @Test("A whole segment and ranges of it are written from the file's mapping, byte for byte")
    func hitsComeFromTheMapping() async throws {
        let directory = TemporaryDirectory("mapped")
        try await ProxyHarness.run(directory: directory) { harness in
            harness.origin.set("/a.ts", .init(Self.segment, contentType: "video/mp2t"))
            #expect(try await harness.get("/a.ts").body == Self.segment)  // the miss fills the file
            #expect(try Self.mappedFiles(under: directory.path).isEmpty, "a miss is not served from a mapping")
            #expect(try await Self.hitUntilMapped(harness, "/a.ts", Self.segment, under: directory.path).count == 1)
            let mappedHits = { harness.proxy.status?.traffic.mappedHits ?? 0 }
            let before = mappedHits()
            for _ in 0..<3 {
                let hit = try await harness.get("/a.ts")
                #expect(hit.status == 200 && sameBytes(hit.body, Self.segment))
            }
            #expect(mappedHits() == before + 3, "whole segments are always written from the mapping, and counted")
            let range = try await harness.get("/a.ts", headers: [("Range", "bytes=1000000-1065535")])
            #expect(range.status == 206 && sameBytes(range.body, Array(Self.segment[1_000_000..<1_065_536])))
            let tail = try await harness.get("/a.ts", headers: [("Range", "bytes=-10")])
            #expect(tail.status == 206 && tail.body == Array(Self.segment.suffix(10)))
        }
        #expect(try Self.mappedFiles(under: directory.path).isEmpty, "a stopped proxy unmaps everything")
    }

    @Test("Nothing is mapped with a limit of 0, for a response over a quarter of the limit, or for a partly cached file",
          arguments: ["limit 0", "large response", "partial"])
    func whatIsNotMapped(_ case: String) async throws {
        let directory = TemporaryDirectory("mapped")
        try await ProxyHarness.run(configure: { configuration in
            if `case` == "limit 0" { configuration.mappedFiles.limit = 0 }
            if `case` == "large response" { configuration.mappedFiles.limit = 4 << 20 }
        }, directory: directory) { harness in
            harness.origin.set("/a.ts", .init(Self.segment, contentType: "video/mp2t"))
            let headers = `case` == "partial" ? [("Range", "bytes=0-99999")] : []
            let expected = `case` == "partial" ? Array(Self.segment[0..<100_000]) : Self.segment
            for _ in 0..<3 {
                let response = try await harness.get("/a.ts", headers: headers)
                #expect(sameBytes(response.body, expected))
            }
            #expect(try Self.mappedFiles(under: directory.path).isEmpty)
        }
    }

    @Test("The mappings stay within their limit, least recently used first out")
    func limitHolds() async throws {
        let directory = TemporaryDirectory("mapped")
        let limit = 10 << 20
        try await ProxyHarness.run(configure: { $0.mappedFiles.limit = limit }, directory: directory) { harness in
            let bodies = (0..<6).map { TestBytes(seed: UInt64(100 + $0)).bytes(0, 2_000_000) }
            for (index, body) in bodies.enumerated() {
                harness.origin.set("/\(index).ts", .init(body, contentType: "video/mp2t"))
                _ = try await harness.get("/\(index).ts")
            }
            for (index, body) in bodies.enumerated() {
                try #require(try await !Self.hitUntilMapped(harness, "/\(index).ts", body, under: directory.path).isEmpty)
            }
            for round in 0..<2 {
                for (index, body) in bodies.enumerated() {
                    let hit = try await harness.get("/\(index).ts")
                    #expect(sameBytes(hit.body, body), "round \(round), file \(index)")
                    #expect(try Self.mappedFiles(under: directory.path).count <= 5, "five files of 2 MB fit in 10 MiB, six do not")
                    #expect(try Self.residentBytes(under: directory.path) <= limit)
                }
            }
            let mapped = try Self.mappedFiles(under: directory.path)
            #expect(mapped.count >= 2, "the files were mapped: \(mapped)")
        }
    }

    @Test("Ranges all over a large file keep the mapping's resident pages within the limit")
    func rangesOfALargeFile() async throws {
        let directory = TemporaryDirectory("mapped")
        let limit = 3 << 20
        let movie = TestBytes(seed: 79).bytes(0, 12_000_000)
        try await ProxyHarness.run(configure: { $0.mappedFiles.limit = limit }, directory: directory) { harness in
            harness.origin.set("/movie.mp4", .init(movie, contentType: "video/mp4"))
            _ = try await harness.get("/movie.mp4")
            var mapped = false
            let deadline = ContinuousClock.now + .seconds(10)
            for pass in 0..<2 {
                for offset in stride(from: 0, to: movie.count - 65_536, by: 65_536) {
                    let range = try await harness.get("/movie.mp4", headers: [("Range", "bytes=\(offset)-\(offset + 65_535)")])
                    #expect(range.status == 206 && sameBytes(range.body, movie[offset..<offset + 65_536]), "pass \(pass), offset \(offset)")
                    mapped = try mapped || !Self.mappedFiles(under: directory.path).isEmpty
                    // One fault maps at most 64 KiB around it: a piece's worth of slack.
                    let resident = try Self.residentBytes(under: directory.path)
                    #expect(resident <= limit + 65_536, "\(resident) resident")
                }
                if !mapped && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(mapped, "ranges of a large file are written from its mapping")
        }
    }

    /// Hits ranges `offsets` (64 KiB each) of `path`, every body checked, until the file is
    /// mapped; whether it was within a few seconds.
    static func rangesUntilMapped(_ harness: ProxyHarness, _ path: String, _ body: [UInt8], offsets: [Int], under directory: String) async throws -> Bool {
        // Generous: beside the whole proxy group a round of two ranges and a look at the maps can
        // take longer than the 250 ms idle release, and 5 s ran out (twice in group runs).
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            for offset in offsets {
                let range = try await harness.get(path, headers: [("Range", "bytes=\(offset)-\(offset + 65_535)")])
                try #require(range.status == 206 && sameBytes(range.body, body[offset..<offset + 65_536]), "offset \(offset)")
            }
            if try !mappedFiles(under: directory).isEmpty { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    @Test("A large file is mapped for the bytes this process verified: after a restart, and after some of its blocks must be verified again",
          arguments: ["restart", "verify again"])
    func partlyVerifiedFileIsMapped(_ case: String) async throws {
        let movie = TestBytes(seed: 81).bytes(0, 12_000_000)
        let origin = try await TestOrigin.start()
        origin.set("/movie.mp4", .init(movie, contentType: "video/mp4"))
        let directory = TemporaryDirectory("mapped")
        if `case` == "restart" {
            // Cached by an earlier run: nothing of it is verified in the proxy's process.
            let store = try CacheStore.open(at: directory.path, configuration: CacheStoreConfiguration(
                maximumSize: 256 << 20, fileOptions: SparseFileOptions(durability: .none)))
            try store.put(key: store.key(for: origin.url("/movie.mp4")), offset: 0, bytes: movie,
                          metadata: EntryMetadata(contentLength: UInt64(movie.count), contentType: "video/mp4"))
            try store.close()
        }
        try await ProxyHarness.run(origin: origin, configure: { $0.mappedFiles.idleRelease = .milliseconds(250) }, directory: directory) { harness in
            let offsets = [8_000_000, 9_000_123]
            if `case` == "verify again" {
                #expect(try await harness.get("/movie.mp4").body == movie)  // the miss: every block written, so verified
                try #require(try await Self.rangesUntilMapped(harness, "/movie.mp4", movie, offsets: offsets, under: directory.path))
                // A cold read's bytes, and what the kernel may have read around them, must be
                // verified again; the rest of the file stays verified.
                let file = try #require(harness.store.reader(for: harness.store.key(for: harness.origin.url("/movie.mp4"))).file)
                file.requireVerificationAgain(within: try #require(ByteRange(offset: 0, length: 4_000_000)))
                let deadline = ContinuousClock.now + .seconds(5)
                while try !Self.mappedFiles(under: directory.path).isEmpty, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                try #require(try Self.mappedFiles(under: directory.path).isEmpty, "unmapped once idle")
            }
            #expect(try await Self.rangesUntilMapped(harness, "/movie.mp4", movie, offsets: offsets, under: directory.path),
                    "ranges verified in this process are written from a mapping")
            // Bytes not verified since are read (and so verified) before they are served.
            let unverified = try await harness.get("/movie.mp4", headers: [("Range", "bytes=100000-165535")])
            #expect(unverified.status == 206 && sameBytes(unverified.body, movie[100_000..<165_536]))
            #expect(harness.origin.requests(for: "/movie.mp4").count == (`case` == "restart" ? 0 : 1), "every hit came from the cache")
        }
    }

    @Test("A file hit again and again stays mapped; once no hit asks for it, it is unmapped and its pages leave")
    func idleMappingIsReleased() async throws {
        let directory = TemporaryDirectory("mapped")
        // A period far above what a hit takes here, even in a debug build beside other tests:
        // hits further apart than a period would rightly let the mapping go.
        // 3 s: one hit took more than the 1 s there was in a full run beside a benchmark.
        try await ProxyHarness.run(configure: { $0.mappedFiles.idleRelease = .seconds(3) }, directory: directory) { harness in
            harness.origin.set("/a.ts", .init(Self.segment, contentType: "video/mp2t"))
            _ = try await harness.get("/a.ts")
            try #require(try await !Self.hitUntilMapped(harness, "/a.ts", Self.segment, under: directory.path).isEmpty)
            // Hits for three periods: each one marks the mapping used, so no release takes it.
            // Whole segments: a connection's chooser may send small ranges with `sendfile` on a
            // busy machine (HitWriteChooser), and those would leave the mapping idle.
            let busyUntil = ContinuousClock.now + .seconds(9)
            while ContinuousClock.now < busyUntil {
                let hit = try await harness.get("/a.ts")
                #expect(sameBytes(hit.body, Self.segment))
                #expect(try !Self.mappedFiles(under: directory.path).isEmpty, "unmapped while in use")
            }
            #expect(try Self.residentBytes(under: directory.path) > 0)
            let deadline = ContinuousClock.now + .seconds(20)
            while try !Self.mappedFiles(under: directory.path).isEmpty, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(try Self.mappedFiles(under: directory.path).isEmpty, "still mapped after no hit for seconds")
            #expect(try Self.residentBytes(under: directory.path) == 0)
            #expect(try await !Self.hitUntilMapped(harness, "/a.ts", Self.segment, under: directory.path).isEmpty, "mapped again by the next hit")
        }
    }

    @Test("A file the store removed is unmapped, so its blocks are freed")
    func removedFileIsUnmapped() async throws {
        let directory = TemporaryDirectory("mapped")
        try await ProxyHarness.run(directory: directory) { harness in
            harness.origin.set("/a.ts", .init(Self.segment, contentType: "video/mp2t"))
            harness.origin.set("/b.ts", .init(Array(Self.segment.reversed()), contentType: "video/mp2t"))
            _ = try await harness.get("/a.ts")
            let mapped = try await Self.hitUntilMapped(harness, "/a.ts", Self.segment, under: directory.path)
            try #require(mapped.count == 1)
            _ = try harness.store.remove(key: harness.store.key(for: harness.origin.url("/a.ts")))
            // Any later hit looks at the store's entries again.
            _ = try await harness.get("/b.ts")
            _ = try await harness.get("/b.ts")
            let after = try Self.mappedFiles(under: directory.path)
            #expect(after.allSatisfy { !$0.hasSuffix("(deleted)") } && after.isDisjoint(with: mapped), "\(after)")
            #expect(try await harness.get("/a.ts").body == Self.segment, "fetched again")
        }
    }

    @Test("A response waiting for a slow client keeps its mapping after the file is removed")
    func slowClientKeepsTheMapping() async throws {
        // Larger than the kernel's socket buffers take at once (up to 4 MiB), within a quarter of the limit.
        let large = TestBytes(seed: 78).bytes(0, 12_000_000)
        let directory = TemporaryDirectory("mapped")
        try await ProxyHarness.run(configure: { $0.mappedFiles.limit = 64 << 20 }, directory: directory) { harness in
            harness.origin.set("/a.ts", .init(large, contentType: "video/mp2t"))
            harness.origin.set("/b.ts", .init(Array(large.reversed()), contentType: "video/mp2t"))
            _ = try await harness.get("/a.ts")
            _ = try await harness.get("/b.ts")
            try #require(try await Self.hitUntilMapped(harness, "/a.ts", large, under: directory.path).count == 1)
            let slow = try RawConnection(port: harness.port, receiveBufferSize: 16 * 1024)
            let target = String(harness.proxyURL("/a.ts").dropFirst("http://\(harness.host)".count))
            let mappedHits = { harness.proxy.status?.traffic.mappedHits ?? 0 }
            let before = mappedHits()
            #expect(slow.send("GET \(target) HTTP/1.1\r\nHost: \(harness.host)\r\n\r\n"))
            // The hit is written from the mapping (the buffer over it is handed to the connection
            // as it is counted); the client reads nothing more than the head, so most of the body
            // waits in the proxy, in that buffer.
            try await waitUntil("the slow client's hit is written from the mapping") { mappedHits() == before + 1 }
            #expect(await slow.readHead(andBody: 1, timeout: .seconds(10)))
            _ = try harness.store.remove(key: harness.store.key(for: harness.origin.url("/a.ts")))
            _ = try await harness.get("/b.ts")  // looks at the store's entries: the mapping is retired
            let response = await slow.readResponse(timeout: .seconds(20))
            #expect(response?.status == 200)
            #expect(sameBytes(response?.body ?? [], large))
        }
    }

    @Test("Hits in flight on many connections when their file is removed and unmapped all get its bytes")
    func hitsDuringRemoval() async throws {
        let directory = TemporaryDirectory("mapped")
        try await ProxyHarness.run(directory: directory) { harness in
            let body = TestBytes(seed: 200).bytes(0, 1_500_000)
            harness.origin.set("/a.ts", .init(body, contentType: "video/mp2t"))
            let key = harness.store.key(for: harness.origin.url("/a.ts"))
            _ = try await harness.get("/a.ts")
            try #require(try await Self.hitUntilMapped(harness, "/a.ts", body, under: directory.path).count == 1)
            // Each round removes the file once while 8 connections hit it; the round ends when
            // every response has (the file fetched again, and mapped again, by the hits that
            // came after the removal), so no removal falls on a fill, which it would cut short.
            for round in 0..<10 {
                let wrong = try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<8 {
                        group.addTask {
                            var wrong = 0
                            for _ in 0..<3 {
                                let response = try await harness.get("/a.ts")
                                if response.status != 200 || !sameBytes(response.body, body) { wrong += 1 }
                            }
                            return wrong
                        }
                    }
                    group.addTask {
                        try await Task.sleep(for: .milliseconds(round % 3 * 5))
                        _ = try harness.store.remove(key: key)
                        return 0
                    }
                    return try await group.reduce(0, +)
                }
                #expect(wrong == 0, "round \(round)")
            }
        }
    }
}
