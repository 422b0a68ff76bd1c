package import CacheProxyParsing
import NIOCore

/// `IPAddress` from SwiftNIO's socket addresses: the addresses connections reach, and literals
/// in configuration (the address the proxy listens on).
extension IPAddress {
    /// The address of an IP socket address; nil for a Unix domain socket.
    init?(_ address: SocketAddress) {
        switch address {
        case .v4(let v4): self.init(bytes: withUnsafeBytes(of: v4.address.sin_addr) { Array($0) })
        case .v6(let v6): self.init(bytes: withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) })
        case .unixDomainSocket: return nil
        }
    }

    /// An address written as an IP literal (`10.0.0.1`, `::1`, `[::1]`); nil for anything else.
    package init?(literal: String) {
        let unbracketed = literal.hasPrefix("[") && literal.hasSuffix("]") ? String(literal.dropFirst().dropLast()) : literal
        guard let address = try? SocketAddress(ipAddress: unbracketed, port: 0) else { return nil }
        self.init(address)
    }
}
