/// One attribute of a tag's attribute list, exactly as written.
public struct HLSAttribute: Hashable, Sendable {
    /// The attribute name.
    public var name: String
    /// The value as written, without the quotes of a quoted string and without variable substitution.
    public var value: String
    /// The value was a quoted string.
    public var isQuoted: Bool

    /// An attribute; `value` without quotes.
    public init(name: String, value: String, isQuoted: Bool) {
        self.name = name
        self.value = value
        self.isQuoted = isQuoted
    }
}

extension Array where Element == HLSAttribute {
    /// The value of the first attribute called `name`.
    public func value(named name: String) -> String? {
        first { $0.name == name }?.value
    }
}
