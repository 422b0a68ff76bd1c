public import CodedErrors

/// Why bytes from the network could not be parsed: a stable code and a message.
///
/// Every parser of untrusted request and response bytes in the proxy throws this type, so
/// callers can map a failure to an HTTP status by its code alone.
public struct ParseError: CodedError {
    public typealias Code = ErrorCode<ParseError>

    public var code: Code
    public var message: String
    /// The request field the error is about (`"quality"`), for errors in JSON request bodies.
    public var field: String?

    public init(_ code: Code, _ message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    /// The request field, or nil.
    public var location: String? { field }
}

extension ErrorCode where Domain == ParseError {
    /// The input is longer than the configured limit.
    public static var tooLong: Self { Self(rawValue: "tooLong") }

    /// The input does not follow the grammar.
    public static var malformed: Self { Self(rawValue: "malformed") }

    /// A number does not fit in 64 bits.
    public static var overflow: Self { Self(rawValue: "overflow") }

    /// More list items (ranges, query parameters) than the limit allows.
    public static var tooMany: Self { Self(rawValue: "tooMany") }

    /// A unit, scheme or form that is well-formed but not supported.
    public static var unsupported: Self { Self(rawValue: "unsupported") }

    /// A required part is absent (the `url` parameter, a host).
    public static var missing: Self { Self(rawValue: "missing") }

    /// The request target names no resource of the proxy.
    public static var notFound: Self { Self(rawValue: "notFound") }
}
