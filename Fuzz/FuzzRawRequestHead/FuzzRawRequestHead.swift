import CacheProxyParsing

/// Reads arbitrary bytes as a raw request head, the proxy's fast path for cache hits. It may
/// not trap, and what it reads must be consistent: a head ends with CRLF CRLF within the bytes,
/// its target and method are visible ASCII, and every shorter prefix of the bytes asks for more
/// (or is refused), never reads as another head; and a known target given to reuse changes nothing.
///
/// The head then goes through the request policy, as the proxy judges it: the policy may not
/// trap either, a `Host` it refuses is never let through, a route the target parser calls a
/// player's (`/proxy`, `/dash/...`, a session's playlist and media) is a media route and any
/// other a control route, and the `Host` and `Origin` values it reads survive a round trip
/// through their parsers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRawRequestHead(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let reading = RawRequestHead.read(bytes, limit: 4096, maximumFields: 16)
    guard case .head(let head, let length) = reading else { return 0 }
    precondition(length >= 4 && length <= count, "a head of \(length) bytes in \(count)")
    precondition(Array(bytes[(length - 4)..<length]) == [13, 10, 13, 10], "a head that does not end with CRLF CRLF")
    precondition(!head.target.isEmpty && head.target.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "a target that is not visible ASCII")
    precondition(!head.method.isEmpty && head.minorVersion <= 1)
    // The head alone reads the same; any prefix of it is incomplete or refused.
    precondition(RawRequestHead.read(UnsafeRawBufferPointer(rebasing: bytes[..<length]), limit: 4096, maximumFields: 16) == reading)
    // A known target, the head's own or one a byte or a length apart, changes nothing the head says.
    for known in [head.target, head.target + "/", String(head.target.dropLast()), String(head.target.dropLast()) + "~"] {
        precondition(RawRequestHead.read(bytes, limit: 4096, maximumFields: 16, knownTarget: known) == reading, "a known target changed the head")
    }
    for cut in [length - 1, length / 2, 1] where cut < length {
        let prefix = RawRequestHead.read(UnsafeRawBufferPointer(rebasing: bytes[..<cut]), limit: 4096, maximumFields: 16)
        precondition(prefix == .needMore || prefix == .notPlain, "a prefix of \(cut) bytes read as a head")
    }
    checkPolicy(head)
    return 0
}

private let listener = RequestPolicy.Listener(port: 9000, addresses: ["192.168.1.5"])
private let policy = RequestPolicy(
    requestHosts: [RequestAuthority(host: "tv.local", port: nil)], allowedOrigins: [.tuple(scheme: "https", authority: RequestAuthority(host: "app.example", port: nil))],
    controlToken: "fuzz-token")

private func checkPolicy(_ head: RawRequestHead) {
    for value in [head.host, head.origin].compactMap({ $0 }) {
        precondition(value.utf8.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 }, "a field value with a control byte")
        precondition(![0x20, 0x09].contains(value.utf8.first) && ![0x20, 0x09].contains(value.utf8.last), "a field value that is not trimmed")
    }
    if let host = head.host, let authority = try? RequestAuthority(parsing: host.utf8) {
        precondition((try? RequestAuthority(parsing: authority.description.utf8)) == authority, "a host that does not round-trip")
    }
    if let origin = head.origin, let parsed = try? RequestOrigin(parsing: origin.utf8) {
        precondition((try? RequestOrigin(parsing: parsed.description.utf8)) == parsed, "an origin that does not round-trip")
    }
    let access = RouteAccess(target: head.target.utf8)
    switch try? ProxyRoute(parsing: head.target) {
    case .proxy?, .dash?, .sessionPlaylist?, .sessionProxy?: precondition(access == .media, "a player's route that needs the token")
    case .some: precondition(access == .control, "a control route that needs no token")
    case nil: break
    }
    let request = RequestPolicy.Request(method: head.method, target: head.target, hosts: head.host.map { [$0] } ?? [], origin: head.origin)
    let verdict = policy.verdict(for: request, listener: listener)
    if let host = head.host, !policy.admitsHost(host, listener: listener) {
        guard case .refuse(let refusal) = verdict, refusal.status == 421 || refusal.status == 400 else {
            preconditionFailure("a Host the policy does not admit was let through")
        }
    }
    if case .refuse(let refusal) = verdict {
        precondition([400, 401, 403, 415, 421].contains(refusal.status) && !refusal.reason.utf8.contains(10), "a refusal of \(refusal.status)")
    }
    if case .pass(let corsOrigin?) = verdict { precondition(corsOrigin == head.origin, "CORS for another origin than the request's") }
}
