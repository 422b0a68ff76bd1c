import NIOCore

extension CacheProxy {
    /// Whether `host` is an address of the loopback interface: an IPv4 address in 127.0.0.0/8,
    /// the IPv6 address `::1` in any spelling (bracketed or not, or IPv4-mapped loopback), or
    /// the name `localhost`. Addresses are compared, not spellings: no other name is resolved,
    /// so `127.example.com` is not loopback whatever it resolves to.
    static func isLoopback(_ host: String) -> Bool {
        if host.lowercased() == "localhost" { return true }
        let literal = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard let address = try? SocketAddress(ipAddress: literal, port: 0) else { return false }
        return isLoopback(address)
    }

    /// Whether `address` is on the loopback interface (127.0.0.0/8, `::1`, IPv4-mapped loopback).
    static func isLoopback(_ address: SocketAddress) -> Bool {
        switch address {
        case .v4(let address):
            return UInt32(bigEndian: address.address.sin_addr.s_addr) >> 24 == 127
        case .v6(let address):
            let bytes = withUnsafeBytes(of: address.address.sin6_addr) { Array($0) }
            let isIPv6Loopback = bytes[..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
            let isMappedIPv4Loopback = bytes[..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
            return isIPv6Loopback || isMappedIPv4Loopback
        default:
            return false
        }
    }
}
