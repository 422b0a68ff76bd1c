/// How a Representation's segments are addressed, after inheritance from its AdaptationSet and
/// Period.
public enum DASHSegmentInformation: Sendable {
    /// `SegmentTemplate`: URLs made from a template, numbered or timed.
    case template(DASHSegmentTemplate)
    /// `SegmentList`: a list of `SegmentURL`s.
    case list(DASHSegmentList)
    /// `SegmentBase`: one file, its segments found through its `sidx` box (``DASHSegmentIndex``).
    case base(DASHSegmentBase)
}

/// A `SegmentTemplate`, its attributes inherited per attribute from the levels above.
public struct DASHSegmentTemplate: Sendable {
    /// `@media`.
    public var media: String?
    /// `@initialization`.
    public var initialization: String?
    /// `@index`.
    public var index: String?
    /// `@bitstreamSwitching`.
    public var bitstreamSwitching: String?
    /// `@timescale`, 1 when absent.
    public var timescale: UInt64
    /// `@duration` in `timescale` units, for numbered segments without a timeline.
    public var duration: UInt64?
    /// `@startNumber`, 1 when absent.
    public var startNumber: UInt64
    /// `@endNumber`: the number of the last segment, when given.
    public var endNumber: UInt64?
    /// `@presentationTimeOffset`, 0 when absent.
    public var presentationTimeOffset: UInt64
    /// The `SegmentTimeline`, when there is one.
    public var timeline: DASHSegmentTimeline?
    /// Where `@media` was written, for errors.
    let mediaAttribute: Int32?
    let element: Int32

    init(_ levels: SegmentInformationLevels) {
        let kind = ElementKind.segmentTemplate
        mediaAttribute = levels.attribute("media", of: kind)
        media = mediaAttribute.map { levels.document.value(ofAttribute: $0) }
        initialization = levels.value("initialization", of: kind)
        index = levels.value("index", of: kind)
        bitstreamSwitching = levels.value("bitstreamSwitching", of: kind)
        timescale = levels.unsigned("timescale", of: kind) ?? 1
        duration = levels.unsigned("duration", of: kind)
        startNumber = levels.unsigned("startNumber", of: kind) ?? 1
        endNumber = levels.unsigned("endNumber", of: kind)
        presentationTimeOffset = levels.unsigned("presentationTimeOffset", of: kind) ?? 0
        timeline = levels.child(.segmentTimeline, of: kind).map { DASHSegmentTimeline(document: levels.document, index: $0) }
        element = levels.elements(kind).first ?? 0
    }
}

/// A `SegmentList`, inherited like a template.
public struct DASHSegmentList: Sendable {
    /// `@timescale`, 1 when absent.
    public var timescale: UInt64
    /// `@duration` in `timescale` units.
    public var duration: UInt64?
    /// `@startNumber`, 1 when absent.
    public var startNumber: UInt64
    /// `@presentationTimeOffset`, 0 when absent.
    public var presentationTimeOffset: UInt64
    /// The `Initialization` element.
    public var initialization: DASHURLWithRange?
    /// The `SegmentTimeline`, when there is one.
    public var timeline: DASHSegmentTimeline?
    /// The `SegmentURL`s of the lowest level that has any.
    public var segmentURLs: [DASHSegmentURL]
    let element: Int32

    init(_ levels: SegmentInformationLevels) {
        let kind = ElementKind.segmentList
        let document = levels.document
        timescale = levels.unsigned("timescale", of: kind) ?? 1
        duration = levels.unsigned("duration", of: kind)
        startNumber = levels.unsigned("startNumber", of: kind) ?? 1
        presentationTimeOffset = levels.unsigned("presentationTimeOffset", of: kind) ?? 0
        initialization = levels.child(.initialization, of: kind).map { DASHURLWithRange(document: document, index: $0) }
        timeline = levels.child(.segmentTimeline, of: kind).map { DASHSegmentTimeline(document: document, index: $0) }
        let owner = levels.elements(kind).first { document.firstChild(of: $0, kind: .segmentURL) != nil }
        segmentURLs = owner.map { owner in
            document.children(of: owner, kind: .segmentURL).map { DASHSegmentURL(document: document, index: $0) }
        } ?? []
        element = levels.elements(kind).first ?? 0
    }
}

/// A `SegmentBase`: one media file whose index (`sidx`) gives the segments.
public struct DASHSegmentBase: Sendable {
    /// `@timescale`, 1 when absent.
    public var timescale: UInt64
    /// `@presentationTimeOffset`, 0 when absent.
    public var presentationTimeOffset: UInt64
    /// `@indexRange`: where the `sidx` box is in the media file.
    public var indexRange: DASHByteRange?
    /// The `Initialization` element (usually only `@range`).
    public var initialization: DASHURLWithRange?
    /// The `RepresentationIndex` element, when the index is in another file.
    public var representationIndex: DASHURLWithRange?
    let element: Int32

    init(_ levels: SegmentInformationLevels) {
        let kind = ElementKind.segmentBase
        let document = levels.document
        timescale = levels.unsigned("timescale", of: kind) ?? 1
        presentationTimeOffset = levels.unsigned("presentationTimeOffset", of: kind) ?? 0
        indexRange = levels.value("indexRange", of: kind).flatMap(DASHByteRange.init)
        initialization = levels.child(.initialization, of: kind).map { DASHURLWithRange(document: document, index: $0) }
        representationIndex = levels.child(.representationIndex, of: kind).map { DASHURLWithRange(document: document, index: $0) }
        element = levels.elements(kind).first ?? 0
    }
}

/// `Initialization`, `RepresentationIndex` or `BitstreamSwitching`: a URL (the base URL when
/// `@sourceURL` is absent) and an optional byte range.
public struct DASHURLWithRange: Hashable, Sendable {
    /// `@sourceURL`.
    public var sourceURL: String?
    /// `@range`.
    public var range: DASHByteRange?

    init(document: XMLDocument, index: Int32) {
        sourceURL = document.value("sourceURL", of: index)
        range = document.value("range", of: index).flatMap(DASHByteRange.init)
    }
}

/// A `SegmentURL` of a `SegmentList`.
public struct DASHSegmentURL: Hashable, Sendable {
    /// `@media`: the segment's URL (the base URL when absent).
    public var media: String?
    /// `@mediaRange`.
    public var mediaRange: DASHByteRange?
    /// `@index`.
    public var index: String?
    /// `@indexRange`.
    public var indexRange: DASHByteRange?

    init(document: XMLDocument, index element: Int32) {
        media = document.value("media", of: element)
        mediaRange = document.value("mediaRange", of: element).flatMap(DASHByteRange.init)
        index = document.value("index", of: element)
        indexRange = document.value("indexRange", of: element).flatMap(DASHByteRange.init)
    }
}
