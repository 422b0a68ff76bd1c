import CacheProxyParsing
import HLS
import NIOHTTP1

extension ProxyContext {
    /// `http://HOST:PORT` as players reach the proxy, the base of every URL it writes into
    /// playlists and session answers: ``CacheProxyConfiguration/publicURL`` when it is set;
    /// otherwise the listening address, or, when that is not loopback, the `Host` the client
    /// used when it is a valid host and port.
    func baseURL(for request: HTTPRequestHead?) -> String {
        if let base = publicAddress.fixedBase { return base }
        if !publicAddress.listensOnLoopback, let value = request?.headers.first(name: "host"),
           let host = try? HostAndPort(parsing: value.utf8), host.isPlainName {
            return "http://\(host)"
        }
        let port = listeningPort.withLock { $0 } ?? configuration.port
        return "http://\(publicAddress.boundHost):\(port)"
    }

    /// Where rewritten URIs of the compatibility form point: `BASE/proxy?url=...`.
    func proxyEndpoint(for request: HTTPRequestHead?) -> HLSProxyEndpoint {
        HLSProxyEndpoint(baseURL(for: request) + "/proxy") ?? HLSProxyEndpoint(port: UInt16(clamping: configuration.port))
    }
}
