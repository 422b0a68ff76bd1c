import CacheStore
import NIOHTTP1
import SparseFile
import Testing
import TestSupport

@Suite("Serving bytes with RFC 9110 ranges", .timeLimit(.minutes(2)))
struct ByteServingTests {
    static let body = TestBytes(seed: 7).bytes(0, 300_000)

    private func withSegment(_ body: (ProxyHarness) async throws -> Void) async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/v/seg.ts", .init(Self.body, contentType: "video/mp2t", entityTag: "\"v1\""))
            try await body(harness)
        }
    }

    @Test("A whole GET returns 200 with the origin's bytes, length and type")
    func wholeGet() async throws {
        try await withSegment { harness in
            let response = try await harness.get("/v/seg.ts")
            #expect(response.status == 200)
            #expect(response.body == Self.body)
            #expect(response.headers.first(name: "content-length") == "300000")
            #expect(response.headers.first(name: "content-type") == "video/mp2t")
            #expect(response.headers.first(name: "accept-ranges") == "bytes")
            #expect(response.headers.first(name: "etag") == "\"v1\"")
        }
    }

    @Test("Single ranges get 206 with Content-Range, cached or not", arguments: [
        ("bytes=0-99", 0..<100), ("bytes=1000-", 1000..<300_000), ("bytes=-500", 299_500..<300_000),
        ("bytes=299990-400000", 299_990..<300_000), ("bytes=0-0", 0..<1),
    ])
    func singleRange(header: String, expected: Range<Int>) async throws {
        try await withSegment { harness in
            for pass in 0..<2 {
                let response = try await harness.get("/v/seg.ts", headers: [("Range", header)])
                #expect(response.status == 206, "pass \(pass)")
                #expect(response.body == Array(Self.body[expected]), "pass \(pass)")
                #expect(response.headers.first(name: "content-range") == "bytes \(expected.lowerBound)-\(expected.upperBound - 1)/300000")
                #expect(response.headers.first(name: "content-length") == String(expected.count))
            }
        }
    }

    @Test("bytes=0- is answered 206, not 200 (the Varnish bug)")
    func openFromZero() async throws {
        try await withSegment { harness in
            let response = try await harness.get("/v/seg.ts", headers: [("Range", "bytes=0-")])
            #expect(response.status == 206)
            #expect(response.headers.first(name: "content-range") == "bytes 0-299999/300000")
            #expect(response.body == Self.body)
        }
    }

    @Test("Unsatisfiable ranges get 416 with the length, before and after caching")
    func unsatisfiable() async throws {
        try await withSegment { harness in
            for _ in 0..<2 {
                let response = try await harness.get("/v/seg.ts", headers: [("Range", "bytes=300000-")])
                #expect(response.status == 416)
                #expect(response.headers.first(name: "content-range") == "bytes */300000")
            }
            let suffix = try await harness.get("/v/seg.ts", headers: [("Range", "bytes=-0")])
            #expect(suffix.status == 416, "a zero-length suffix is valid but unsatisfiable")
        }
    }

    @Test("Multiple ranges and malformed Range headers get the whole body", arguments: [
        "bytes=0-1,5-6", "bytes=9-2", "items=0-1", "bytes=abc",
    ])
    func wholeForOtherRanges(header: String) async throws {
        try await withSegment { harness in
            let response = try await harness.get("/v/seg.ts", headers: [("Range", header)])
            #expect(response.status == 200)
            #expect(response.body == Self.body)
        }
    }

    @Test("HEAD gives the headers of GET and no body, without fetching the body")
    func head() async throws {
        try await withSegment { harness in
            let response = try await harness.get("/v/seg.ts", method: .HEAD)
            #expect(response.status == 200)
            #expect(response.headers.first(name: "content-length") == "300000")
            #expect(response.body.isEmpty)
            let ranged = try await harness.get("/v/seg.ts", method: .HEAD, headers: [("Range", "bytes=10-19")])
            #expect(ranged.status == 206)
            #expect(ranged.headers.first(name: "content-length") == "10")
            #expect(harness.origin.requests(for: "/v/seg.ts").map(\.range) == ["bytes=0-0"])
        }
    }

    @Test("If-Range that does not match the entry serves the whole body")
    func ifRange() async throws {
        try await withSegment { harness in
            _ = try await harness.get("/v/seg.ts")
            let matching = try await harness.get("/v/seg.ts", headers: [("Range", "bytes=0-9"), ("If-Range", "\"v1\"")])
            #expect(matching.status == 206)
            let stale = try await harness.get("/v/seg.ts", headers: [("Range", "bytes=0-9"), ("If-Range", "\"old\"")])
            #expect(stale.status == 200)
            #expect(stale.body == Self.body)
        }
    }

    @Test("Keep-alive: many requests share one connection")
    func keepAlive() async throws {
        try await withSegment { harness in
            let connection = try RawConnection(port: harness.port)
            let target = "/proxy?url=" + percentEncoded(harness.origin.url("/v/seg.ts"))
            for _ in 0..<3 {
                connection.send("GET \(target) HTTP/1.1\r\nHost: \(harness.host)\r\nRange: bytes=0-9\r\n\r\n")
            }
            connection.send("GET \(target) HTTP/1.1\r\nHost: \(harness.host)\r\nRange: bytes=10-19\r\nConnection: close\r\n\r\n")
            let (bytes, closed) = await connection.readUntilClosed(timeout: .seconds(30))
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(closed)
            #expect(text.components(separatedBy: "HTTP/1.1 206 Partial Content").count == 5)
        }
    }

    @Test("A cached hit makes no upstream request and counts as a hit with its bytes")
    func hitMakesNoRequest() async throws {
        try await withSegment { harness in
            _ = try await harness.get("/v/seg.ts")
            harness.origin.resetLog()
            let before = harness.store.statistics
            for _ in 0..<3 {
                let response = try await harness.get("/v/seg.ts", headers: [("Range", "bytes=100-199")])
                #expect(response.body == Array(Self.body[100..<200]))
            }
            #expect(harness.origin.requests.isEmpty)
            #expect(harness.store.statistics.hits == before.hits + 3)
            #expect(harness.store.statistics.bytesFromCache == before.bytesFromCache + 300)
        }
    }

    @Test("Bodies served again from verified cache bytes (sendfile) are identical, any size, any range")
    func repeatedHits() async throws {
        try await withSegment { harness in
            let ranges: [(String?, Range<Int>)] = [(nil, 0..<300_000), ("bytes=1000-", 1000..<300_000), ("bytes=5-70004", 5..<70_005), ("bytes=-3", 299_997..<300_000)]
            for pass in 0..<3 {
                for (header, expected) in ranges {
                    let response = try await harness.get("/v/seg.ts", headers: header.map { [("Range", $0)] } ?? [])
                    #expect(response.body == Array(Self.body[expected]), "pass \(pass), \(header ?? "whole")")
                }
            }
            #expect(harness.origin.requests(for: "/v/seg.ts").count == 1)
        }
    }
}
