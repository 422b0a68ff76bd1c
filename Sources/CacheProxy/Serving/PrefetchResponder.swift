import CacheProxyParsing
import NIOCore
import NIOHTTP1

/// `POST /prefetch` replaces the prefetch queue with a feed's next videos and answers 202 with
/// the queue; `DELETE /prefetch` cancels everything; `GET /prefetch` reports the queue.
struct PrefetchResponder {
    let context: ProxyContext

    func respond(to request: HTTPRequestHead, body: ByteBuffer?, writer: ResponseWriter) async throws {
        switch request.method {
        case .POST:
            guard let body else {
                throw ProxyFailure(status: 413, "a prefetch request is limited to \(context.configuration.limits.prefetch.maximumBodyBytes) bytes")
            }
            let prefetch: PrefetchRequest
            do {
                prefetch = try PrefetchRequest(parsing: body.readableBytesView, limits: context.configuration.limits.prefetch)
            } catch {
                throw ProxyFailure(status: error.code == .tooLong ? 413 : 400, error.message)
            }
            if let allowList = context.allowList, let refused = prefetch.urls.first(where: { !allowList.allows($0.host) }) {
                throw ProxyFailure(status: 403, "\(refused.host) is not on the proxy's allow-list")
            }
            try await StatusResponder.sendJSON(context.prefetch.replace(with: prefetch, context: context), status: .accepted, writer: writer)
        case .DELETE:
            try await StatusResponder.sendJSON(context.prefetch.cancelAll(), status: .ok, writer: writer)
        case .GET, .HEAD:
            try await StatusResponder.sendJSON(context.prefetch.status, status: .ok, writer: writer)
        default:
            throw ProxyFailure(status: 405, "/prefetch takes POST, DELETE and GET", headers: ["Allow": "POST, DELETE, GET, HEAD"])
        }
    }
}
