/// The HTTP version of a request or response: 1.0 or 1.1, the only ones the proxy speaks.
struct ProtocolVersion: Sendable, Hashable {
    var major: Int
    var minor: Int

    static let http1_0 = ProtocolVersion(major: 1, minor: 0)
    static let http1_1 = ProtocolVersion(major: 1, minor: 1)
}
