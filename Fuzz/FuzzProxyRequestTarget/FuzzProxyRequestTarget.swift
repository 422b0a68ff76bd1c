import CacheProxyParsing

/// Parses arbitrary bytes as a request target (`/proxy?url=...`) and as an origin URL. Neither
/// may trap; an accepted URL must be printable ASCII of http(s) with a host, and parsing its
/// normalized form must give it back unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProxyRequestTarget(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    switch try? ProxyRoute(parsing: bytes) {
    case .proxy(let url, let directives)?, .sessionProxy(_, let url, let directives)?:
        check(url)
        check(url.appendingQuery(directives.query))
    default:
        break
    }
    if let url = try? OriginURL(parsing: bytes) { check(url) }
    return 0
}

private func check(_ url: OriginURL) {
    precondition(url.string.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "non-printable byte in \(url)")
    precondition(url.string.hasPrefix("http://") || url.string.hasPrefix("https://"))
    precondition(!url.host.isEmpty)
    guard let again = try? OriginURL(parsing: url.string) else { preconditionFailure("normalized URL \(url) does not parse") }
    precondition(again == url, "normalizing \(url) twice changed it")
}
