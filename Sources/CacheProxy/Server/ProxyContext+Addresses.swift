import HLS
import NIOHTTP1

extension ProxyContext {
    /// `http://HOST:PORT` as players reach the proxy, the base of every URL it writes into
    /// playlists and session answers: its listening address, or, when it listens on an address
    /// other than loopback, the `Host` the client used (when that is a plain host and port).
    func baseURL(for request: HTTPRequestHead?) -> String {
        if configuration.allowsNonLoopback, let host = request?.headers.first(name: "host"), !host.isEmpty,
           host.utf8.allSatisfy(Self.isHostByte) {
            return "http://\(host)"
        }
        let port = listeningPort.withLock { $0 } ?? configuration.port
        let host = configuration.host.contains(":") && !configuration.host.hasPrefix("[") ? "[\(configuration.host)]" : configuration.host
        return "http://\(host):\(port)"
    }

    /// Where rewritten URIs of the compatibility form point: `BASE/proxy?url=...`.
    func proxyEndpoint(for request: HTTPRequestHead?) -> HLSProxyEndpoint {
        HLSProxyEndpoint(baseURL(for: request) + "/proxy") ?? HLSProxyEndpoint(port: UInt16(clamping: configuration.port))
    }

    /// Letters, digits and `-.:[]`: a host, an IPv4 or bracketed IPv6 address, and a port.
    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: Array("-.:[]".utf8).contains(byte)
        }
    }
}
