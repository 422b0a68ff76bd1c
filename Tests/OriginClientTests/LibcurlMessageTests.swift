@testable import CacheProxyURLSession
import CacheProxy
import Testing

/// On Linux, swift-corelibs-foundation reports most libcurl failures as `URLError.unknown` with
/// libcurl's message; the kind is read from that message.
@Suite("URLSession client: libcurl messages")
struct LibcurlMessageTests {
    @Test("libcurl's messages map onto the proxy's failure kinds", arguments: [
        ("SSL certificate problem: self-signed certificate", OriginClientError.Kind.tlsFailed),
        ("error:0A00010B:SSL routines::wrong version number", .tlsFailed),
        ("Failed to connect to 10.1.2.3 port 80 after 3 ms: No route to host", .unreachable),
        ("Failed to connect to 10.1.2.3 port 80 after 3 ms: Network is unreachable", .unreachable),
        ("transfer closed with 700000 bytes remaining to read", .connectionClosed),
        ("Recv failure: Connection reset by peer", .connectionClosed),
        ("Could not resolve host: nowhere.invalid", .unresolvable),
        ("A libcurl function was given a bad argument", .other),
    ])
    func libcurlMessages(message: String, kind: OriginClientError.Kind) {
        #expect(OriginClientError.kind(ofLibcurlMessage: message) == kind)
    }
}
