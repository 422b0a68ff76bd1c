import Foundation
import NIOHTTP1
import Testing
import TestSupport

/// What the proxy answers a newcomer's mistakes with: an origin URL pasted without
/// percent-encoding, a prefetch body without its list or budget, an origin that cannot be
/// reached. One line in the user's words; never a library's description of its own error.
@Suite("Proxy answers to first-hour mistakes", .timeLimit(.minutes(1)))
struct ProxyMessageTests {
    private static let internals = ["Error(", "errno", ".swift", "(error set)", "NIO", "IOError", "CodingKeys", "BoringSSL", "/.build/", "circuit breaker"]

    private static func text(_ response: ProxyHarness.Response) -> String {
        String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    private static func checkWords(_ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!message.contains("\n"), sourceLocation: sourceLocation)
        for word in internals { #expect(!message.contains(word), "\(word) in \(message)", sourceLocation: sourceLocation) }
    }

    @Test("An origin URL pasted without percent-encoding is refused with an example, and nothing is fetched")
    func unencodedURLIsRefused() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/master.m3u8", .init(Array("#EXTM3U\n".utf8), contentType: "application/vnd.apple.mpegurl"))
            let pasted = "http://127.0.0.1:\(harness.port)/proxy?url=" + harness.origin.url("/master.m3u8") + "?a=1&b=2"
            let response = try await harness.fetch(pasted)
            #expect(response.status == 400)
            let message = Self.text(response)
            #expect(message.contains("unknown parameter \"b\": percent-encode the whole origin URL"))
            #expect(message.contains("/proxy?url=https%3A%2F%2Fcdn.example.com%2Fmaster.m3u8%3Fa%3D1%26b%3D2"))
            #expect(harness.origin.requests.isEmpty, "the origin was not asked for a truncated URL")
        }
    }

    @Test("A prefetch body without urls or without a budget names what is missing", arguments: [
        (#"{"seconds": 6}"#, #""urls" is missing"#),
        (#"{"urls": ["https://cdn.example.com/a.m3u8"]}"#, #"give exactly one of "seconds", "segments" or "bytes""#),
    ])
    func prefetchBodiesNameTheMissingField(body: String, expected: String) async throws {
        try await ProxyHarness.run { harness in
            let response = try await SessionClient(harness: harness).send(.POST, "/prefetch", body: body)
            #expect(response.status == 400)
            let error = try #require(SessionClient.object(response.body)?["error"] as? String)
            #expect(error.contains(expected))
            Self.checkWords(error)
        }
    }

    @Test("JSON answers do not escape slashes")
    func jsonKeepsSlashes() async throws {
        try await ProxyHarness.run { harness in
            let status = Self.text(try await harness.fetch("http://127.0.0.1:\(harness.port)/status"))
            #expect(status.contains("\"directory\" : \"/"))
            #expect(!status.contains("\\/"))
        }
    }

    @Test("POST /proxy answers 405 with the methods allowed")
    func postToProxyIs405() async throws {
        try await ProxyHarness.run { harness in
            let response = try await harness.fetch(harness.proxyURL("/x"), method: .POST)
            #expect(response.status == 405)
            #expect(response.headers.first(name: "Allow") == "GET, HEAD")
        }
    }

    @Test("An origin port nothing listens on is a refused connection, said once and in words")
    func refusedOrigin() async throws {
        try await ProxyHarness.run { harness in
            let closed = try RefusingPort()
            let port = closed.port
            for _ in 0..<4 {  // the fourth finds the breaker open, and says the same
                let response = try await harness.fetch(harness.proxyURL(forOrigin: "http://127.0.0.1:\(port)/a.ts"))
                #expect(response.status == 502)
                let message = Self.text(response)
                #expect(message.contains("127.0.0.1 refused the connection on port \(port) (is the origin server running?)"), "\(message)")
                Self.checkWords(message)
            }
            closed.release()  // held until here: the port must refuse for the whole test
        }
    }

    @Test("https to an origin that speaks plain http says the TLS handshake failed, without the TLS library's dump")
    func httpsToPlainHTTP() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/a.ts", .init([1, 2, 3]))
            let url = "https://127.0.0.1:\(harness.origin.port)/a.ts"
            let response = try await harness.fetch(harness.proxyURL(forOrigin: url))
            #expect(response.status == 502)
            let message = Self.text(response)
            #expect(message.contains("the TLS handshake with 127.0.0.1:\(harness.origin.port) failed (if it serves plain http, use an http:// URL)"),
                    "\(message)")
            Self.checkWords(message)
        }
    }

    @Test("A host name that does not resolve is said so")
    func unresolvableOrigin() async throws {
        try await ProxyHarness.run { harness in
            let response = try await harness.fetch(harness.proxyURL(forOrigin: "http://sparsecache-test.invalid/a.ts"))
            #expect(response.status == 502)
            let message = Self.text(response)
            #expect(message.contains("the host name sparsecache-test.invalid does not resolve"), "\(message)")
            Self.checkWords(message)
        }
    }
}
