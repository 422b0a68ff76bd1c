/// How to parse a playlist.
public struct HLSParserOptions: Sendable {
    /// What the parser does with a rule violation.
    public enum Mode: Sendable, Hashable {
        /// Accept what players accept: recover from rule violations and report them as warnings.
        case lenient
        /// Throw `HLSParseError.Code.ruleViolation` at the first rule violation.
        case strict
    }

    /// Lenient (the default) or strict.
    public var mode: Mode = .lenient
    /// The bounds enforced on the input.
    public var limits = HLSParserLimits()
    /// The URL the playlist was fetched from (after redirects). It supplies the values of
    /// `EXT-X-DEFINE:QUERYPARAM` variables; URI resolution takes its base separately.
    public var playlistURL: String?
    /// Variables a multivariant playlist defined, for `EXT-X-DEFINE:IMPORT` in its media playlists.
    public var importedVariables: [String: String] = [:]

    /// Options; every argument has the default of the property it sets.
    public init(mode: Mode = .lenient, limits: HLSParserLimits = HLSParserLimits(), playlistURL: String? = nil,
                importedVariables: [String: String] = [:]) {
        self.mode = mode
        self.limits = limits
        self.playlistURL = playlistURL
        self.importedVariables = importedVariables
    }
}
