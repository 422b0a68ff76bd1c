import CacheProxyParsing
import Foundation
import HLS
import Testing

/// The inputs FuzzRedirect once crashed on, kept in `Fuzz/FuzzRedirect/crashes/`: a redirect's
/// `Location` resolved against the URL that answered, as the origin guard follows it. Each
/// still holds the target's property: a next hop the proxy accepts is the host the HTTP client
/// connects to.
@Suite struct RedirectFuzzInputTests {
    static var crashInputs: [String] { KeptFuzzInputs.names(of: "FuzzRedirect") }

    @Test func theKeptCrashInputsAreFound() {
        #expect(Self.crashInputs.contains("percent-encoded-host"))
    }

    @Test(arguments: crashInputs)
    func nextHopIsTheHostTheClientConnectsTo(_ name: String) throws {
        let bytes = [UInt8](try KeptFuzzInputs.bytes(of: "FuzzRedirect", name))
        let base = try #require(HLSBaseURL("https://origin.example/a/b/index.m3u8?token=t"))
        let target = base.resolve(String(decoding: bytes, as: UTF8.self))
        // A refused hop is fetched by no one: the property is about accepted ones.
        if let next = try? OriginURL(parsing: target) {
            let url = try #require(URL(string: next.string))
            #expect(url.host?.lowercased() == next.host)
        }
    }

    /// Found by FuzzRedirect: `http://a%62c.example/` was accepted with the host `a%62c.example`,
    /// which the allow-list and the origin guard judged, while the HTTP client (Foundation's URL)
    /// decodes it and connects to `abc.example`. A host that is no plain name is refused.
    @Test(arguments: ["http://a%62c.example/", "http://169.254.169%2e254/", "https://a!b.example/", "http://a,b/"])
    func originURLRefusesHostsThatAreNoPlainName(_ text: String) {
        #expect(throws: ParseError.self) { try OriginURL(parsing: text) }
    }

    @Test(arguments: ["http://a-b.example/", "https://under_score.example:8443/x", "http://[::1]:9000/", "http://10.0.0.1/"])
    func originURLKeepsPlainHosts(_ text: String) throws {
        #expect(try OriginURL(parsing: text).string == text)
    }
}
