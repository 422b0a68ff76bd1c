/// Media playlist tags (RFC 8216 section 4.3.3, LL-HLS additions of its successor draft) and the
/// tags both kinds share (VERSION, START, INDEPENDENT-SEGMENTS).
extension PlaylistParser {
    mutating func parseVersion(_ value: ByteSpan) throws(HLSParseError) {
        guard let version = NumberSyntax.decimalInteger(base, value, readableEnd: count) else {
            try report(.malformedTag, "EXT-X-VERSION must be a decimal integer")
            return
        }
        if storage.version == nil {
            storage.version = version
            declaredVersion = version
        }
    }

    mutating func parseTargetDuration(_ value: ByteSpan) throws(HLSParseError) {
        sawTargetDurationOrExtinf = true
        guard let duration = NumberSyntax.decimalInteger(base, value, readableEnd: count) else {
            try report(.malformedTag, "EXT-X-TARGETDURATION must be a decimal integer below 2^64")
            return
        }
        if storage.targetDuration == nil { storage.targetDuration = duration }
    }

    /// EXT-X-MEDIA-SEQUENCE and EXT-X-DISCONTINUITY-SEQUENCE: integers that must come before the
    /// first segment. The first well-formed one wins.
    mutating func parseSequenceNumber(_ value: ByteSpan, tag: TagName) throws(HLSParseError) -> UInt64? {
        let current = tag == .mediaSequence ? storage.mediaSequence : storage.discontinuitySequence
        if !segments.isEmpty {
            try report(.placement, "\(tag.text) must come before the first media segment")
        }
        guard let number = NumberSyntax.decimalInteger(base, value, readableEnd: count) else {
            try report(.malformedTag, "\(tag.text) must be a decimal integer below 2^64")
            return current
        }
        return current ?? number
    }

    mutating func parsePlaylistType(_ value: ByteSpan) throws(HLSParseError) {
        if bytesEqual(value, "VOD") {
            if storage.playlistType == nil { storage.playlistType = .vod }
        } else if bytesEqual(value, "EVENT") {
            if storage.playlistType == nil { storage.playlistType = .event }
        } else {
            try report(.malformedTag, "EXT-X-PLAYLIST-TYPE must be EVENT or VOD")
        }
    }

    mutating func parsePartInf(_ value: ByteSpan) throws(HLSParseError) {
        let record = try parseAttributeList(value, tag: .partInf)
        if let target = attribute(.partTarget, in: record) {
            _ = try decimalValue(target, tag: .partInf)
        } else {
            try report(.attribute, "EXT-X-PART-INF needs a PART-TARGET attribute")
        }
        if storage.partInf == nil { storage.partInf = record }
    }

    mutating func parseServerControl(_ value: ByteSpan) throws(HLSParseError) {
        let record = try parseAttributeList(value, tag: .serverControl)
        for index in record.attributes.indices {
            let item = attributes[index]
            switch item.knownName {
            case .canSkipUntil, .holdBack, .partHoldBack: _ = try decimalValue(item, tag: .serverControl)
            case .canSkipDateRanges, .canBlockReload: _ = try yesNo(item, tag: .serverControl)
            default: break
            }
        }
        if storage.serverControl == nil { storage.serverControl = record }
    }

    mutating func parsePreloadHint(_ value: ByteSpan) throws(HLSParseError) {
        let record = try parseAttributeList(value, tag: .preloadHint)
        if let type = attribute(.type, in: record) {
            let typeValue = try enumeratedString(type, tag: .preloadHint)
            if !bytesEqual(typeValue, "PART") && !bytesEqual(typeValue, "MAP") {
                try report(.attribute, "EXT-X-PRELOAD-HINT: TYPE must be PART or MAP")
            }
        } else {
            try report(.attribute, "EXT-X-PRELOAD-HINT needs a TYPE attribute")
        }
        try requiredQuoted(.uri, in: record, tag: .preloadHint)
        try checkIntegers([.byteRangeStart, .byteRangeLength], in: record, tag: .preloadHint)
        try checkCount(storage.preloadHints.count, against: limits.maximumEntriesPerList, "preload hints")
        currentLine.item = Int32(storage.preloadHints.count)
        storage.preloadHints.append(record)
    }

    mutating func parseSkip(_ value: ByteSpan) throws(HLSParseError) {
        let record = try parseAttributeList(value, tag: .skip)
        if let skipped = attribute(.skippedSegments, in: record) {
            if let count = try integerValue(skipped, tag: .skip), storage.skip == nil {
                storage.skippedSegments = count
            }
        } else {
            try report(.attribute, "EXT-X-SKIP needs a SKIPPED-SEGMENTS attribute")
        }
        if let removed = attribute(.recentlyRemovedDateRanges, in: record) {
            _ = try quotedString(removed, tag: .skip)
        }
        if !segments.isEmpty {
            try report(.placement, "EXT-X-SKIP must come before the first media segment")
        }
        if storage.skip == nil { storage.skip = record }
    }

    mutating func parseRenditionReport(_ value: ByteSpan) throws(HLSParseError) {
        let record = try parseAttributeList(value, tag: .renditionReport)
        try requiredQuoted(.uri, in: record, tag: .renditionReport)
        try checkIntegers([.lastMSN, .lastPart], in: record, tag: .renditionReport)
        try checkCount(storage.renditionReports.count, against: limits.maximumEntriesPerList, "rendition reports")
        currentLine.item = Int32(storage.renditionReports.count)
        storage.renditionReports.append(record)
    }

    mutating func parseStart(_ value: ByteSpan) throws(HLSParseError) {
        let record = try parseAttributeList(value, tag: .start)
        if let offset = attribute(.timeOffset, in: record) {
            _ = try decimalValue(offset, tag: .start, signed: true)
        } else {
            try report(.attribute, "EXT-X-START needs a TIME-OFFSET attribute")
        }
        if let precise = attribute(.precise, in: record) { _ = try yesNo(precise, tag: .start) }
        if storage.start == nil { storage.start = record }
    }
}
