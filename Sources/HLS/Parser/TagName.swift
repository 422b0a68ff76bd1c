/// The tags the parser understands. Anything else that starts with `#EXT` is an unknown tag and
/// is kept, like a comment, exactly where it stands.
enum TagName: UInt8, Sendable, CaseIterable {
    case extm3u, extinf, version
    case byteRange, discontinuity, key, map, programDateTime, dateRange, gap, bitrate, part
    case targetDuration, mediaSequence, discontinuitySequence, endList, playlistType
    case iFramesOnly, partInf, serverControl, preloadHint, skip, renditionReport
    case media, streamInf, iFrameStreamInf, sessionData, sessionKey, contentSteering
    case independentSegments, start, define

    /// The name as it follows `#` in a playlist.
    var text: String {
        switch self {
        case .extm3u: "EXTM3U"
        case .extinf: "EXTINF"
        case .version: "EXT-X-VERSION"
        case .byteRange: "EXT-X-BYTERANGE"
        case .discontinuity: "EXT-X-DISCONTINUITY"
        case .key: "EXT-X-KEY"
        case .map: "EXT-X-MAP"
        case .programDateTime: "EXT-X-PROGRAM-DATE-TIME"
        case .dateRange: "EXT-X-DATERANGE"
        case .gap: "EXT-X-GAP"
        case .bitrate: "EXT-X-BITRATE"
        case .part: "EXT-X-PART"
        case .targetDuration: "EXT-X-TARGETDURATION"
        case .mediaSequence: "EXT-X-MEDIA-SEQUENCE"
        case .discontinuitySequence: "EXT-X-DISCONTINUITY-SEQUENCE"
        case .endList: "EXT-X-ENDLIST"
        case .playlistType: "EXT-X-PLAYLIST-TYPE"
        case .iFramesOnly: "EXT-X-I-FRAMES-ONLY"
        case .partInf: "EXT-X-PART-INF"
        case .serverControl: "EXT-X-SERVER-CONTROL"
        case .preloadHint: "EXT-X-PRELOAD-HINT"
        case .skip: "EXT-X-SKIP"
        case .renditionReport: "EXT-X-RENDITION-REPORT"
        case .media: "EXT-X-MEDIA"
        case .streamInf: "EXT-X-STREAM-INF"
        case .iFrameStreamInf: "EXT-X-I-FRAME-STREAM-INF"
        case .sessionData: "EXT-X-SESSION-DATA"
        case .sessionKey: "EXT-X-SESSION-KEY"
        case .contentSteering: "EXT-X-CONTENT-STEERING"
        case .independentSegments: "EXT-X-INDEPENDENT-SEGMENTS"
        case .start: "EXT-X-START"
        case .define: "EXT-X-DEFINE"
        }
    }

    /// How the text after the colon is structured.
    enum Payload {
        case none
        case scalar
        case attributeList
    }

    var payload: Payload {
        switch self {
        case .extm3u, .discontinuity, .gap, .endList, .iFramesOnly, .independentSegments: .none
        case .extinf, .version, .byteRange, .programDateTime, .bitrate, .targetDuration, .mediaSequence,
             .discontinuitySequence, .playlistType: .scalar
        case .key, .map, .dateRange, .part, .partInf, .serverControl, .preloadHint, .skip, .renditionReport,
             .media, .streamInf, .iFrameStreamInf, .sessionData, .sessionKey, .contentSteering, .start, .define:
            .attributeList
        }
    }

    /// Tags that only a multivariant playlist may hold.
    var isMultivariantOnly: Bool {
        switch self {
        case .media, .streamInf, .iFrameStreamInf, .sessionData, .sessionKey, .contentSteering: true
        default: false
        }
    }

    /// Tags that only a media playlist may hold.
    var isMediaOnly: Bool {
        switch self {
        case .extinf, .byteRange, .discontinuity, .key, .map, .programDateTime, .dateRange, .gap, .bitrate, .part,
             .targetDuration, .mediaSequence, .discontinuitySequence, .endList, .playlistType, .iFramesOnly,
             .partInf, .serverControl, .preloadHint, .skip, .renditionReport:
            true
        default: false
        }
    }

    /// Tags that may appear at most once in a playlist.
    var isSingleton: Bool {
        switch self {
        case .version, .targetDuration, .mediaSequence, .discontinuitySequence, .endList, .playlistType,
             .iFramesOnly, .partInf, .serverControl, .skip, .contentSteering, .independentSegments, .start:
            true
        default: false
        }
    }

    static let table = NameTable(allCases.map { ($0.text, $0.rawValue) })

    /// The name in `span`, if it is one of these.
    @inline(__always)
    static func named(_ base: UnsafePointer<UInt8>, _ span: ByteSpan, in table: NameTable, readableEnd: Int) -> Self? {
        table.lookup(base, span, readableEnd: readableEnd).flatMap(Self.init(rawValue:))
    }
}
