#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address as its bytes in network order, and where it leads: what the checks
/// on the origin side look at. An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is the IPv4
/// address it maps, so it cannot slip past a check written for IPv4.
package struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// 4 bytes, or 16.
    package let bytes: [UInt8]

    /// Where an address leads, from the proxy's host.
    package enum Scope: Sendable, Hashable {
        /// 169.254.0.0/16 and fe80::/10: the link, where cloud metadata services answer.
        case linkLocal
        /// 127.0.0.0/8 and ::1, and the unspecified 0.0.0.0/8 and ::, which reach this host too.
        case thisHost
        /// 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16 and fc00::/7.
        case privateNetwork
        case global
    }

    /// The address of these bytes in network order; nil unless there are 4 or 16.
    package init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        if bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            self.bytes = Array(bytes[12...])
        } else {
            self.bytes = bytes
        }
    }

    package var scope: Scope {
        if bytes.count == 4 {
            switch (bytes[0], bytes[1]) {
            case (169, 254): return .linkLocal
            case (127, _), (0, _): return .thisHost
            case (10, _), (172, 16...31), (192, 168): return .privateNetwork
            default: return .global
            }
        }
        if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return .linkLocal }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] <= 1 { return .thisHost }
        if bytes[0] & 0xFE == 0xFC { return .privateNetwork }
        return .global
    }

    /// The address as a URL writes it: `10.0.0.1`, `[::1]` (the system's `inet_ntop`, as
    /// SwiftNIO's `SocketAddress.ipAddress` writes it).
    package var description: String {
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written = bytes.withUnsafeBytes { address in
            text.withUnsafeMutableBufferPointer { inet_ntop(family, address.baseAddress, $0.baseAddress, socklen_t($0.count)) }
        }
        guard written != nil else { return "?" }
        let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return bytes.count == 4 ? address : "[" + address + "]"
    }
}
