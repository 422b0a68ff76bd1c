/// How to parse an MPD.
public struct DASHParserOptions: Sendable, Hashable {
    /// What the parser does with a rule violation. XML well-formedness errors, DTDs, unknown
    /// entities, bad encodings and exceeded limits are errors in both modes.
    public enum Mode: Sendable, Hashable {
        /// Accept what players accept: report rule violations as warnings.
        case lenient
        /// Throw `DASHParseError.Code.ruleViolation` at the first rule violation.
        case strict
    }

    /// Lenient (the default) or strict.
    public var mode: Mode = .lenient
    /// The bounds enforced on the input.
    public var limits = DASHParserLimits()

    /// Options; every argument has the default of the property it sets.
    public init(mode: Mode = .lenient, limits: DASHParserLimits = DASHParserLimits()) {
        self.mode = mode
        self.limits = limits
    }
}
