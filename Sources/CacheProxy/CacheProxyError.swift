/// Why a ``CacheProxy`` could not be created, started, or do what it was asked.
public struct CacheProxyError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        public var description: String { name }

        /// The configuration is inconsistent (a non-loopback address without permission, a
        /// read-only store, a bad limit).
        public static let invalidConfiguration = Code(name: "invalidConfiguration")
        /// The address could not be bound (not available, not allowed).
        public static let bindFailed = Code(name: "bindFailed")
        /// The port is in use by another program.
        public static let addressInUse = Code(name: "addressInUse")
        /// The proxy already ran: a proxy serves once.
        public static let alreadyStopped = Code(name: "alreadyStopped")
        /// The call needs a running proxy.
        public static let notRunning = Code(name: "notRunning")
        /// The request cannot be served as asked (see the message).
        public static let invalidRequest = Code(name: "invalidRequest")
        /// A limit of the configuration was reached (``CacheProxyConfiguration/Limits/maximumOpenSessions``).
        public static let limitReached = Code(name: "limitReached")
        /// An origin could not be reached, or answered with an error, and the cache could not
        /// stand in.
        public static let originFailed = Code(name: "originFailed")
        /// The proxy has nothing by that name (a store entry, a download).
        public static let notFound = Code(name: "notFound")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public static func == (lhs: CacheProxyError, rhs: CacheProxyError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    public var description: String { message }
}
