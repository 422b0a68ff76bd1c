import CacheProxyParsing
import NIOCore

/// `POST /prefetch` replaces the prefetch queue with a feed's next videos and answers 202 with
/// the queue; `DELETE /prefetch` cancels everything; `GET /prefetch` reports the queue.
struct PrefetchResponder {
    let environment: FetchEnvironment
    let scheduler: PrefetchScheduler

    func respond(to request: RequestHead, body: ByteBuffer?, writer: ResponseWriter) async throws {
        switch request.method {
        case .POST:
            let limits = environment.configuration.limits.prefetch
            let prefetch = try ControlRequest.parse(body, limit: limits.maximumBodyBytes, what: "a prefetch request") {
                bytes throws(ParseError) in try PrefetchRequest(parsing: bytes, limits: limits)
            }
            try environment.checkAllowed(prefetch.urls)
            try await StatusResponder.sendJSON(scheduler.replace(with: prefetch, environment: environment), status: .accepted, writer: writer)
        case .DELETE:
            try await StatusResponder.sendJSON(scheduler.cancelAll(), status: .ok, writer: writer)
        case .GET, .HEAD:
            try await StatusResponder.sendJSON(scheduler.status, status: .ok, writer: writer)
        default:
            throw ProxyFailure(status: 405, "/prefetch takes POST, DELETE and GET", headers: ["Allow": "POST, DELETE, GET, HEAD"])
        }
    }
}
