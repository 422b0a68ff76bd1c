
/// A request the proxy cannot serve, with the status to answer when no response has started.
///
/// Only the routes make these: the engine throws its own errors, which are given their statuses
/// in one place (ProxyFailure+EngineErrors.swift).
struct ProxyFailure: Error, Sendable, CustomStringConvertible {
    var status: Int
    var message: String
    /// Headers the error response carries (`Content-Range` of a 416).
    var headers: HeaderFields
    /// The field of a JSON request body the failure is about; such failures are answered as
    /// JSON (`{"error": ..., "field": ...}`).
    var field: String?

    init(status: Int, _ message: String, headers: HeaderFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    var description: String { "\(status): \(message)" }
}
