import CacheProxyParsing
import Testing

@Suite("Reading plain request heads from raw bytes")
struct RawRequestHeadTests {
    private func read(_ text: String, limit: Int = 8192) -> RawRequestHead.Reading {
        Array(text.utf8).withUnsafeBytes { RawRequestHead.read($0, limit: limit) }
    }

    @Test("A player's range request is read whole, with its length")
    func plainRequest() throws {
        let text = "GET /proxy?url=x HTTP/1.1\r\nHost: a\r\nrange:  bytes=0-9 \t\r\nUser-Agent: Lavf/59\r\n\r\nGET /next"
        guard case .head(let head, let length) = read(text) else { Issue.record("not read"); return }
        #expect(length == text.utf8.count - "GET /next".utf8.count)
        #expect(head.method == "GET" && head.target == "/proxy?url=x" && head.minorVersion == 1)
        #expect(head.range == "bytes=0-9" && head.ifRange == nil && head.keepAlive)
    }

    @Test("A known target is the head's target only when it spells the same bytes")
    func knownTargetReused() throws {
        // Built at run time, so that it is a native string with storage of its own.
        let target = "/proxy?url=" + String(repeating: "a", count: 40)
        let text = "GET \(target) HTTP/1.1\r\nHost: a\r\n\r\n"
        func readTarget(knowing known: String?) -> String? {
            guard case .head(let head, _) = Array(text.utf8).withUnsafeBytes({ RawRequestHead.read($0, knownTarget: known) }) else {
                return nil
            }
            return head.target
        }
        func storage(_ string: String?) -> UnsafePointer<UInt8>? {
            string?.utf8.withContiguousStorageIfAvailable { $0.baseAddress } ?? nil
        }
        let known = String(decoding: Array(target.utf8), as: UTF8.self)  // same bytes, other storage
        let reused = readTarget(knowing: known)
        #expect(reused == target && storage(reused) == storage(known), "the known string itself")
        for other in [String(target.dropLast()) + "b", target + "a", String(target.dropLast()), "/", ""] {
            let read = readTarget(knowing: other)
            #expect(read == target && storage(read) != storage(other), "a new string when \(other) differs")
        }
        #expect(readTarget(knowing: nil) == target)
    }

    @Test("Keep-alive follows the version and the Connection header", arguments: [
        ("HTTP/1.1", "", true), ("HTTP/1.1", "Connection: close\r\n", false), ("HTTP/1.1", "connection: Keep-Alive\r\n", true),
        ("HTTP/1.0", "", false), ("HTTP/1.0", "Connection: keep-alive\r\n", true), ("HTTP/1.0", "CONNECTION: CLOSE\r\n", false),
    ])
    func keepAlive(version: String, field: String, expected: Bool) {
        guard case .head(let head, _) = read("HEAD /p \(version)\r\n\(field)If-Range: \"v\"\r\n\r\n") else {
            Issue.record("not read")
            return
        }
        #expect(head.keepAlive == expected)
        #expect(head.method == "HEAD" && head.ifRange == "\"v\"")
    }

    @Test("An unfinished head asks for more bytes", arguments: ["", "G", "GET /p HTTP/1.1", "GET /p HTTP/1.1\r\n", "GET /p HTTP/1.1\r\nHost: a\r\n\r"])
    func needMore(text: String) {
        #expect(read(text) == .needMore)
    }

    @Test("Anything but the plain form is left to the full parser", arguments: [
        "GET /p HTTP/1.1\nHost: a\n\n",  // bare LF
        "GET /p HTTP/1.1\r\nHost: a\n",  // bare LF in a header line
        "GET  /p HTTP/1.1\r\n\r\n", "GET /p  HTTP/1.1\r\n\r\n", "GET /p HTTP/1.1 \r\n\r\n", "GET /p\r\n\r\n",
        "GET /p HTTP/2.0\r\n\r\n", "GET /p http/1.1\r\n\r\n", "G(T /p HTTP/1.1\r\n\r\n", " GET /p HTTP/1.1\r\n\r\n",
        "GET /p\u{7F} HTTP/1.1\r\n\r\n",
        "GET /p HTTP/1.1\r\nHost a\r\n\r\n",  // no colon
        "GET /p HTTP/1.1\r\n: a\r\n\r\n",  // empty name
        "GET /p HTTP/1.1\r\nHo st: a\r\n\r\n",
        "GET /p HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n",  // obs-fold
        "GET /p HTTP/1.1\r\nX: caf\u{E9}\r\n\r\n",  // obs-text
        "GET /p HTTP/1.1\r\nX: a\u{01}b\r\n\r\n",
        "POST /p HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello", "GET /p HTTP/1.1\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n",
        "POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", "GET /p HTTP/1.1\r\nExpect: 100-continue\r\n\r\n",
        "GET /p HTTP/1.1\r\nUpgrade: h2c\r\n\r\n", "GET /p HTTP/1.1\r\nRange: bytes=0-1\r\nRange: bytes=2-3\r\n\r\n",
        "GET /p HTTP/1.1\r\nIf-Range: a\r\nIf-Range: b\r\n\r\n", "GET /p HTTP/1.1\r\nConnection: keep-alive, Upgrade\r\n\r\n",
        "GET /p HTTP/1.1\r\nConnection: close\r\nConnection: close\r\n\r\n",
    ])
    func notPlain(text: String) {
        #expect(read(text) == .notPlain)
    }

    @Test("Every byte value is judged as RFC 9110 says, wherever it lies in a target, a field name or a value")
    func everyByte() {
        let tokenPunctuation = Set("!#$%&'*+-.^_`|~".utf8)
        func reads(_ bytes: [UInt8]) -> Bool {
            if case .head = bytes.withUnsafeBytes({ RawRequestHead.read($0) }) { return true }
            return false
        }
        for byte in UInt8.min...UInt8.max where byte != 0x0A && byte != 0x0D {
            let isToken = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || tokenPunctuation.contains(byte)
            let isVisible = (0x21...0x7E).contains(byte)
            // Positions in the first sixteen bytes, in a later sixteen and in the tail after them.
            for position in [0, 5, 17, 39, 40] {
                let filler = Array(repeating: UInt8(ascii: "a"), count: 41)
                var target = Array("/".utf8) + filler
                target[position + 1] = byte
                #expect(reads(Array("GET ".utf8) + target + Array(" HTTP/1.1\r\n\r\n".utf8)) == isVisible, "\(byte) in a target")
                var value = filler
                value[position] = byte
                #expect(reads(Array("GET /p HTTP/1.1\r\nX-A: ".utf8) + value + Array("\r\n\r\n".utf8)) == (isVisible || byte == 0x20 || byte == 0x09),
                        "\(byte) in a value")
            }
            // A colon ends the name: "X:Y: v" is the field X.
            #expect(reads(Array("GET /p HTTP/1.1\r\nX".utf8) + [byte] + Array("Y: v\r\n\r\n".utf8)) == (isToken || byte == 0x3A),
                    "\(byte) in a name")
            #expect(reads([UInt8(ascii: "G"), byte] + Array("T /p HTTP/1.1\r\n\r\n".utf8)) == isToken, "\(byte) in a method")
        }
    }

    @Test("A body of Content-Length 0 is no body")
    func emptyBody() {
        guard case .head(_, let length) = read("GET /p HTTP/1.1\r\nContent-Length: 0\r\n\r\n") else {
            Issue.record("not read")
            return
        }
        #expect(length == 38)
    }

    @Test("Heads over the size or field limits are not read")
    func limits() {
        let long = "GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\n\r\n"
        #expect(read(long) == .notPlain)
        #expect(read(String(repeating: "b", count: 100), limit: 64) == .notPlain)
        let fields = "GET /p HTTP/1.1\r\n" + String(repeating: "X: y\r\n", count: 101) + "\r\n"
        #expect(read(fields) == .notPlain)
        let allowed = "GET /p HTTP/1.1\r\n" + String(repeating: "X: y\r\n", count: 100) + "\r\n"
        guard case .head = read(allowed) else {
            Issue.record("100 fields are allowed")
            return
        }
    }
}
