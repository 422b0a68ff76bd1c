import NIOHTTP1

/// A request the proxy cannot serve, with the status to answer when no response has started.
struct ProxyFailure: Error, Sendable, CustomStringConvertible {
    var status: Int
    var message: String
    /// Headers the error response carries (`Content-Range` of a 416).
    var headers: HTTPHeaders
    /// The field of a JSON request body the failure is about; such failures are answered as
    /// JSON (`{"error": ..., "field": ...}`).
    var field: String?

    init(status: Int, _ message: String, headers: HTTPHeaders = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    /// The status a client gets for an upstream error: an origin's 4xx is passed on (a 404
    /// stays a 404), everything else is a gateway failure.
    init(_ error: UpstreamError) {
        switch error.code {
        case .status(let status) where (400..<500).contains(status) && status != 416: self.init(status: status, error.message)
        case .unreachable: self.init(status: 502, "origin unreachable and not cached: \(error.message)")
        case .refused: self.init(status: 403, error.message)
        default: self.init(status: 502, error.message)
        }
    }

    var description: String { "\(status): \(message)" }
}
