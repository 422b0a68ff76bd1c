import ArgumentParser
import SparseFile

/// A byte range written as HTTP does, `A-B` with both positions inclusive.
struct InclusiveRangeArgument: ExpressibleByArgument {
    var range: ByteRange

    init?(argument: String) {
        let parts = argument.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let first = UInt64(parts[0]), let last = UInt64(parts[1]),
              let range = ByteRange(first: first, last: last) else { return nil }
        self.range = range
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
