/// A session request the proxy refuses because of one of its fields: `400` with a one-line JSON
/// error naming the field.
enum SessionRequestFailure {
    static func field(_ name: String, _ message: String) -> ProxyFailure {
        var failure = ProxyFailure(status: 400, message)
        failure.field = "\"\(name)\""
        return failure
    }
}
