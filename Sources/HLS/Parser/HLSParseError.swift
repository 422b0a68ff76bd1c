/// Why a playlist could not be parsed, and where.
///
/// Errors compare by code, so callers match on ``Code`` rather than on the message.
public struct HLSParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why parsing failed. Codes are stable strings.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The bytes are not a playlist: empty, or no `#EXTM3U` before the first URI line.
        public static let notAPlaylist = Code(rawValue: "not-a-playlist")
        /// The input exceeded one of the ``HLSParserLimits``.
        public static let limitExceeded = Code(rawValue: "limit-exceeded")
        /// Strict mode only: the playlist broke a rule (see ``HLSParseError/diagnostic``).
        public static let ruleViolation = Code(rawValue: "rule-violation")
    }

    /// Why parsing failed.
    public var code: Code
    /// What is wrong, for people.
    public var message: String
    /// 1-based line number, or 0 when the error is about the input as a whole.
    public var line: Int
    /// For ``Code/ruleViolation``, the rule that was broken.
    public var diagnostic: HLSDiagnostic?

    /// An error at `line` (1-based; 0 for the input as a whole).
    public init(code: Code, message: String, line: Int, diagnostic: HLSDiagnostic? = nil) {
        self.code = code
        self.message = message
        self.line = line
        self.diagnostic = diagnostic
    }

    public static func == (lhs: HLSParseError, rhs: HLSParseError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String { line > 0 ? "line \(line): \(message)" : message }
}
