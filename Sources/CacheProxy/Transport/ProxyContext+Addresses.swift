import HLS
import NIOHTTP1

extension ProxyContext {
    /// `http://HOST:PORT` as players reach the proxy, the base of every URL it writes into
    /// playlists and session answers (see ``PublicAddress/base(for:port:)``).
    func baseURL(for request: HTTPRequestHead?) -> String {
        publicAddress.base(for: request, port: listeningPort.withLock { $0 } ?? configuration.port)
    }

    /// Where rewritten URIs of the compatibility form point: `BASE/proxy?url=...`.
    func proxyEndpoint(for request: HTTPRequestHead?) -> HLSProxyEndpoint {
        HLSProxyEndpoint(baseURL(for: request) + "/proxy") ?? HLSProxyEndpoint(port: UInt16(clamping: configuration.port))
    }
}
