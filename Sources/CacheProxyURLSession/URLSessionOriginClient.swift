public import CacheProxy
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The ``OriginClient`` on Foundation's `URLSession`: the system's HTTP stack and TLS on Apple
/// platforms, swift-corelibs-foundation (libcurl) on Linux, so an app's proxy needs no HTTP or
/// TLS library of its own.
///
/// Each request is one data task whose body is handed on as it arrives. What the protocol asks
/// of it, and how `URLSession` is made to do it:
/// - **Redirects** are not followed: the session's delegate declines every one, and the `3xx`
///   comes back as the response, for ``OriginGuard`` to check and follow.
/// - **Bounded memory (Apple platforms)**: past ``bufferLimit`` bytes waiting for the reader,
///   the data task is suspended until the reader has taken most of them.
/// - **Timeouts**: the head must arrive before ``OriginRequest/deadline``
///   (``OriginClientError/Kind/responseTimeout``); the body may be silent for at most
///   ``OriginClientSettings/readTimeout`` (``OriginClientError/Kind/readTimeout``), not counting
///   the time it is suspended for a slow reader. Both are timed here, not by `URLSession`,
///   whose own timer (Linux: whole seconds) is set a second later as a backstop.
/// - **Cancellation**: cancelling the calling task, or dropping the response or its body
///   unread, cancels the data task at once, which closes its connection.
/// - **No cache, cookies, credential storage or content decoding**: the proxy is the cache and
///   asks for `identity`; an origin that compresses anyway has its body decoded by `URLSession`
///   (it cannot be turned off), and the answer loses `Content-Encoding` and `Content-Length`
///   so that its head describes the bytes delivered.
/// - **A body cut short** (fewer bytes than `Content-Length`) throws
///   ``OriginClientError/Kind/connectionClosed``, also where the platform would end it quietly.
///
/// What it cannot do:
/// - **``OriginClientSettings/checkPeer`` is never called**: `URLSession` does not say which
///   address a connection reached. ``OriginGuard`` still checks every address the host resolves
///   to before each request (and each redirect hop); what is lost is the second check, of the
///   connection itself, which catches a name that resolves elsewhere the moment after (DNS
///   rebinding). Use `asyncHTTPClient` where origins' names are not trusted.
/// - **``OriginClientSettings/connectTimeout`` is not timed on its own**: `URLSession` does not
///   report when a connection is made. A connection that never completes fails with
///   ``OriginClientError/Kind/responseTimeout`` at the request's deadline.
/// - **No bound on a body's memory on Linux**: swift-corelibs-foundation's `suspend()` takes a
///   running transfer out of libcurl and `resume()` sends the request again from the start,
///   and a delegate that waits stops every `URLSession` of the process (they share one work
///   queue). A reader slower than the network there has the rest of the body buffered for it.
///
/// Each request in flight has a session of its own, kept for the next request when it ends (up
/// to ``OriginClientSettings/connectionsPerHost`` of them), so that a session's delegate serves
/// one transfer at a time and connections are reused one request after another, as a pool of
/// HTTP/1.1 connections would.
public final class URLSessionOriginClient: OriginClient {
    /// The most body bytes that wait for the reader before the transfer is held back: a few
    /// network reads, enough that a reader that keeps up never stalls the transfer.
    public static let bufferLimit = 256 * 1024

    private let sessions: SessionPool
    private let readTimeout: Duration
    private let settings: OriginClientSettings

    /// A client for one lane, with that lane's settings; ``OriginClientKind/urlSession`` makes
    /// it.
    public init(_ settings: OriginClientSettings) {
        self.settings = settings
        readTimeout = settings.readTimeout
        sessions = SessionPool(configuration: { [settings] in Self.configuration(settings) }, idleLimit: max(1, settings.connectionsPerHost))
    }

    public func send(_ request: OriginRequest) async throws -> OriginResponse {
        guard let outgoing = URLRequest(request) else {
            throw OriginClientError(.other, detail: "not an absolute http or https URL: \(request.url)")
        }
        try Task.checkCancellation()
        let session = try sessions.lease()
        let transfer = Transfer(readTimeout: .init(readTimeout), bufferLimit: Self.bufferLimit, eventLoop: settings.eventLoopGroup.next())
        return try await transfer.run(outgoing, deadline: request.deadline, on: session) { [sessions] in
            sessions.giveBack(session)
        }
    }

    public func shutdown() async {
        sessions.shutdown()
    }

    /// A session configuration that keeps nothing between requests and does nothing the proxy
    /// does itself.
    private static func configuration(_ settings: OriginClientSettings) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCredentialStorage = nil
        configuration.httpMaximumConnectionsPerHost = max(1, settings.connectionsPerHost)
        // The transfers' own timers decide; this one only catches what they would miss. Linux
        // counts it in whole seconds (a fraction would truncate to an immediate timeout).
        let longest = max(settings.readTimeout, settings.connectTimeout)
        configuration.timeoutIntervalForRequest = TimeInterval(longest.components.seconds + 2)
        #if !canImport(FoundationNetworking)
        // An unreachable origin must fail at once, so that the breaker and offline serving
        // take over, rather than wait for a network to appear.
        configuration.waitsForConnectivity = false
        #endif
        return configuration
    }
}
