import AsyncHTTPClient
import CacheProxyParsing
import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an origin could not be reached, in the words of someone who typed its URL: a host name
/// that does not resolve, a refused port, a TLS handshake that failed. The networking
/// libraries' own descriptions (type names, system call names, errno numbers, build paths) stay
/// in the debug log.
enum OriginFailureText {
    static func reason(_ error: any Error, origin: OriginURL, timeouts: CacheProxyConfiguration.Timeouts) -> String {
        let port = origin.port ?? (origin.scheme == .https ? 443 : 80)
        let authority = origin.authority
        if let connection = error as? NIOConnectionError {
            if connection.connectionErrors.isEmpty, connection.dnsAError != nil || connection.dnsAAAAError != nil {
                return unresolvable(origin.host)
            }
            if let first = connection.connectionErrors.first {
                return reason(first.error, origin: origin, timeouts: timeouts)
            }
        }
        // The origin guard resolves names itself and words its own failures.
        if let upstream = error as? UpstreamError { return upstream.message }
        if error is SocketAddressError {
            return unresolvable(origin.host)
        }
        if let io = error as? IOError {
            switch io.errnoCode {
            case ECONNREFUSED: return "\(origin.host) refused the connection on port \(port) (is the origin server running?)"
            case ENETUNREACH, EHOSTUNREACH: return "\(origin.host) cannot be reached from this machine (no route to it)"
            case ETIMEDOUT: return "\(authority) did not accept a connection in time"
            case ECONNRESET, EPIPE: return "\(authority) closed the connection before answering"
            default: return "\(authority) could not be reached (\(String(cString: strerror(io.errnoCode)).lowercased()))"
            }
        }
        if let client = error as? HTTPClientError {
            switch client {
            case .connectTimeout: return "\(authority) did not accept a connection within \(seconds(timeouts.originConnect))"
            case .deadlineExceeded, .readTimeout:
                return "\(authority) did not answer within \(seconds(timeouts.originResponseHead))"
            case .remoteConnectionClosed: return "\(authority) closed the connection before answering"
            case .tlsHandshakeTimeout: return tlsFailure(origin)
            default: break
            }
        }
        // swift-nio-ssl's errors (NIOSSLError, BoringSSLError) print OpenSSL's error queue, with
        // the build path of the library in it; they are recognized by module, not imported.
        if String(reflecting: type(of: error)).hasPrefix("NIOSSL.") {
            return tlsFailure(origin)
        }
        return "\(authority) could not be reached"
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
