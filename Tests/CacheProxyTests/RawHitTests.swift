import CacheProxy
import Foundation
import Testing
import TestSupport

/// Hits answered from the raw request bytes, before SwiftNIO's HTTP decoder, must behave as
/// those answered behind it: in order with the connection's other responses, across split
/// reads, and never for requests that are not plain.
@Suite("Cache hits answered from raw request bytes", .timeLimit(.minutes(2)))
struct RawHitTests {
    static let body = TestBytes(seed: 31).bytes(0, 300_000)

    private func withCachedFile(_ test: (ProxyHarness, _ target: String) async throws -> Void) async throws {
        try await withCachedFile(configure: { _ in }, test)
    }

    private func withCachedFile(
        configure: (inout CacheProxyConfiguration) -> Void,
        _ test: (ProxyHarness, _ target: String) async throws -> Void
    ) async throws {
        try await ProxyHarness.run(configure: configure) { harness in
            harness.origin.set("/v.mp4", .init(Self.body, contentType: "video/mp4"))
            _ = try await harness.get("/v.mp4")
            _ = try await harness.get("/v.mp4")  // read once, so verified
            try await test(harness, "/proxy?url=" + percentEncoded(harness.origin.url("/v.mp4")))
        }
    }

    private func rawHits(_ harness: ProxyHarness) -> UInt64 {
        harness.proxy.status?.traffic.hitsFromRawRequests ?? 0
    }

    private func matches(_ response: RawConnection.Response?, _ range: Range<Int>) -> Bool {
        guard let response, response.status == 206 else { return false }
        return response.body.elementsEqual(Self.body[range])
    }

    @Test("Plain range requests of a cached file are answered from the raw bytes")
    func plainRequests() async throws {
        try await withCachedFile { harness, target in
            let before = rawHits(harness)
            let connection = try RawConnection(port: harness.port)
            for start in [0, 70_000, 299_990] {
                connection.send("GET \(target) HTTP/1.1\r\nHost: \(harness.host)\r\nRange: bytes=\(start)-\(start + 9)\r\n\r\n")
                #expect(matches(await connection.readResponse(timeout: .seconds(10)), start..<start + 10))
            }
            #expect(rawHits(harness) == before + 3)
        }
    }

    @Test("Only the small hits the proxy chose to send with sendfile are counted as such")
    func sendfileChoicesCounted() async throws {
        // With nothing mapped every hit goes out with sendfile, and a copy is never timed, so the
        // chooser keeps preferring the mapping: only its probes, one hit in 64, are choices of sendfile.
        try await withCachedFile(configure: { $0.mappedFiles.limit = 0 }) { harness, target in
            let chosen = { harness.proxy.status?.traffic.sendfileChosenHits ?? 0 }
            let connection = try RawConnection(port: harness.port)
            let before = chosen()
            let hits = 2 * 64  // HitWriteChooser.probeInterval
            for hit in 0..<hits {
                let start = hit % 4 * 65_536
                connection.send("GET \(target) HTTP/1.1\r\nHost: \(harness.host)\r\nRange: bytes=\(start)-\(start + 65_535)\r\n\r\n")
                try #require(matches(await connection.readResponse(timeout: .seconds(10)), start..<start + 65_536))
            }
            #expect(chosen() == before + 2)
            // Bodies over 256 KiB are never chosen for (the 300,000 bytes, whole).
            for _ in 0..<hits {
                connection.send("GET \(target) HTTP/1.1\r\nHost: \(harness.host)\r\n\r\n")
                let whole = await connection.readResponse(timeout: .seconds(10))
                try #require(whole?.status == 200 && whole?.body.count == Self.body.count)
            }
            #expect(chosen() == before + 2)
        }
    }

    @Test("A hit answered from the raw bytes has the head SwiftNIO's encoder writes for the same request", arguments: [
        ("GET", "HTTP/1.1", "Range: bytes=100-199\r\n"),
        ("GET", "HTTP/1.1", ""),
        ("GET", "HTTP/1.1", "Range: bytes=-10\r\nConnection: close\r\n"),
        ("GET", "HTTP/1.0", "Range: bytes=0-9\r\nConnection: keep-alive\r\n"),
        ("GET", "HTTP/1.0", "Range: bytes=0-9\r\n"),
        ("HEAD", "HTTP/1.1", ""),
        ("HEAD", "HTTP/1.1", "Range: bytes=5-\r\n"),
        ("GET", "HTTP/1.1", "Range: bytes=0-9\r\nIf-Range: \"v1\"\r\n"),
        ("GET", "HTTP/1.1", "Range: bytes=0-9\r\nIf-Range: \"v0\"\r\n"),
    ])
    func rawHeadIsTheEncodersHead(method: String, version: String, fields: String) async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/t.mp4", .init(Self.body, contentType: "video/mp4", entityTag: "\"v1\"",
                                               lastModified: "Tue, 24 Nov 2026 10:00:00 GMT"))
            _ = try await harness.get("/t.mp4")
            _ = try await harness.get("/t.mp4")  // read once, so verified
            let target = "/proxy?url=" + percentEncoded(harness.origin.url("/t.mp4"))
            let request = "\(method) \(target) \(version)\r\nHost: \(harness.host)\r\n\(fields)\r\n"
            let raw = try RawConnection(port: harness.port)
            let before = rawHits(harness)
            raw.send(request)
            let rawResponse = await raw.readResponse(timeout: .seconds(10), toHead: method == "HEAD")
            #expect(rawHits(harness) == before + 1, "answered from the raw bytes")
            // A field value beyond ASCII is not plain: the request goes through SwiftNIO's
            // decoder and the hit is answered behind it, with an `HTTPResponseHead` and the encoder.
            let decoded = try RawConnection(port: harness.port)
            decoded.send(request.replacingOccurrences(of: "\r\n\r\n", with: "\r\nX-Note: caf\u{E9}\r\n\r\n"))
            let decodedResponse = await decoded.readResponse(timeout: .seconds(10), toHead: method == "HEAD")
            #expect(rawHits(harness) == before + 1, "answered behind the decoder")
            let head = try #require(rawResponse?.head)
            #expect(head == decodedResponse?.head)
            #expect(head.hasPrefix(version + " 20") && head.contains("ETag: \"v1\"\r\nLast-Modified: "), "\(head)")
            #expect(sameBytes(rawResponse?.body ?? [], decodedResponse?.body ?? []))
        }
    }

    @Test("A request split across reads, even a byte at a time, is answered")
    func splitRequest() async throws {
        try await withCachedFile { harness, target in
            let connection = try RawConnection(port: harness.port)
            let request = "GET \(target) HTTP/1.1\r\nHost: \(harness.host)\r\nRange: bytes=5-14\r\n\r\n"
            let cut = request.index(request.startIndex, offsetBy: 20)
            connection.send(String(request[..<cut]))
            try await Task.sleep(for: .milliseconds(50))
            connection.send(String(request[cut...]))
            #expect(matches(await connection.readResponse(timeout: .seconds(10)), 5..<15))
            for character in request {
                connection.send(String(character))
                try await Task.sleep(for: .milliseconds(1))
            }
            #expect(matches(await connection.readResponse(timeout: .seconds(10)), 5..<15))
        }
    }

    @Test("A hit pipelined behind a miss waits for it: responses keep the order of requests")
    func hitBehindAMiss() async throws {
        try await withCachedFile { harness, target in
            let slow = TestBytes(seed: 32).bytes(0, 400_000)
            harness.origin.set("/slow.ts", .init(slow, faults: .init(chunkDelay: .milliseconds(20), chunkSize: 50_000)))
            let miss = "/proxy?url=" + percentEncoded(harness.origin.url("/slow.ts"))
            let connection = try RawConnection(port: harness.port)
            connection.send("GET \(miss) HTTP/1.1\r\nHost: \(harness.host)\r\nRange: bytes=0-299999\r\n\r\n"
                + "GET \(target) HTTP/1.1\r\nHost: \(harness.host)\r\nRange: bytes=10-19\r\n\r\n"
                + "GET \(target) HTTP/1.1\r\nHost: \(harness.host)\r\nRange: bytes=20-29\r\n\r\n")
            let first = try #require(await connection.readResponse(timeout: .seconds(20)))
            let intact = first.status == 206 && first.body.elementsEqual(slow[0..<300_000])
            #expect(intact, "the miss comes first, whole")
            #expect(matches(await connection.readResponse(timeout: .seconds(10)), 10..<20))
            #expect(matches(await connection.readResponse(timeout: .seconds(10)), 20..<30))
            // Once the miss has been answered, the connection's hits come from the raw bytes again.
            let before = rawHits(harness)
            connection.send("GET \(target) HTTP/1.1\r\nHost: \(harness.host)\r\nRange: bytes=30-39\r\n\r\n")
            #expect(matches(await connection.readResponse(timeout: .seconds(10)), 30..<40))
            #expect(rawHits(harness) == before + 1)
        }
    }

    @Test("After a request that is not plain, the connection's requests go to the full parser and are answered")
    func notPlainHandsOver() async throws {
        try await withCachedFile { harness, target in
            let before = rawHits(harness)
            let connection = try RawConnection(port: harness.port)
            connection.send("GET \(target) HTTP/1.1\r\nHost: \(harness.host)\r\nConnection: keep-alive, x-other\r\nRange: bytes=0-9\r\n\r\n")
            #expect(matches(await connection.readResponse(timeout: .seconds(10)), 0..<10))
            connection.send("GET \(target) HTTP/1.1\r\nHost: \(harness.host)\r\nRange: bytes=10-19\r\n\r\n")
            #expect(matches(await connection.readResponse(timeout: .seconds(10)), 10..<20))
            connection.send("GET /status HTTP/1.1\r\nHost: \(harness.host)\r\n\r\n")
            #expect(await connection.readResponse(timeout: .seconds(10))?.status == 200)
            #expect(rawHits(harness) == before)
        }
    }

    @Test("A request that ends its connection is answered, and what follows it is not", arguments: [
        "HTTP/1.1\r\nConnection: close", "HTTP/1.0",
    ])
    func lastRequest(versionAndFields: String) async throws {
        try await withCachedFile { harness, target in
            let connection = try RawConnection(port: harness.port)
            connection.send("GET \(target) \(versionAndFields)\r\nRange: bytes=0-9\r\n\r\nGET \(target) HTTP/1.1\r\nRange: bytes=10-19\r\n\r\n")
            let (bytes, closed) = await connection.readUntilClosed(timeout: .seconds(10))
            #expect(closed)
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.components(separatedBy: " 206 Partial Content\r\n").count == 2, "one response")
            #expect(bytes.suffix(10).elementsEqual(Self.body[0..<10]))
        }
    }

    @Test("Hits answered from the raw bytes keep their connection open past the head timeout, which runs from the last of them")
    func rawHitsRestartTheHeadTimeout() async throws {
        // Long enough that a loaded machine running the other tests does not stretch the pauses
        // between hits into a real idle timeout.
        let timeout = Duration.seconds(2)
        try await withCachedFile(configure: { $0.timeouts.requestHead = timeout }) { harness, target in
            let before = rawHits(harness)
            let connection = try RawConnection(port: harness.port)
            let clock = ContinuousClock()
            var lastAnswered = clock.now
            // 3.2 s of hits, 200 ms apart: over one and a half head timeouts from the connection's start.
            for index in 0..<16 {
                if index > 0 { try await Task.sleep(for: .milliseconds(200)) }
                let start = index * 1000
                let sent = connection.send("GET \(target) HTTP/1.1\r\nHost: \(harness.host)\r\nRange: bytes=\(start)-\(start + 9)\r\n\r\n")
                let response = sent ? await connection.readResponse(timeout: .seconds(10)) : nil
                let answered = matches(response, start..<start + 10)
                #expect(answered, "hit \(index), \(clock.now - lastAnswered) after the one before")
                // Recorded above as a failure; the connection is closed, so the rest cannot run.
                guard answered else { return }
                lastAnswered = clock.now
            }
            #expect(rawHits(harness) == before + 16)
            let (bytes, closed) = await connection.readUntilClosed(timeout: .seconds(10))
            #expect(closed)
            #expect(bytes.isEmpty)
            // Measured from when this task saw the last answer, which on a loaded machine is
            // later than when the proxy sent it (and started the timeout): half the timeout tells
            // a timeout run from the last hit from a close at once (0.9 failed in a group run).
            let idle = clock.now - lastAnswered
            #expect(idle >= timeout / 2 && idle < timeout * 5, "closed after \(idle) idle")
        }
    }
}
