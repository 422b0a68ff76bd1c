public import CodedErrors

/// Why a playlist could not be parsed, and where.
///
/// Errors compare by code, so callers match on ``Code`` rather than on the message.
public struct HLSParseError: CodedError {
    /// Why parsing failed. Codes are stable strings.
    public typealias Code = ErrorCode<HLSParseError>

    /// Why parsing failed.
    public var code: Code
    /// What is wrong, for people.
    public var message: String
    /// 1-based line number, or 0 when the error is about the input as a whole.
    public var line: Int
    /// For `Code.ruleViolation`, the rule that was broken.
    public var diagnostic: HLSDiagnostic?

    /// An error at `line` (1-based; 0 for the input as a whole).
    public init(code: Code, message: String, line: Int, diagnostic: HLSDiagnostic? = nil) {
        self.code = code
        self.message = message
        self.line = line
        self.diagnostic = diagnostic
    }

    /// `line N`, or nil for the input as a whole.
    public var location: String? { line > 0 ? "line \(line)" : nil }
}

extension ErrorCode where Domain == HLSParseError {
    /// The bytes are not a playlist: empty, or no `#EXTM3U` before the first URI line.
    public static var notAPlaylist: Self { Self(rawValue: "not-a-playlist") }

    /// The input exceeded one of the `HLSParserLimits`.
    public static var limitExceeded: Self { Self(rawValue: "limit-exceeded") }

    /// Strict mode only: the playlist broke a rule (see `HLSParseError.diagnostic`).
    public static var ruleViolation: Self { Self(rawValue: "rule-violation") }
}
