/// A `SegmentTimeline`: runs of segments given as `S` elements.
public struct DASHSegmentTimeline: Sendable {
    /// The `S` elements in order.
    public let entries: [DASHTimelineEntry]

    init(document: XMLDocument, index: Int32) {
        entries = document.children(of: index, kind: .s).map { element in
            DASHTimelineEntry(time: document.value("t", of: element).flatMap(XMLNumber.unsigned),
                              duration: document.value("d", of: element).flatMap(XMLNumber.unsigned),
                              repeatCount: document.value("r", of: element).flatMap(XMLNumber.signed) ?? 0,
                              element: element)
        }
    }
}

/// One `S` element: `@r + 1` segments of `@d` each, from `@t` (or where the previous run ended).
public struct DASHTimelineEntry: Hashable, Sendable {
    /// `@t`, in timescale units; nil when absent (the run starts where the previous one ended).
    public var time: UInt64?
    /// `@d`; nil when absent or invalid (segment addressing then fails with the position).
    public var duration: UInt64?
    /// `@r`, 0 when absent; negative means "until the next `S@t` or the end of the Period".
    public var repeatCount: Int64
    let element: Int32
}
