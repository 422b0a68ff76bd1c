/// What every SparseCache error is: a stable code to match on, a message for people, and where
/// the problem is.
///
/// Errors compare and hash by code alone, so callers match on the code
/// (`#expect(throws: HLSParseError(code: .notAPlaylist, ...))`, `error.code == .diskFull`) and
/// never on the wording, which may improve between releases.
public protocol CodedError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The error's stable codes: `ErrorCode<Self>` for every SparseCache error.
    associatedtype Code: Hashable & Sendable & CustomStringConvertible
    /// Why, as a value that stays stable across releases.
    var code: Code { get }
    /// What is wrong, for people.
    var message: String { get }
    /// Where the problem is, for people (`line 12`, `playlist 2`, a file's path, a request
    /// field), or nil when it concerns the input or the operation as a whole.
    var location: String? { get }
}

extension CodedError {
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    /// The message, after its location when it has one: `line 12: ...`.
    public var description: String { location.map { "\($0): \(message)" } ?? message }
}
