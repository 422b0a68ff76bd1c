public import SparseFile

/// Which parts of a requested range are cached, being fetched right now, or missing, so a
/// proxy fetches only the gaps and follows what others are already fetching.
public struct RangePlan: Sendable, Hashable {
    public enum State: Sendable, Hashable {
        case cached
        case inFlight
        case missing
    }

    public struct Piece: Sendable, Hashable {
        public var range: ByteRange
        public var state: State
    }

    /// The pieces, in order, covering the requested range (cut at the content length when known).
    public var pieces: [Piece]

    public var missing: [ByteRange] { pieces.filter { $0.state == .missing }.map(\.range) }
    public var isFullyCached: Bool { pieces.allSatisfy { $0.state == .cached } }

    /// Splits `range` given its cached sub-ranges and the ranges fills are still to write.
    static func make(range: ByteRange, missingFromFile: [ByteRange], inFlight: [ByteRange]) -> RangePlan {
        var pieces: [Piece] = []
        var position = range.offset
        for gap in missingFromFile {
            if gap.offset > position { pieces.append(Piece(range: ByteRange(from: position, to: gap.offset) ?? gap, state: .cached)) }
            pieces += split(gap, by: inFlight)
            position = gap.end
        }
        if position < range.end, let rest = ByteRange(from: position, to: range.end) {
            pieces.append(Piece(range: rest, state: .cached))
        }
        return RangePlan(pieces: pieces)
    }

    private static func split(_ gap: ByteRange, by inFlight: [ByteRange]) -> [Piece] {
        var pieces: [Piece] = []
        var position = gap.offset
        for flight in inFlight.sorted() where flight.end > position && flight.offset < gap.end {
            if flight.offset > position, let missing = ByteRange(from: position, to: flight.offset) {
                pieces.append(Piece(range: missing, state: .missing))
            }
            let start = max(position, flight.offset)
            let end = min(gap.end, flight.end)
            if let covered = ByteRange(from: start, to: end) { pieces.append(Piece(range: covered, state: .inFlight)) }
            position = end
        }
        if position < gap.end, let missing = ByteRange(from: position, to: gap.end) {
            pieces.append(Piece(range: missing, state: .missing))
        }
        return pieces
    }
}
