import Testing
import TestSupport

/// How the proxy's HTTP/1 codec frames messages on the wire, read byte by byte from a raw
/// socket: bodies of unknown length (chunked for HTTP/1.1, ended by the close for HTTP/1.0),
/// request bodies that end where their framing says, and the last response of a connection.
@Suite("HTTP/1 message framing", .timeLimit(.minutes(2)))
struct HTTP1MessageFramingTests {
    @Test("An origin's body of unknown length reaches an HTTP/1.1 client in chunks, and the connection serves the next request")
    func unknownLengthIsChunkedForHTTP11() async throws {
        try await ProxyHarness.run { harness in
            let body = Self.publishOfUnknownLength(harness, "/live.ts", seed: 21, count: 5_000)
            let connection = try RawConnection(port: harness.port)
            connection.send("GET /proxy?url=\(percentEncoded(harness.origin.url("/live.ts"))) HTTP/1.1\r\nHost: \(harness.host)\r\n\r\n"
                + "GET /status HTTP/1.1\r\nHost: \(harness.host)\r\nConnection: close\r\n\r\n")
            let (bytes, closed) = await connection.readUntilClosed(timeout: .seconds(30))
            let (head, rest) = try #require(Self.splitHead(bytes))
            #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(head.hasSuffix("\r\ntransfer-encoding: chunked\r\n\r\n"), "the coding is appended last: \(head)")
            #expect(!head.lowercased().contains("content-length"))
            let chunks = Self.decodeChunks(rest)
            #expect(chunks != nil, "well-formed chunks ending with 0 CRLF CRLF")
            let (decoded, afterBody) = chunks ?? ([], [])
            let whole = decoded == body
            #expect(whole, "\(decoded.count) bytes decoded of \(body.count)")
            #expect(String(decoding: afterBody, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n"), "the next response follows the last chunk")
            #expect(closed)
        }
    }

    @Test("An HTTP/1.0 client gets a body of unknown length unframed, ended by the connection's close")
    func unknownLengthEndsWithTheConnectionForHTTP10() async throws {
        try await ProxyHarness.run { harness in
            let body = Self.publishOfUnknownLength(harness, "/live10.ts", seed: 22, count: 4_000)
            let connection = try RawConnection(port: harness.port)
            connection.send("GET /proxy?url=\(percentEncoded(harness.origin.url("/live10.ts"))) HTTP/1.0\r\nHost: \(harness.host)\r\n"
                + "Connection: keep-alive\r\n\r\n")
            let (bytes, closed) = await connection.readUntilClosed(timeout: .seconds(30))
            let (head, rest) = try #require(Self.splitHead(bytes))
            #expect(head.hasPrefix("HTTP/1.0 200 OK\r\n"))
            #expect(head.contains("\r\nConnection: close\r\n"))
            #expect(!head.lowercased().contains("transfer-encoding") && !head.lowercased().contains("content-length"))
            let whole = rest == body
            #expect(whole, "\(rest.count) bytes of \(body.count)")
            #expect(closed)
        }
    }

    @Test("A HEAD of a body of unknown length gets the head a GET would, no body and no last chunk, and its connection serves the next request")
    func headOfUnknownLengthKeepsTheConnection() async throws {
        try await ProxyHarness.run { harness in
            _ = Self.publishOfUnknownLength(harness, "/live-head.ts", seed: 23, count: 4_000)
            let connection = try RawConnection(port: harness.port)
            connection.send("HEAD /proxy?url=\(percentEncoded(harness.origin.url("/live-head.ts"))) HTTP/1.1\r\nHost: \(harness.host)\r\n\r\n"
                + "GET /status HTTP/1.1\r\nHost: \(harness.host)\r\nConnection: close\r\n\r\n")
            let (bytes, closed) = await connection.readUntilClosed(timeout: .seconds(30))
            let (head, rest) = try #require(Self.splitHead(bytes))
            #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(head.hasSuffix("\r\ntransfer-encoding: chunked\r\n\r\n"), "what a GET would announce: \(head)")
            #expect(!head.lowercased().contains("connection: close"))
            #expect(String(decoding: rest, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n"), "the next response follows the head at once")
            #expect(closed)
        }
    }

    @Test("A request body ends where its Content-Length or its last chunk says: the request pipelined behind it is read as a request")
    func pipelinedRequestsAfterBodies() async throws {
        try await ProxyHarness.run { harness in
            let connection = try RawConnection(port: harness.port)
            connection.send("POST /evict HTTP/1.1\r\nHost: \(harness.host)\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
                + "POST /evict HTTP/1.1\r\nHost: \(harness.host)\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "1\r\n{\r\n1\r\n}\r\n0\r\n\r\n"
                + "GET /status HTTP/1.1\r\nHost: \(harness.host)\r\n\r\n")
            let first = try #require(await connection.readResponse(timeout: .seconds(30)))
            let second = try #require(await connection.readResponse(timeout: .seconds(30)))
            let third = try #require(await connection.readResponse(timeout: .seconds(30)))
            #expect(first.status == second.status, "the same body, framed two ways, gets the same answer")
            #expect(third.status == 200)
        }
    }

    @Test("A response with Connection: close is its connection's last: a request pipelined behind it is not answered")
    func closingResponseIsTheLast() async throws {
        try await ProxyHarness.run { harness in
            let connection = try RawConnection(port: harness.port)
            connection.send("GET /status HTTP/1.1\r\nHost: \(harness.host)\r\nConnection: close\r\n\r\n"
                + "GET /status HTTP/1.1\r\nHost: \(harness.host)\r\n\r\n")
            let (bytes, closed) = await connection.readUntilClosed(timeout: .seconds(30))
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.components(separatedBy: "HTTP/1.1 ").count - 1 == 1, "one answer")
            #expect(closed)
        }
    }

    @Test("Broken chunk framing in a request body gets one 400 and the connection closes", arguments: [
        "zz\r\n{}\r\n0\r\n\r\n",  // not a hexadecimal size
        "FFFFFFFFFFFFFFFFFF\r\n{}\r\n0\r\n\r\n",  // a size past 64 bits
        "2\r\n{}XX0\r\n\r\n",  // no CRLF after the data
        "2\n{}\r\n0\r\n\r\n",  // a bare LF after the size
    ])
    func brokenChunksAreRefused(_ chunks: String) async throws {
        try await ProxyHarness.run { harness in
            let connection = try RawConnection(port: harness.port)
            connection.send("POST /evict HTTP/1.1\r\nHost: \(harness.host)\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n" + chunks)
            let (bytes, closed) = await connection.readUntilClosed(timeout: .seconds(30))
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text == "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", "\(chunks.debugDescription): \(text)")
            #expect(closed)
        }
    }

    @Test("A request that stops mid-body is never answered, and the proxy serves other connections")
    func truncatedBodyIsNotAnswered() async throws {
        try await ProxyHarness.run { harness in
            do {  // closed as it goes out of scope
                let cut = try RawConnection(port: harness.port)
                cut.send("POST /evict HTTP/1.1\r\nHost: \(harness.host)\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{}")
            }
            let connection = try RawConnection(port: harness.port)
            connection.send("GET /status HTTP/1.1\r\nHost: \(harness.host)\r\n\r\n")
            #expect(await connection.readResponse(timeout: .seconds(30))?.status == 200)
        }
    }

    @Test("A head sent a byte at a time is served; bytes that never end a line are refused once past every limit")
    func headsInPieces() async throws {
        try await ProxyHarness.run { harness in
            let connection = try RawConnection(port: harness.port)
            // Not plain from its second line (a Connection element the hit path leaves to the
            // codec), so that the rest reaches the codec a byte at a time.
            for byte in "GET /status HTTP/1.1\r\nConnection: keep-alive, x-slow\r\nHost: \(harness.host)\r\nX-Slow: 1\r\n\r\n" {
                connection.send(String(byte))
                try await Task.sleep(for: .milliseconds(1))
            }
            #expect(await connection.readResponse(timeout: .seconds(30))?.status == 200)
            let endless = try RawConnection(port: harness.port)
            endless.send("GET /" + String(repeating: "a", count: 60_000))
            let (bytes, closed) = await endless.readUntilClosed(timeout: .seconds(30))
            #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
            #expect(closed)
        }
    }

    /// Publishes `count` bytes at `path` as an origin that tells no length: chunked, slow, and
    /// ignoring `Range`, so that the proxy cannot learn the length before it answers.
    static func publishOfUnknownLength(_ harness: ProxyHarness, _ path: String, seed: UInt64, count: Int) -> [UInt8] {
        let body = Array(TestBytes(seed: seed).bytes(0, count))
        harness.origin.set(path, .init(body, contentType: "video/mp2t",
                                       faults: .init(ignoresRange: true, chunked: true, chunkDelay: .milliseconds(20), chunkSize: 1_000)))
        return body
    }

    /// The head (status line to the empty line) and the bytes after it.
    static func splitHead(_ bytes: [UInt8]) -> (String, [UInt8])? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = bytes.indices.dropLast(3).first(where: { bytes[$0..<$0 + 4].elementsEqual(separator) }) else { return nil }
        return (String(decoding: bytes[..<(end + 4)], as: UTF8.self), Array(bytes[(end + 4)...]))
    }

    /// A chunked body decoded strictly (sizes, CRLFs, the last chunk, no trailer), and what follows it.
    static func decodeChunks(_ bytes: [UInt8]) -> ([UInt8], [UInt8])? {
        var body: [UInt8] = []
        var position = 0
        while true {
            guard let lineEnd = bytes[position...].indices.dropLast().first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }),
                  let size = Int(String(decoding: bytes[position..<lineEnd], as: UTF8.self), radix: 16)
            else { return nil }
            position = lineEnd + 2
            if size == 0 {
                guard bytes.count >= position + 2, bytes[position] == 13, bytes[position + 1] == 10 else { return nil }
                return (body, Array(bytes[(position + 2)...]))
            }
            guard bytes.count >= position + size + 2, bytes[position + size] == 13, bytes[position + size + 1] == 10 else { return nil }
            body += bytes[position..<position + size]
            position += size + 2
        }
    }
}
