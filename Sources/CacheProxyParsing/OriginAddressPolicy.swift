/// The origin guard's verdict on an address (CacheProxy's `OriginGuard`, which holds the state:
/// the port the proxy listens on, the lookups, the addresses the allow-list vouched for). Pure,
/// so that a fuzz target judges any address and port without SwiftNIO.
///
/// Refused: link-local addresses, always (169.254.0.0/16, fe80::/10: cloud metadata services);
/// the proxy itself (this host's addresses, the address it is bound to, or the local end of the
/// connection, on the port it listens on); and, on a proxy listening beyond loopback (`exposed`),
/// private and this host's addresses unless the allow-list named the host that resolved to them.
package struct OriginAddressPolicy: Sendable {
    /// Whether the proxy listens on an address other than loopback (a shared server).
    package var exposed: Bool
    /// The address the proxy is bound to, when it is an IP literal.
    package var boundAddress: IPAddress?

    package init(exposed: Bool, boundAddress: IPAddress?) {
        self.exposed = exposed
        self.boundAddress = boundAddress
    }

    /// The port a connection to `url` goes to: its own, or the scheme's.
    package static func port(of url: OriginURL) -> Int {
        url.port ?? (url.scheme == .http ? 80 : 443)
    }

    /// Why the proxy may not connect to `address` on `port`; nil when it may.
    ///
    /// - Parameters:
    ///   - listeningPort: the port the proxy listens on, once it does.
    ///   - local: the proxy's end of a connection made (nil before connecting).
    ///   - vouched: whether the allow-list named a host that resolved to `address`.
    package func refusal(of address: IPAddress, port: Int, listeningPort: Int?, local: IPAddress?, vouched: Bool) -> String? {
        let scope = address.scope
        if scope == .linkLocal { return "a link-local address, never fetched" }
        if port == listeningPort, scope == .thisHost || address == boundAddress || address == local {
            return "the proxy itself"
        }
        if exposed, scope != .global, !vouched {
            return "a private or loopback address, refused on a proxy listening beyond loopback unless --allow-host names the host"
        }
        return nil
    }
}
