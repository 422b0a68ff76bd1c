/// A variable from EXT-X-DEFINE, with its value as substituted.
public struct HLSVariable: Hashable, Sendable {
    /// The variable name.
    public var name: String
    /// The value substituted for `{$name}`.
    public var value: String
}
