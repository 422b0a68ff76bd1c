import HLS
import Testing

@Suite struct PercentEncodingTests {
    @Test(arguments: [
        ("https://a.example/b c?x=1&y=\"z\"#f", "https%3A%2F%2Fa.example%2Fb%20c%3Fx%3D1%26y%3D%22z%22%23f"),
        ("AZaz09-._~", "AZaz09-._~"),
        ("é\r\n+", "%C3%A9%0D%0A%2B"),
        ("", ""),
    ])
    func encodesEverythingButUnreservedCharacters(_ example: (String, String)) {
        #expect(PercentEncoding.encodeQueryValue(example.0) == example.1)
        #expect(PercentEncoding.decode(example.1) == example.0)
    }

    @Test func decodingKeepsMalformedEscapes() {
        #expect(PercentEncoding.decode("100%") == "100%")
        #expect(PercentEncoding.decode("%zz%4") == "%zz%4")
    }

    @Test func proxyEndpointsRejectUnsafeCharacters() {
        #expect(HLSProxyEndpoint("http://127.0.0.1:8080/proxy") != nil)
        #expect(HLSProxyEndpoint("http://127.0.0.1:8080/proxy?k=v")?.url(for: "a") == "http://127.0.0.1:8080/proxy?k=v&url=a")
        for unsafe in ["", "http://x/\"", "http://x/ y", "http://x/\n", "http://x/é", "http://x/#"] {
            #expect(HLSProxyEndpoint(unsafe) == nil, "\(unsafe)")
        }
        #expect(HLSProxyEndpoint(port: 9).url(for: "https://o/a b") == "http://127.0.0.1:9/proxy?url=https%3A%2F%2Fo%2Fa%20b")
    }
}
