import CacheStore
import Foundation
import SparseFile
import Testing
import TestSupport

/// A cache block whose bytes changed on disk (a flipped bit, a torn write) fails its checksum
/// when the proxy first reads it: it is treated as missing, fetched again, and the client gets
/// the origin's bytes, whichever way the response would have been served.
@Suite("Corrupt cache blocks", .timeLimit(.minutes(2)))
struct CorruptBlockTests {
    static let body = TestBytes(seed: 81).bytes(0, 600_000)
    static let damaged: UInt64 = 300_000

    /// A store in a fresh directory holding the whole body of `url` with one byte at `damaged`
    /// flipped on disk, closed, so that the proxy's store opens it without having verified it.
    private func damagedStore(url: String) throws -> TemporaryDirectory {
        let directory = TemporaryDirectory("proxy")
        let store = try CacheStore.open(at: directory.path, configuration: CacheStoreConfiguration(
            maximumSize: 256 << 20, fileOptions: SparseFileOptions(durability: .none)))
        let key = store.key(for: url)
        try store.put(key: key, offset: 0, bytes: Self.body,
                      metadata: EntryMetadata(contentLength: UInt64(Self.body.count), contentType: "video/mp2t"))
        let fileName = try #require(store.entry(for: key)?.fileName)
        try store.close()
        let path = directory.path + "/entries/" + fileName
        let file = try SparseFile.open(at: path)
        let byte = try #require(ByteRange(offset: Self.damaged, length: 1))
        _ = try file.read(byte)
        let offset = try #require(file.verifiedRun(for: byte)?.fileOffset)
        try file.close()
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: offset)
        let original = try #require(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: [original ^ 0x5A])
        try handle.close()
        return directory
    }

    /// The origin's request for the damaged block: one request, for bytes from its block on.
    private func expectOneRefetchOfTheDamagedBlock(_ harness: ProxyHarness) {
        let requests = harness.origin.requests(for: "/seg.ts")
        #expect(requests.count == 1)
        let asked = requests.first.map { DownloadTests.range(of: $0, length: Self.body.count) }
        #expect(asked.map { $0.offset <= Self.damaged && Self.damaged < $0.end && $0.length <= 1 << 20 } == true, "\(requests)")
    }

    @Test("Streamed from the cache file: the corrupt block is fetched again, the body is the origin's")
    func streamedBody() async throws {
        let origin = try await TestOrigin.start()
        origin.set("/seg.ts", .init(Self.body))
        let directory = try damagedStore(url: origin.url("/seg.ts"))
        try await ProxyHarness.run(origin: origin, directory: directory) { harness in
            let response = try await harness.get("/seg.ts")
            #expect(response.status == 200)
            let intact = sameBytes(response.body, Self.body)
            #expect(intact, "the whole body is the origin's")
            expectOneRefetchOfTheDamagedBlock(harness)
            #expect(harness.proxy.status?.traffic.brokenResponses == 0)
        }
    }

    @Test("A range the hit path would answer from the cache file: the corrupt block is fetched again")
    func hitPathRange() async throws {
        let origin = try await TestOrigin.start()
        origin.set("/seg.ts", .init(Self.body))
        let directory = try damagedStore(url: origin.url("/seg.ts"))
        try await ProxyHarness.run(origin: origin, directory: directory) { harness in
            let wanted = Int(Self.damaged) - 1000..<Int(Self.damaged) + 1000
            let connection = try RawConnection(port: harness.port)
            let request = "GET /proxy?url=\(percentEncoded(harness.origin.url("/seg.ts"))) HTTP/1.1\r\nHost: x\r\n"
                + "Range: bytes=\(wanted.lowerBound)-\(wanted.upperBound - 1)\r\n\r\n"
            connection.send(request)
            let first = try #require(await connection.readResponse(timeout: .seconds(10)))
            #expect(first.status == 206)
            #expect(sameBytes(first.body, Self.body[wanted]))
            expectOneRefetchOfTheDamagedBlock(harness)
            // Now cached and sound: a hit, sent from the cache file, with nothing fetched.
            let hits = harness.proxy.status?.traffic.hitsFromRawRequests ?? 0
            connection.send(request)
            let second = try #require(await connection.readResponse(timeout: .seconds(10)))
            #expect(sameBytes(second.body, Self.body[wanted]))
            #expect(harness.proxy.status?.traffic.hitsFromRawRequests == hits + 1)
            #expect(harness.origin.requests(for: "/seg.ts").count == 1)
        }
    }
}
