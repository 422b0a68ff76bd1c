import HLS
import Synchronization

/// Where players reach the proxy: the port it listens on, once it does, and the base of every
/// URL it writes into playlists, manifests and session answers. The responders that write URLs
/// take it at `init`.
final class ProxyAddresses: Sendable {
    private let publicAddress: PublicAddress
    /// The configured port, which is the listening one unless it was 0 (any free port).
    private let configuredPort: Int
    private let listening = Mutex<Int?>(nil)

    init(_ configuration: CacheProxyConfiguration) {
        publicAddress = PublicAddress(configuration)
        configuredPort = configuration.port
    }

    /// The port the proxy listens on; nil before it binds and after it stops.
    var listeningPort: Int? {
        get { listening.withLock { $0 } }
        set { listening.withLock { $0 = newValue } }
    }

    /// The listening port, or the configured one before the proxy binds.
    var port: Int { listeningPort ?? configuredPort }

    /// `http://HOST:PORT` as players reach the proxy (see ``PublicAddress/base(for:port:)``).
    func baseURL(for request: RequestHead?) -> String {
        publicAddress.base(for: request, port: port)
    }

    /// Where rewritten URIs of the compatibility form point: `BASE/proxy?url=...`.
    func proxyEndpoint(for request: RequestHead?) -> HLSProxyEndpoint {
        HLSProxyEndpoint(baseURL(for: request) + "/proxy") ?? HLSProxyEndpoint(port: UInt16(clamping: configuredPort))
    }
}
