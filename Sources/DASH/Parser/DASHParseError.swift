public import CodedErrors

/// Why an MPD could not be parsed, and where.
///
/// Errors compare by code, so callers match on ``Code`` rather than on the message.
public struct DASHParseError: DASHPositionedError {
    /// Why parsing failed. Codes are stable strings.
    public typealias Code = ErrorCode<DASHParseError>

    /// Why parsing failed.
    public var code: Code
    /// What is wrong, for people.
    public var message: String
    /// Where: 1-based line and column (0 and 0 when the error is about the input as a whole).
    public var position: DASHPosition
    /// For `Code.ruleViolation`, the rule that was broken.
    public var diagnostic: DASHDiagnostic?

    /// An error at `position`.
    public init(code: Code, message: String, position: DASHPosition, diagnostic: DASHDiagnostic? = nil) {
        self.code = code
        self.message = message
        self.position = position
        self.diagnostic = diagnostic
    }

    /// 1-based line, 0 for the input as a whole.
    public var line: Int { position.line }
    /// 1-based column in bytes, 0 for the input as a whole.
    public var column: Int { position.column }


}

extension ErrorCode where Domain == DASHParseError {
    /// The document is well-formed XML but its root is not an `MPD` element, or it is empty.
    public static var notAManifest: Self { Self(rawValue: "not-a-manifest") }

    /// The bytes are not well-formed XML (XML 1.0 section 2): a tag, attribute, name or
    /// nesting error.
    public static var malformedXML: Self { Self(rawValue: "malformed-xml") }

    /// A document type declaration. MPDs have none, and a DTD is how entity expansion attacks
    /// (billion laughs, external entities) get in, so it is refused outright.
    public static var doctype: Self { Self(rawValue: "doctype") }

    /// A reference to an entity other than the five predefined ones (`&lt;` `&gt;` `&amp;`
    /// `&apos;` `&quot;`), or a character reference to a character XML does not allow.
    public static var entity: Self { Self(rawValue: "entity") }

    /// The bytes are not UTF-8 (or declare another encoding), or hold a character XML forbids.
    public static var encoding: Self { Self(rawValue: "encoding") }

    /// The input exceeded one of the `DASHParserLimits`.
    public static var limitExceeded: Self { Self(rawValue: "limit-exceeded") }

    /// Strict mode only: the MPD broke a rule (see `DASHParseError.diagnostic`).
    public static var ruleViolation: Self { Self(rawValue: "rule-violation") }
}
