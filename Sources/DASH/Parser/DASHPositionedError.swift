public import CodedErrors

/// What the module's errors share beyond `CodedError`: where in the MPD the problem is, as a
/// position rather than text.
public protocol DASHPositionedError: CodedError {
    /// Where the offending element or attribute starts, or ``DASHPosition/whole``.
    var position: DASHPosition { get }
}

extension DASHPositionedError {
    /// `line L, column C`, or nil for the document as a whole.
    public var location: String? { position.line > 0 ? "\(position)" : nil }
}
