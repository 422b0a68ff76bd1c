import ArgumentParser
import SparseFile

/// A byte range written as in an HTTP `Range` header: `A-B` (both positions inclusive), `A-`
/// (from A to the end) or `-N` (the last N bytes). The last two need the resource's length,
/// so they are resolved against it with ``resolved(length:)``.
struct InclusiveRangeArgument: ExpressibleByArgument, Equatable {
    enum Form: Equatable {
        case bounded(first: UInt64, last: UInt64)
        case from(first: UInt64)
        case suffix(count: UInt64)
    }

    var form: Form

    /// What help texts say about the forms.
    static let rule = "Inclusive byte positions, as in an HTTP Range header: A-B, A- (to the end) or -N (the last N bytes)"

    /// The whole resource: what `get` prints without `--range`.
    static let whole = InclusiveRangeArgument(form: .from(first: 0))

    init(form: Form) { self.form = form }

    init?(argument: String) {
        let parts = argument.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        switch (UInt64(parts[0]), UInt64(parts[1])) {
        case (let first?, let last?) where first <= last: form = .bounded(first: first, last: last)
        case (let first?, nil) where parts[1].isEmpty: form = .from(first: first)
        case (nil, let count?) where parts[0].isEmpty && count > 0: form = .suffix(count: count)
        default: return nil
        }
    }

    /// The outcome of resolving a range against a resource's length.
    enum Resolution: Equatable {
        /// The bytes to read; nil for a resource of no bytes.
        case bytes(ByteRange?)
        /// The range starts at or after the end: `length` bytes exist.
        case pastTheEnd(length: UInt64)
        /// The range needs a length the resource does not know.
        case lengthUnknown
    }

    /// The range as HTTP resolves it (RFC 9110, 14.1.2): a last position past the end means the
    /// end, `A-` ends at the end, `-N` is the last N bytes (all of them when N is larger). A
    /// range starting at or past the end cannot be satisfied; neither can `-N` of no bytes.
    func resolved(length: UInt64?) -> Resolution {
        guard let length else {
            if case .bounded(let first, let last) = form { return .bytes(ByteRange(first: first, last: last)) }
            return .lengthUnknown
        }
        switch form {
        case .bounded(let first, let last):
            guard first < length else { return .pastTheEnd(length: length) }
            return .bytes(ByteRange(first: first, last: min(last, length - 1)))
        case .from(let first):
            if first == 0 && length == 0 { return .bytes(nil) }
            guard first < length else { return .pastTheEnd(length: length) }
            return .bytes(ByteRange(first: first, last: length - 1))
        case .suffix(let count):
            guard length > 0 else { return .pastTheEnd(length: 0) }
            return .bytes(ByteRange(first: length - min(count, length), last: length - 1))
        }
    }

    /// The failure for a range that cannot be read from `name`, or nil for bytes to read.
    func failure(_ resolution: Resolution, name: String) -> CommandFailure? {
        switch resolution {
        case .bytes:
            return nil
        case .pastTheEnd(let length):
            let extent = length == 0 ? "it holds no bytes" : "it is \(length) bytes long, 0-\(length - 1)"
            return CommandFailure(code: .missing, message: "\(name): the range \(self) is past the end: \(extent)")
        case .lengthUnknown:
            return CommandFailure(code: .missing, message: "\(name): its length is unknown (the origin never gave it), "
                + "so \(self) cannot be read: give --range A-B")
        }
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

extension InclusiveRangeArgument: CustomStringConvertible {
    var description: String {
        switch form {
        case .bounded(let first, let last): "\(first)-\(last)"
        case .from(let first): "\(first)-"
        case .suffix(let count): "-\(count)"
        }
    }
}
