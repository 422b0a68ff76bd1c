public import CodedErrors

/// One request a player makes for a Representation: a URL and, for byte-range addressing, the
/// bytes of it; with where the segment sits in time.
public struct DASHSegmentRequest: Hashable, Sendable {
    /// The absolute URL (resolved against the MPD URL and every `BaseURL` above).
    public var url: String
    /// The bytes of ``url`` to request, or nil for the whole resource.
    public var byteRange: DASHByteRange?
    /// `$Number$` of the segment, for numbered addressing.
    public var number: UInt64?
    /// Media time of the segment's start, in ``timescale`` units (what `$Time$` expands to).
    public var time: UInt64
    /// Length in ``timescale`` units (0 for an initialization or index request).
    public var duration: UInt64
    /// Units per second of ``time`` and ``duration``.
    public var timescale: UInt64
    /// Start in seconds from the start of the Period (media time less `@presentationTimeOffset`).
    public var startSeconds: Double

    /// Length in seconds.
    public var durationSeconds: Double { Double(duration) / Double(max(timescale, 1)) }
}

/// A span of a Period, in seconds from its start. Segments overlapping it are listed.
public struct DASHTimeRange: Hashable, Sendable {
    /// Start, in seconds from the Period's start.
    public var start: Double
    /// End, or nil for "to the end of the Period".
    public var end: Double?

    /// `start..<end`; `end` nil means the end of the Period.
    public init(start: Double = 0, end: Double? = nil) {
        self.start = start
        self.end = end
    }

    /// The whole Period.
    public static let all = DASHTimeRange()
}

/// Why the segments of a Representation could not be listed, and which element was to blame.
public struct DASHAddressingError: DASHPositionedError {
    /// Why. Codes are stable strings.
    public typealias Code = ErrorCode<DASHAddressingError>

    /// Why.
    public var code: Code
    /// What is wrong, for people.
    public var message: String
    /// Where the element responsible starts (`S`, `SegmentTemplate`, ...), or ``DASHPosition/whole``.
    public var position: DASHPosition

    /// An error at `position`.
    public init(code: Code, message: String, position: DASHPosition) {
        self.code = code
        self.message = message
        self.position = position
    }

}

extension ErrorCode where Domain == DASHAddressingError {
    /// More segments than `DASHParserLimits.maximumSegmentsPerRepresentation` (a huge `@r`,
    /// a tiny `@duration`): narrow the time range.
    public static var limitExceeded: Self { Self(rawValue: "limit-exceeded") }

    /// The number of segments depends on an end that is unknown (a live Period without
    /// `@duration`, an `@r` of -1 at the end): give a time range with an end.
    public static var unbounded: Self { Self(rawValue: "unbounded") }

    /// A value the addressing needs is missing or invalid (`@duration`, `S@d`, `@media`,
    /// `@timescale` 0).
    public static var missingValue: Self { Self(rawValue: "missing-value") }

    /// A malformed `$...$` template.
    public static var template: Self { Self(rawValue: "template") }

    /// Times or numbers run past 2^64-1.
    public static var overflow: Self { Self(rawValue: "overflow") }

    /// `SegmentBase`: the segments are in the `sidx` box; pass it as a `DASHSegmentIndex`.
    public static var needsIndex: Self { Self(rawValue: "needs-index") }

    /// The `sidx` box references other `sidx` boxes (a hierarchical index), which is not read.
    public static var hierarchicalIndex: Self { Self(rawValue: "hierarchical-index") }
}
