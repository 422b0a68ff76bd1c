import CacheProxyParsing
import FoundationEssentials
import HLS

// A redirect as the proxy follows one (CacheProxy's OriginGuard.execute): the `Location` value
// resolved against the URL that answered (`HLSBaseURL.resolve`), then read as the next hop
// (`OriginURL`). Input: the URL that answered, a line feed, then the `Location` value; an input
// without a line feed, or whose first line is no origin URL, is a `Location` from
// https://origin.example/a/b/index.m3u8?token=t.
//
// What must hold: nothing traps; a next hop is http or https, printable ASCII, without user
// information, with a host, and reads back unchanged; and the HTTP client, which reads the URL
// with Foundation's parser (AsyncHTTPClient's DeconstructedURL), connects to the scheme, host
// and port the proxy checked: were they different, the allow-list and the address checks would
// judge one host while the client fetched another.
//
// The origin guard's verdict on the hop (never link-local, never the proxy itself) is
// FuzzOriginGuard's property (OriginAddressPolicy, in CacheProxyParsing).

private let defaultBase = "https://origin.example/a/b/index.m3u8?token=t"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRedirect(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    var current = try? OriginURL(parsing: defaultBase)
    var location = bytes
    if let newline = bytes.firstIndex(of: 0x0A), let answered = try? OriginURL(parsing: bytes[..<newline]) {
        current = answered
        location = Array(bytes[(newline + 1)...])
    }
    guard let current, let base = HLSBaseURL(current.string) else { preconditionFailure("an origin URL is no base URL") }
    let target = base.resolve(String(decoding: location, as: UTF8.self))
    guard let next = try? OriginURL(parsing: target) else { return 0 }
    check(next)
    return 0
}

private func check(_ next: OriginURL) {
    let text = next.string
    precondition(text.hasPrefix("http://") || text.hasPrefix("https://"), "a redirect to \(text)")
    precondition(text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "a redirect to a URL with a byte outside printable ASCII")
    precondition(!next.host.isEmpty && !next.authority.contains("@"), "a redirect to \(text): no host, or user information")
    precondition((try? OriginURL(parsing: text)) == next, "the next hop \(text) does not read back unchanged")

    // What the HTTP client makes of the same string.
    guard let url = URL(string: text) else { return }
    let scheme = url.scheme?.lowercased()
    precondition(scheme == next.scheme.rawValue, "the client reads scheme \(scheme ?? "none") in \(text)")
    let clientHost = trimmingBrackets(url.host ?? "").lowercased()
    precondition(clientHost == trimmingBrackets(next.host), "the proxy checks host \(next.host), the client connects to \(clientHost) (\(text))")
    let defaultPort = next.scheme == .http ? 80 : 443
    precondition((url.port ?? defaultPort) == (next.port ?? defaultPort),
                 "the proxy checks port \(next.port ?? defaultPort), the client connects to \(url.port ?? defaultPort) (\(text))")
}

private func trimmingBrackets(_ host: String) -> String {
    host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
}
