import CacheProxyParsing
import NIOCore

/// What every control route (`POST /prefetch`, `/sessions`, `/downloads`) does with its JSON
/// body, in one place: a body over the limit gets 413, a body the parser refuses gets 400 naming
/// the field.
enum ControlRequest {
    /// Parses `body` (nil: it was over the connection's body limit) with `parse`.
    static func parse<Request>(
        _ body: ByteBuffer?, limit: Int, what: String, _ parse: (ByteBufferView) throws(ParseError) -> Request
    ) throws(ProxyFailure) -> Request {
        guard let body else { throw ProxyFailure(status: 413, "\(what) is limited to \(limit) bytes") }
        do {
            return try parse(body.readableBytesView)
        } catch {
            var failure = ProxyFailure(status: error.code == .tooLong ? 413 : 400, error.message)
            failure.field = error.field
            throw failure
        }
    }
}

extension FetchEnvironment {
    /// Refuses (403) the first URL whose host is off the proxy's allow-list.
    func checkAllowed(_ urls: [OriginURL]) throws(ProxyFailure) {
        if let refused = urls.first(where: { !allows($0) }) {
            throw ProxyFailure(status: 403, "\(refused.host) is not on the proxy's allow-list")
        }
    }
}
