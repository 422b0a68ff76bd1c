public import CodedErrors

/// Why a ``CacheProxy`` could not be created, started, or do what it was asked.
public struct CacheProxyError: CodedError {
    public typealias Code = ErrorCode<CacheProxyError>

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Always nil: the message names what it concerns.
    public var location: String? { nil }
}

extension ErrorCode where Domain == CacheProxyError {
    /// The configuration is inconsistent (a non-loopback address without permission, a
    /// read-only store, a bad limit).
    public static var invalidConfiguration: Self { Self(rawValue: "invalidConfiguration") }

    /// The address could not be bound (not available, not allowed).
    public static var bindFailed: Self { Self(rawValue: "bindFailed") }

    /// The port is in use by another program.
    public static var addressInUse: Self { Self(rawValue: "addressInUse") }

    /// The proxy already ran: a proxy serves once.
    public static var alreadyStopped: Self { Self(rawValue: "alreadyStopped") }

    /// The call needs a running proxy.
    public static var notRunning: Self { Self(rawValue: "notRunning") }

    /// The request cannot be served as asked (see the message).
    public static var invalidRequest: Self { Self(rawValue: "invalidRequest") }

    /// A limit of the configuration was reached (`CacheProxyConfiguration.Limits.maximumOpenSessions`).
    public static var limitReached: Self { Self(rawValue: "limitReached") }

    /// An origin could not be reached, or answered with an error, and the cache could not
    /// stand in.
    public static var originFailed: Self { Self(rawValue: "originFailed") }

    /// The proxy has nothing by that name (a store entry, a download).
    public static var notFound: Self { Self(rawValue: "notFound") }
}
