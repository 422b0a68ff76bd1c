import CacheProxyParsing
import NIOCore

/// The request policy as one connection applies it: with the address and port that connection
/// reached, and remembering the last `Host` its plain requests passed with, so that a player's
/// many requests on one connection cost one comparison each.
///
/// Shared by the handler that answers hits from the raw bytes (`RawHitHandler`) and the one
/// behind the HTTP/1 codec (`RequestGuardHandler`); used on the connection's event loop
/// only.
final class RequestGate {
    private let policy: RequestPolicy
    private let listener: RequestPolicy.Listener
    private var admittedHost: String?

    init(policy: RequestPolicy, channel: any Channel) {
        self.policy = policy
        let local = channel.localAddress
        listener = RequestPolicy.Listener(port: local?.port ?? 0, addresses: local.flatMap(IPAddress.init).map { [$0.description] } ?? [])
    }

    /// Whether a plain request may be answered from the raw bytes: its `Host` names the proxy,
    /// and no page sent it (a response to a page's `Origin` may need CORS headers, which the
    /// handlers behind the decoder add). Anything else goes to the decoder and is judged there.
    /// Raw hits are only ever `GET` and `HEAD` of `/proxy`, so the `Host` is all there is to check.
    func admitsRawHit(_ head: RawRequestHead) -> Bool {
        guard head.origin == nil else { return false }
        guard let host = head.host, host != admittedHost else { return true }
        guard policy.admitsHost(host, listener: listener) else { return false }
        admittedHost = host
        return true
    }

    /// The verdict on a request the decoder delivered, whose route needs `access`.
    func verdict(for head: RequestHead, access: RouteAccess) -> RequestPolicy.Verdict {
        let headers = head.headers
        let length = headers.first(name: "content-length").flatMap { Int($0) } ?? 0
        let origin = headers.first(name: "origin")
        let request = RequestPolicy.Request(
            method: head.method.rawValue, target: head.uri, access: access, hosts: headers["host"], origin: origin,
            contentType: headers.first(name: "content-type"), authorization: headers.first(name: "authorization"),
            hasBody: length > 0 || headers.contains(name: "transfer-encoding"),
            isPreflight: head.method == .OPTIONS && origin != nil && headers.contains(name: "access-control-request-method"))
        return policy.verdict(for: request, listener: listener)
    }
}
