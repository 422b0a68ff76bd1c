/// The attribute names the parser gives meaning to. Other names (client `X-` attributes, vendor
/// extensions) are kept in the attribute list as written.
enum AttributeName: UInt8, Sendable, CaseIterable {
    case method, uri, iv, keyFormat, keyFormatVersions, byteRange
    case id, dateRangeClass, startDate, cue, endDate, duration, plannedDuration
    case scte35Command, scte35Out, scte35In, endOnNext
    case type, groupID, language, assocLanguage, name, stableRenditionID, isDefault, autoselect, forced
    case instreamID, bitDepth, sampleRate, characteristics, channels
    case bandwidth, averageBandwidth, score, codecs, supplementalCodecs, resolution, frameRate
    case hdcpLevel, allowedCPC, videoRange, reqVideoLayout, stableVariantID
    case audio, video, subtitles, closedCaptions, pathwayID, programID
    case dataID, value, format, serverURI, timeOffset, precise
    case partTarget, independent, gap, skippedSegments, recentlyRemovedDateRanges
    case byteRangeStart, byteRangeLength, lastMSN, lastPart
    // Raw values from 64 on: names of tags that come once in a playlist, if at all, whose lists
    // the one-pass split leaves to the scanner (its name sets are 64 bits).
    case importName, queryParameter
    case canSkipUntil, canSkipDateRanges, holdBack, partHoldBack, canBlockReload

    var text: String {
        switch self {
        case .method: "METHOD"
        case .uri: "URI"
        case .iv: "IV"
        case .keyFormat: "KEYFORMAT"
        case .keyFormatVersions: "KEYFORMATVERSIONS"
        case .byteRange: "BYTERANGE"
        case .id: "ID"
        case .dateRangeClass: "CLASS"
        case .startDate: "START-DATE"
        case .cue: "CUE"
        case .endDate: "END-DATE"
        case .duration: "DURATION"
        case .plannedDuration: "PLANNED-DURATION"
        case .scte35Command: "SCTE35-CMD"
        case .scte35Out: "SCTE35-OUT"
        case .scte35In: "SCTE35-IN"
        case .endOnNext: "END-ON-NEXT"
        case .type: "TYPE"
        case .groupID: "GROUP-ID"
        case .language: "LANGUAGE"
        case .assocLanguage: "ASSOC-LANGUAGE"
        case .name: "NAME"
        case .stableRenditionID: "STABLE-RENDITION-ID"
        case .isDefault: "DEFAULT"
        case .autoselect: "AUTOSELECT"
        case .forced: "FORCED"
        case .instreamID: "INSTREAM-ID"
        case .bitDepth: "BIT-DEPTH"
        case .sampleRate: "SAMPLE-RATE"
        case .characteristics: "CHARACTERISTICS"
        case .channels: "CHANNELS"
        case .bandwidth: "BANDWIDTH"
        case .averageBandwidth: "AVERAGE-BANDWIDTH"
        case .score: "SCORE"
        case .codecs: "CODECS"
        case .supplementalCodecs: "SUPPLEMENTAL-CODECS"
        case .resolution: "RESOLUTION"
        case .frameRate: "FRAME-RATE"
        case .hdcpLevel: "HDCP-LEVEL"
        case .allowedCPC: "ALLOWED-CPC"
        case .videoRange: "VIDEO-RANGE"
        case .reqVideoLayout: "REQ-VIDEO-LAYOUT"
        case .stableVariantID: "STABLE-VARIANT-ID"
        case .audio: "AUDIO"
        case .video: "VIDEO"
        case .subtitles: "SUBTITLES"
        case .closedCaptions: "CLOSED-CAPTIONS"
        case .pathwayID: "PATHWAY-ID"
        case .programID: "PROGRAM-ID"
        case .dataID: "DATA-ID"
        case .value: "VALUE"
        case .format: "FORMAT"
        case .serverURI: "SERVER-URI"
        case .timeOffset: "TIME-OFFSET"
        case .precise: "PRECISE"
        case .importName: "IMPORT"
        case .queryParameter: "QUERYPARAM"
        case .partTarget: "PART-TARGET"
        case .canSkipUntil: "CAN-SKIP-UNTIL"
        case .canSkipDateRanges: "CAN-SKIP-DATERANGES"
        case .holdBack: "HOLD-BACK"
        case .partHoldBack: "PART-HOLD-BACK"
        case .canBlockReload: "CAN-BLOCK-RELOAD"
        case .independent: "INDEPENDENT"
        case .gap: "GAP"
        case .skippedSegments: "SKIPPED-SEGMENTS"
        case .recentlyRemovedDateRanges: "RECENTLY-REMOVED-DATERANGES"
        case .byteRangeStart: "BYTERANGE-START"
        case .byteRangeLength: "BYTERANGE-LENGTH"
        case .lastMSN: "LAST-MSN"
        case .lastPart: "LAST-PART"
        }
    }

    static let table = NameTable(allCases.map { ($0.text, $0.rawValue) })

    /// The name in `span`, if it is one of these.
    @inline(__always)
    static func named(_ base: UnsafePointer<UInt8>, _ span: ByteSpan, in table: NameTable, readableEnd: Int) -> Self? {
        table.lookup(base, span, readableEnd: readableEnd).flatMap(Self.init(rawValue:))
    }
}
