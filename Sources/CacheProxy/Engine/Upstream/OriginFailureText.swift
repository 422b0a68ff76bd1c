package import CacheProxyParsing
import NIOCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an origin could not be reached, in the words of someone who typed its URL: a host name
/// that does not resolve, a refused port, a TLS handshake that failed. The networking
/// libraries' own descriptions (type names, system call names, errno numbers, build paths) stay
/// in the debug log; each ``OriginClient`` sorts its errors into ``OriginClientError`` kinds.
package enum OriginFailureText {
    package static func reason(_ error: any Error, origin: OriginURL, timeouts: CacheProxyConfiguration.Timeouts) -> String {
        let port = origin.port ?? (origin.scheme == .https ? 443 : 80)
        let authority = origin.authority
        // The origin guard resolves names itself and words its own failures.
        if let upstream = error as? UpstreamError { return upstream.message }
        guard let failure = error as? OriginClientError else { return "\(authority) could not be reached" }
        switch failure.kind {
        case .unresolvable: return unresolvable(origin.host)
        case .connectionRefused: return "\(origin.host) refused the connection on port \(port) (is the origin server running?)"
        case .unreachable: return "\(origin.host) cannot be reached from this machine (no route to it)"
        case .connectTimeout: return "\(authority) did not accept a connection within \(seconds(timeouts.originConnect))"
        case .responseTimeout, .readTimeout: return "\(authority) did not answer within \(seconds(timeouts.originResponseHead))"
        case .connectionClosed: return "\(authority) closed the connection before answering"
        case .tlsFailed: return tlsFailure(origin)
        case .peerRefused: return (failure.underlying as? UpstreamError)?.message ?? "\(authority) could not be reached"
        case .other:
            guard let io = failure.underlying as? IOError else { return "\(authority) could not be reached" }
            return "\(authority) could not be reached (\(String(cString: strerror(io.errnoCode)).lowercased()))"
        }
    }

    static func unresolvable(_ host: String) -> String {
        "the host name \(host) does not resolve (check the URL, or this machine's DNS)"
    }

    private static func tlsFailure(_ origin: OriginURL) -> String {
        "the TLS handshake with \(origin.authority) failed (if it serves plain http, use an http:// URL)"
    }

    private static func seconds(_ duration: Duration) -> String {
        "\(duration.components.seconds) s"
    }
}
