/// What the module's errors share: a stable code to match on, a message for people, and where
/// in the MPD the problem is. Errors compare and hash by code alone.
public protocol DASHPositionedError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The error's code type: stable strings.
    associatedtype Code: Hashable & Sendable
    /// Why.
    var code: Code { get }
    /// What is wrong, for people.
    var message: String { get }
    /// Where the offending element or attribute starts, or ``DASHPosition/whole``.
    var position: DASHPosition { get }
}

extension DASHPositionedError {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    public var description: String { position.line > 0 ? "\(position): \(message)" : message }
}
