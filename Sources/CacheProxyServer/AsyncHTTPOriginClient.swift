import AsyncHTTPClient
public import CacheProxy
import NIOCore
import NIOHTTP1
import NIOPosix
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The ``OriginClient`` on AsyncHTTPClient: SwiftNIO on the proxy's own event loops, its own
/// TLS (swift-nio-ssl), a connection pool per origin, and a check of every connection's peer
/// once it is made.
final class AsyncHTTPOriginClient: OriginClient {
    private let client: HTTPClient
    private let settings: OriginClientSettings

    init(_ settings: OriginClientSettings) {
        self.settings = settings
        // Redirects are followed by the proxy's guard, which checks each hop.
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .init(settings.connectTimeout), read: .init(settings.readTimeout)))
        // Where each connection actually leads is checked once it is made, whatever DNS said before.
        let checkPeer = settings.checkPeer
        let initializer: @Sendable (any Channel) -> EventLoopFuture<Void> = { channel in
            guard let remote = channel.remoteAddress, let refusal = checkPeer(remote, channel.localAddress) else {
                return channel.eventLoop.makeSucceededVoidFuture()
            }
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(OriginClientError(.peerRefused, detail: "\(refusal)", underlying: refusal))
        }
        configuration.http1_1ConnectionDebugInitializer = initializer
        configuration.http2ConnectionDebugInitializer = initializer
        configuration.connectionPool = .init(idleTimeout: .seconds(60),
                                             concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, settings.connectionsPerHost))
        // An unreachable origin must fail at once so the breaker and offline serving take over;
        // retrying connections would hold every request for the whole connect timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.decompression = .disabled
        client = HTTPClient(eventLoopGroupProvider: .shared(settings.eventLoopGroup), configuration: configuration)
    }

    func send(_ request: OriginRequest) async throws -> OriginResponse {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.headers = HTTPHeaders(Array(request.headers))
        do {
            let response = try await client.execute(outgoing, deadline: request.deadline)
            return OriginResponse(status: Int(response.status.code), headers: HeaderFields(response.headers.map { ($0.name, $0.value) }),
                                  body: OriginBody(Body(base: response.body)))
        } catch {
            throw Self.translate(error)
        }
    }

    func shutdown() async {
        try? await client.shutdown()
    }

    /// The response body, with its errors translated like the head's.
    private struct Body: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let base: HTTPClientResponse.Body

        func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }

        struct Iterator: AsyncIteratorProtocol {
            var base: HTTPClientResponse.Body.AsyncIterator

            mutating func next() async throws -> ByteBuffer? {
                do {
                    return try await base.next()
                } catch {
                    throw AsyncHTTPOriginClient.translate(error)
                }
            }
        }
    }

    /// AsyncHTTPClient's and SwiftNIO's errors as the kinds the proxy words.
    static func translate(_ error: any Error) -> any Error {
        if error is CancellationError || error is OriginClientError { return error }
        let detail = String(reflecting: error)
        if let connection = error as? NIOConnectionError {
            if connection.connectionErrors.isEmpty, connection.dnsAError != nil || connection.dnsAAAAError != nil {
                return OriginClientError(.unresolvable, detail: detail)
            }
            if let first = connection.connectionErrors.first { return translate(first.error) }
        }
        if error is SocketAddressError { return OriginClientError(.unresolvable, detail: detail) }
        if let io = error as? IOError {
            switch io.errnoCode {
            case ECONNREFUSED: return OriginClientError(.connectionRefused, detail: detail)
            case ENETUNREACH, EHOSTUNREACH: return OriginClientError(.unreachable, detail: detail)
            case ETIMEDOUT: return OriginClientError(.connectTimeout, detail: detail)
            case ECONNRESET, EPIPE: return OriginClientError(.connectionClosed, detail: detail)
            default: return OriginClientError(.other, detail: detail, underlying: io)
            }
        }
        if let client = error as? HTTPClientError {
            switch client {
            case .connectTimeout: return OriginClientError(.connectTimeout, detail: detail)
            case .deadlineExceeded: return OriginClientError(.responseTimeout, detail: detail)
            case .readTimeout: return OriginClientError(.readTimeout, detail: detail)
            case .remoteConnectionClosed: return OriginClientError(.connectionClosed, detail: detail)
            case .tlsHandshakeTimeout: return OriginClientError(.tlsFailed, detail: detail)
            case .cancelled: return CancellationError()
            default: break
            }
        }
        // swift-nio-ssl's errors (NIOSSLError, BoringSSLError) print OpenSSL's error queue, with
        // the build path of the library in it; they are recognized by module, not imported.
        if String(reflecting: type(of: error)).hasPrefix("NIOSSL.") {
            return OriginClientError(.tlsFailed, detail: detail)
        }
        return error
    }
}

extension OriginClientKind {
    /// AsyncHTTPClient on the proxy's event loops, with swift-nio-ssl for `https` origins.
    public static var asyncHTTPClient: OriginClientKind {
        OriginClientKind(name: "asyncHTTPClient", checksPeers: true) { AsyncHTTPOriginClient($0) }
    }
}
