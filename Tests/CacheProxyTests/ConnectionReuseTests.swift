import CacheStore
import Foundation
import Testing
import TestSupport

/// A player asks one connection for many ranges, of one file or of several: the cache-hit path
/// keeps what it looked up and one descriptor per file across them. These tests check that
/// what it keeps never outlives what it stands for.
@Suite("One connection, many cache hits", .timeLimit(.minutes(2)))
struct ConnectionReuseTests {
    static let first = TestBytes(seed: 21).bytes(0, 300_000)
    static let second = TestBytes(seed: 22).bytes(0, 200_000)

    /// Both resources cached and read once, so their bytes are verified and sent with sendfile.
    private func withTwoCachedFiles(_ body: (ProxyHarness) async throws -> Void) async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/a.mp4", .init(Self.first, contentType: "video/mp4", entityTag: "\"a1\""))
            harness.origin.set("/b.mp4", .init(Self.second, contentType: "video/mp4", entityTag: "\"b1\""))
            for path in ["/a.mp4", "/b.mp4", "/a.mp4", "/b.mp4"] { _ = try await harness.get(path) }
            harness.origin.resetLog()
            try await body(harness)
        }
    }

    private func request(_ harness: ProxyHarness, _ path: String, _ range: Range<Int>, close: Bool = false) -> String {
        "GET /proxy?url=\(percentEncoded(harness.origin.url(path))) HTTP/1.1\r\nHost: x\r\n"
            + "Range: bytes=\(range.lowerBound)-\(range.upperBound - 1)\r\n" + (close ? "Connection: close\r\n" : "") + "\r\n"
    }

    @Test("Pipelined ranges of two files, switching back and forth, each come from the right file")
    func switchingFiles() async throws {
        try await withTwoCachedFiles { harness in
            let wanted: [(String, [UInt8], Range<Int>)] = [
                ("/a.mp4", Self.first, 0..<65536), ("/a.mp4", Self.first, 100_000..<165_536), ("/b.mp4", Self.second, 5..<70_005),
                ("/a.mp4", Self.first, 299_000..<300_000), ("/b.mp4", Self.second, 0..<200_000), ("/b.mp4", Self.second, 199_999..<200_000),
                ("/a.mp4", Self.first, 1..<2),
            ]
            let connection = try RawConnection(port: harness.port)
            for (index, (path, _, range)) in wanted.enumerated() {
                connection.send(request(harness, path, range, close: index == wanted.count - 1))
            }
            for (index, (path, bytes, range)) in wanted.enumerated() {
                let response = try #require(await connection.readResponse(timeout: .seconds(10)), "response \(index)")
                #expect(response.status == 206)
                #expect(response.headers["content-range"] == "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(bytes.count)")
                // Compared outside #expect: a failing comparison of large arrays would be printed whole.
                let intact = response.body.elementsEqual(bytes[range])
                #expect(intact, "response \(index): \(path) \(range)")
            }
            #expect(harness.origin.requests.isEmpty)
            #expect(await connection.readUntilClosed(timeout: .seconds(5)).closed)
        }
    }

    @Test("A connection's hits leave no descriptor of a cache file open once it has closed")
    func descriptorsAreReleased() async throws {
        try await withTwoCachedFiles { harness in
            let before = try Self.descriptorsOpen(under: harness.store.directory)
            // The store holds both files open: a count that sees none of them counts nothing.
            #expect(before >= 2, "\(before) descriptors found on the store's files")
            let connection = try RawConnection(port: harness.port)
            for round in 0..<20 {
                let path = round % 3 == 0 ? "/b.mp4" : "/a.mp4"
                connection.send(request(harness, path, round * 1000..<round * 1000 + 4096))
                #expect(await connection.readResponse(timeout: .seconds(10))?.status == 206)
            }
            #expect(try Self.descriptorsOpen(under: harness.store.directory) <= before + 1, "one shared descriptor at most")
            connection.send(request(harness, "/a.mp4", 0..<10, close: true))
            #expect(await connection.readUntilClosed(timeout: .seconds(5)).closed)
            try await waitUntil("the connection's descriptors are closed") {
                try Self.descriptorsOpen(under: harness.store.directory) <= before
            }
            #expect(try Self.descriptorsOpen(under: harness.store.directory) == before)
        }
    }

    @Test("An entry removed while a connection serves it is fetched anew, never served from the old file")
    func removedEntryIsNotServed() async throws {
        try await withTwoCachedFiles { harness in
            let connection = try RawConnection(port: harness.port)
            connection.send(request(harness, "/a.mp4", 1000..<2000))
            let original = await connection.readResponse(timeout: .seconds(10))?.body.elementsEqual(Self.first[1000..<2000])
            #expect(original == true)

            let replacement = TestBytes(seed: 23).bytes(0, 300_000)
            harness.origin.set("/a.mp4", .init(replacement, contentType: "video/mp4", entityTag: "\"a2\""))
            _ = try harness.store.remove(key: harness.store.key(for: harness.origin.url("/a.mp4")))
            connection.send(request(harness, "/a.mp4", 1000..<2000))
            let response = try #require(await connection.readResponse(timeout: .seconds(10)))
            #expect(response.headers["etag"] == "\"a2\"")
            let isReplacement = response.body.elementsEqual(replacement[1000..<2000])
            #expect(isReplacement)
            #expect(harness.origin.requests(for: "/a.mp4").count == 1)
        }
    }

    /// Descriptors of this process open on files under `directory`.
    private static func descriptorsOpen(under directory: String) throws -> Int {
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        return descriptors.count { name in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name))?.hasPrefix(directory) ?? false
        }
    }
}
