/// Why bytes from the network could not be parsed: a stable code and a message.
///
/// Every parser of untrusted request and response bytes in the proxy throws this type, so
/// callers can map a failure to an HTTP status by its code alone.
public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        public var description: String { name }

        /// The input is longer than the configured limit.
        public static let tooLong = Code(name: "tooLong")
        /// The input does not follow the grammar.
        public static let malformed = Code(name: "malformed")
        /// A number does not fit in 64 bits.
        public static let overflow = Code(name: "overflow")
        /// More list items (ranges, query parameters) than the limit allows.
        public static let tooMany = Code(name: "tooMany")
        /// A unit, scheme or form that is well-formed but not supported.
        public static let unsupported = Code(name: "unsupported")
        /// A required part is absent (the `url` parameter, a host).
        public static let missing = Code(name: "missing")
        /// The request target names no resource of the proxy.
        public static let notFound = Code(name: "notFound")
    }

    public var code: Code
    public var message: String
    /// The request field the error is about (`"quality"`), for errors in JSON request bodies.
    public var field: String?

    public init(_ code: Code, _ message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    public static func == (lhs: ParseError, rhs: ParseError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    public var description: String { "\(code): \(message)" }
}
