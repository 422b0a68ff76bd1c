/// The elements of the MPD schema the model reads. Everything else is ``other`` and kept as is.
enum ElementKind: UInt8, BitwiseCopyable {
    case other
    case mpd, period, adaptationSet, representation, subRepresentation
    case baseURL, location, patchLocation, utcTiming
    case segmentBase, segmentList, segmentTemplate, segmentTimeline, s, segmentURL
    case initialization, representationIndex, bitstreamSwitching
    case contentProtection

    /// The kind of the local name `bytes[start..<end]` (which is not empty). Names are compared
    /// byte by byte: XML names are case-sensitive.
    static func of(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> ElementKind {
        let count = end - start
        if count == 1 { return bytes[start] == UInt8(ascii: "S") ? .s : .other }
        for (name, kind) in table[min(count, table.count - 1)] where matches(name, bytes, start, count) {
            return kind
        }
        return .other
    }

    private static func matches(_ name: StaticString, _ bytes: UnsafePointer<UInt8>, _ start: Int, _ count: Int) -> Bool {
        let pointer = name.utf8Start
        for index in 0..<count where pointer[index] != bytes[start + index] { return false }
        return true
    }

    /// The known names by length.
    private static let table: [[(StaticString, ElementKind)]] = {
        let names: [(StaticString, ElementKind)] = [
            ("MPD", .mpd), ("Period", .period), ("AdaptationSet", .adaptationSet),
            ("Representation", .representation), ("SubRepresentation", .subRepresentation),
            ("BaseURL", .baseURL), ("Location", .location), ("PatchLocation", .patchLocation),
            ("UTCTiming", .utcTiming), ("SegmentBase", .segmentBase), ("SegmentList", .segmentList),
            ("SegmentTemplate", .segmentTemplate), ("SegmentTimeline", .segmentTimeline),
            ("SegmentURL", .segmentURL), ("Initialization", .initialization),
            ("RepresentationIndex", .representationIndex), ("BitstreamSwitching", .bitstreamSwitching),
            ("ContentProtection", .contentProtection),
        ]
        var table = [[(StaticString, ElementKind)]](repeating: [], count: 21)
        for (name, kind) in names { table[name.utf8CodeUnitCount].append((name, kind)) }
        return table
    }()

    /// Elements that carry `BaseURL` children and segment information for the levels below.
    var isLevel: Bool {
        switch self {
        case .mpd, .period, .adaptationSet, .representation, .subRepresentation: true
        default: false
        }
    }

    /// The children the document indexes by parent, as the model looks them up once per
    /// Representation: `BaseURL` and segment information.
    var isIndexedChild: Bool {
        switch self {
        case .baseURL, .segmentBase, .segmentList, .segmentTemplate, .segmentTimeline, .initialization,
             .representationIndex, .bitstreamSwitching: true
        default: false
        }
    }

    /// `SegmentBase`, `SegmentList` or `SegmentTemplate`.
    var isSegmentInformation: Bool {
        self == .segmentBase || self == .segmentList || self == .segmentTemplate
    }
}
