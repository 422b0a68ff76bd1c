/// A route's path, segment by segment, as a ``RouteTable`` entry writes it: `/status`,
/// `/sessions/*/index.m3u8` (`*` is one segment that is not empty), `/dash/**` (`**`, last, is
/// one or more segments of anything). A path matches when every segment does and none is left.
struct RoutePattern: Sendable {
    enum Segment: Sendable, Equatable {
        case literal([UInt8])
        /// One segment, not empty: the parameter the route takes from its path.
        case parameter
        /// The rest of the path, at least one (possibly empty) segment.
        case rest
    }

    let segments: [Segment]

    /// `pattern` starts with `/`; the table is written in code, so anything else is a mistake.
    init(_ pattern: String) {
        precondition(pattern.hasPrefix("/"), "a route pattern starts with /: \(pattern)")
        segments = pattern.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst().map { segment in
            if segment.elementsEqual("*".utf8) { return .parameter }
            if segment.elementsEqual("**".utf8) { return .rest }
            return .literal(Array(segment))
        }
        precondition(!segments.dropLast().contains(.rest), "** ends a route pattern: \(pattern)")
    }

    /// Where `path` (a request target up to its `?`) holds the ``Segment/parameter`` segment
    /// (an empty range at the end when the pattern has none); nil when it does not match.
    /// Allocates nothing: it runs on the hit path for every new target of a connection.
    func match<Path: Collection<UInt8>>(_ path: Path) -> Range<Path.Index>? {
        let slash = UInt8(ascii: "/")
        var position = path.startIndex  // at the "/" before the next segment
        var parameter = path.endIndex..<path.endIndex
        for segment in segments {
            guard position < path.endIndex, path[position] == slash else { return nil }
            let start = path.index(after: position)
            let end = path[start...].firstIndex(of: slash) ?? path.endIndex
            switch segment {
            case .rest:
                return parameter
            case .parameter:
                guard start < end else { return nil }
                parameter = start..<end
            case .literal(let bytes):
                guard path[start..<end].elementsEqual(bytes) else { return nil }
            }
            position = end
        }
        return position == path.endIndex ? parameter : nil
    }
}
