/// Media segment tags (RFC 8216 section 4.3.2): they describe the next URI line, or (KEY, MAP,
/// BITRATE) every segment until they are replaced.
extension PlaylistParser {
    @inline(__always)
    mutating func parseExtinf(_ text: ByteSpan) throws(HLSParseError) {
        var value = text
        if value.start < value.end && ASCII.isWhitespace(base[value.lowerBound]) {
            // As for every other tag: white space after the colon is reported and skipped.
            currentLine.isCanonical = false
            try report(.whitespace, "white space after the colon of EXTINF")
            while value.start < value.end && ASCII.isWhitespace(base[value.lowerBound]) { value.start += 1 }
        }
        if pending.hasExtinf {
            try report(.orphan, "EXTINF without a URI line before the next EXTINF")
        }
        sawTargetDurationOrExtinf = true
        // The duration is scanned first: in the common `6.006,` it ends at the comma, which
        // saves a second pass to find it.
        let scan = NumberSyntax.decimalPrefix(base, value, readableEnd: count)
        var comma = value.lowerBound + scan.length
        if comma >= value.upperBound || base[comma] != ASCII.comma {
            currentLine.isCanonical = false
            while comma < value.upperBound && base[comma] != ASCII.comma { comma += 1 }
            if comma == value.upperBound {
                try report(.malformedTag, "EXTINF needs a comma after the duration")
            }
            var durationEnd = comma
            while durationEnd > value.lowerBound && ASCII.isWhitespace(base[durationEnd - 1]) { durationEnd -= 1 }
            if scan.length > 0 && durationEnd != value.lowerBound + scan.length {
                try report(.malformedTag, "EXTINF duration has trailing characters")
            }
        }
        if scan.length == 0 {
            try report(.malformedTag, "EXTINF duration is not a number")
            pending.duration = .empty
        } else {
            pending.duration = ByteSpan(value.lowerBound, value.lowerBound + scan.length)
            if scan.isNegative {
                try report(.range, "EXTINF duration is negative")
            } else if scan.rounded > maximumRoundedDuration.value {
                maximumRoundedDuration = (scan.rounded, line)
            }
            if declaredVersion < 3, containsDot(pending.duration) {
                try reportVersion(3, "a decimal EXTINF duration")
            }
        }
        // The title is kept as written after the comma, leading white space included.
        pending.title = ByteSpan(comma < value.upperBound ? comma + 1 : value.upperBound, value.upperBound)
        pending.hasExtinf = true
        pending.extinfLine = Int32(line)
    }

    @inline(__always)
    private func containsDot(_ span: ByteSpan) -> Bool {
        for index in span.lowerBound..<span.upperBound where base[index] == ASCII.dot { return true }
        return false
    }

    /// Reports a feature used below the EXT-X-VERSION that introduced it.
    mutating func reportVersion(_ required: UInt64, _ feature: String) throws(HLSParseError) {
        if declaredVersion < required {
            try report(.version, "\(feature) needs EXT-X-VERSION \(required) or later (playlist declares \(declaredVersion))")
        }
    }

    @inline(__always)
    mutating func parseByteRange(_ value: ByteSpan) throws(HLSParseError) {
        if declaredVersion < 4 { try reportVersion(4, "EXT-X-BYTERANGE") }
        switch NumberSyntax.byteRange(base, value, readableEnd: count) {
        case .valid(let length, let offset):
            pending.hasByteRange = true
            pending.byteRangeLength = length
            pending.byteRangeOffset = offset ?? 0
            pending.hasByteRangeOffset = offset != nil
            pending.byteRangeLine = Int32(line)
        case .malformed:
            try report(.malformedTag, "EXT-X-BYTERANGE must be <length>[@<offset>] with decimal integers below 2^64")
        }
    }

    @inline(__always)
    mutating func parseProgramDateTime(_ value: ByteSpan) throws(HLSParseError) {
        if !DateTimeSyntax.isDateTime(base, value, readableEnd: count) {
            try report(.malformedTag, "EXT-X-PROGRAM-DATE-TIME is not an ISO 8601 date-time")
        }
        pending.programDateTime = value
    }

    mutating func parseBitrate(_ value: ByteSpan) throws(HLSParseError) {
        guard let bitrate = NumberSyntax.decimalInteger(base, value, readableEnd: count) else {
            try report(.malformedTag, "EXT-X-BITRATE must be a decimal integer below 2^64")
            return
        }
        try checkCount(storage.bitrates.count, against: limits.maximumEntriesPerList, "bitrates")
        currentBitrate = Int32(storage.bitrates.count)
        storage.bitrates.append(bitrate)
    }

    mutating func parseKey(_ value: ByteSpan) throws(HLSParseError) {
        let record = try parseAttributeList(value, tag: .key)
        guard try validateKey(record, tag: .key) else { return }
        try checkCount(storage.keys.count, against: limits.maximumEntriesPerList, "keys")
        let method = attribute(.method, in: record).map { $0.value } ?? .empty
        keySetIsCurrent = false
        if bytesEqual(method, "NONE") {
            currentKeys.removeAll()
            return
        }
        let format = attribute(.keyFormat, in: record)?.content
        let replaced = currentKeys.filter { existing in
            sameKeyFormat(attribute(.keyFormat, in: storage.keys[Int(existing)])?.content, format)
        }
        currentKeys.removeAll { replaced.contains($0) }
        currentLine.item = Int32(storage.keys.count)
        if currentKeys.count >= limits.maximumKeysInForce {
            throw limitExceeded("more than \(limits.maximumKeysInForce) keys in force")
        }
        currentKeys.append(Int32(storage.keys.count))
        storage.keys.append(record)
    }

    /// KEYFORMAT defaults to "identity", so an absent one equals an explicit "identity".
    @inline(__always)
    private func sameKeyFormat(_ lhs: ByteSpan?, _ rhs: ByteSpan?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case (let format?, nil), (nil, let format?): bytesEqual(format, "identity")
        case (let left?, let right?): bytesEqual(left, right)
        }
    }

    /// Checks METHOD, URI, IV and KEYFORMAT of EXT-X-KEY or EXT-X-SESSION-KEY. Returns false when
    /// the tag has no METHOD and so cannot be used at all.
    mutating func validateKey(_ record: TagRecord, tag: TagName) throws(HLSParseError) -> Bool {
        guard let method = attribute(.method, in: record) else {
            try report(.attribute, "\(tag.text) needs a METHOD attribute")
            return false
        }
        let methodValue = try enumeratedString(method, tag: tag)
        let isNone = bytesEqual(methodValue, "NONE")
        if isNone {
            if tag == .sessionKey {
                try report(.attribute, "EXT-X-SESSION-KEY must not have METHOD=NONE")
            } else if record.attributes.count > 1 {
                try report(.attribute, "EXT-X-KEY with METHOD=NONE must have no other attributes")
            }
        } else if !(bytesEqual(methodValue, "AES-128") || bytesEqual(methodValue, "SAMPLE-AES")
                    || bytesEqual(methodValue, "SAMPLE-AES-CTR")) {
            try report(.attribute, "\(tag.text): unknown METHOD \(text(methodValue))")
        }
        if let uri = attribute(.uri, in: record) {
            _ = try quotedString(uri, tag: tag)
        } else if !isNone {
            try report(.attribute, "\(tag.text) needs a URI attribute")
        }
        if let iv = attribute(.iv, in: record) {
            if iv.isQuoted || !NumberSyntax.isHexadecimal(base, iv.value, readableEnd: count) || iv.value.count > 34 {
                try report(.attribute, "\(tag.text): IV must be a hexadecimal sequence of at most 128 bits")
            }
            try reportVersion(2, "the IV attribute")
        }
        if let format = attribute(.keyFormat, in: record) {
            _ = try quotedString(format, tag: tag)
            try reportVersion(5, "the KEYFORMAT attribute")
        }
        if let versions = attribute(.keyFormatVersions, in: record) {
            _ = try quotedString(versions, tag: tag)
            try reportVersion(5, "the KEYFORMATVERSIONS attribute")
        }
        return true
    }

    mutating func parseMap(_ value: ByteSpan) throws(HLSParseError) {
        let record = try parseAttributeList(value, tag: .map)
        guard try requiredQuoted(.uri, in: record, tag: .map) != nil else { return }
        try checkCount(storage.maps.count, against: limits.maximumEntriesPerList, "maps")
        var map = MapRecord(tag: record, byteRangeLength: 0, byteRangeOffset: 0, hasByteRange: false)
        if let range = attribute(.byteRange, in: record) {
            switch NumberSyntax.byteRange(base, try quotedString(range, tag: .map), readableEnd: count) {
            case .valid(let length, let offset):
                map.byteRangeLength = length
                map.byteRangeOffset = offset ?? 0
                map.hasByteRange = true
                if offset == nil {
                    try report(.byteRange, "EXT-X-MAP BYTERANGE needs an explicit offset")
                } else if length.addingReportingOverflow(offset ?? 0).overflow {
                    try report(.range, "EXT-X-MAP BYTERANGE ends past 2^64-1")
                }
            case .malformed:
                try report(.malformedTag, "EXT-X-MAP BYTERANGE must be \"<length>[@<offset>]\"")
            }
        }
        // MAP is allowed from version 5 in I-frame playlists and from 6 elsewhere; the I-frame
        // tag may come later, so the check waits for the end of the playlist.
        currentLine.item = Int32(storage.maps.count)
        currentMap = Int32(storage.maps.count)
        storage.maps.append(map)
    }

    mutating func parseDateRange(_ value: ByteSpan) throws(HLSParseError) {
        let record = try parseAttributeList(value, tag: .dateRange)
        if attribute(.id, in: record) == nil {
            try report(.attribute, "EXT-X-DATERANGE needs an ID attribute")
        }
        for index in record.attributes.indices {
            let item = attributes[index]
            switch item.knownName {
            case .id, .dateRangeClass, .cue: _ = try quotedString(item, tag: .dateRange)
            case .startDate, .endDate:
                if !DateTimeSyntax.isDateTime(base, try quotedString(item, tag: .dateRange), readableEnd: count) {
                    try report(.malformedTag, "EXT-X-DATERANGE: \(attributeText(item)) is not an ISO 8601 date-time")
                }
            case .duration, .plannedDuration: _ = try decimalValue(item, tag: .dateRange)
            case .scte35Command, .scte35Out, .scte35In:
                if item.isQuoted || !NumberSyntax.isHexadecimal(base, item.value, readableEnd: count) {
                    try report(.malformedTag, "EXT-X-DATERANGE: \(attributeText(item)) must be a hexadecimal sequence")
                }
            case .endOnNext:
                if !bytesEqual(item.value, "YES") {
                    try report(.malformedTag, "EXT-X-DATERANGE: END-ON-NEXT must be YES")
                }
                if attribute(.dateRangeClass, in: record) == nil {
                    try report(.attribute, "EXT-X-DATERANGE with END-ON-NEXT needs a CLASS attribute")
                }
            default: break
            }
        }
        try checkCount(storage.dateRanges.count, against: limits.maximumEntriesPerList, "date ranges")
        currentLine.item = Int32(storage.dateRanges.count)
        storage.dateRanges.append(DateRangeRecord(tag: record, segment: Int32(segments.count)))
    }

    mutating func parsePart(_ value: ByteSpan) throws(HLSParseError) {
        let record = try parseAttributeList(value, tag: .part)
        // One pass finds the attributes; the checks then run in a fixed order, which decides
        // the first problem reported.
        var uri: AttributeRecord?
        var duration: AttributeRecord?
        var independent: AttributeRecord?
        var gap: AttributeRecord?
        var range: AttributeRecord?
        for index in record.attributes.indices {
            let item = attributes[index]
            switch item.knownName {
            case .uri: if uri == nil { uri = item }
            case .duration: if duration == nil { duration = item }
            case .independent: if independent == nil { independent = item }
            case .gap: if gap == nil { gap = item }
            case .byteRange: if range == nil { range = item }
            default: break
            }
        }
        let uriSpan = try requiredQuoted(uri, .uri, tag: .part) ?? .empty
        if let duration {
            _ = try decimalValue(duration, tag: .part)
        } else {
            try report(.attribute, "EXT-X-PART needs a DURATION attribute")
        }
        try requireYes(independent, .independent)
        try requireYes(gap, .gap)
        try checkCount(storage.parts.count, against: limits.maximumEntriesPerList, "parts")
        var part = PartRecord(tag: record, segment: Int32(segments.count), byteRangeLength: 0,
                              byteRangeOffset: 0, hasByteRange: false)
        if let range {
            switch NumberSyntax.byteRange(base, try quotedString(range, tag: .part), readableEnd: count) {
            case .valid(let length, let offset):
                part.byteRangeLength = length
                part.hasByteRange = true
                if let offset {
                    part.byteRangeOffset = offset
                } else if let previous = previousPartEnd, bytesEqual(previous.uri, uriSpan) {
                    part.byteRangeOffset = previous.end
                } else {
                    try report(.byteRange, "EXT-X-PART BYTERANGE without an offset needs a previous part of the same URI")
                    part.byteRangeOffset = previousPartEnd?.end ?? 0
                }
                let (end, overflow) = length.addingReportingOverflow(part.byteRangeOffset)
                if overflow {
                    try report(.range, "EXT-X-PART BYTERANGE ends past 2^64-1")
                }
                previousPartEnd = (uriSpan, overflow ? UInt64.max : end)
            case .malformed:
                try report(.malformedTag, "EXT-X-PART BYTERANGE must be \"<length>[@<offset>]\"")
                previousPartEnd = nil
            }
        } else {
            previousPartEnd = nil
        }
        currentLine.item = Int32(storage.parts.count)
        storage.parts.append(part)
    }

    /// INDEPENDENT and GAP of EXT-X-PART are YES when present.
    private mutating func requireYes(_ flag: AttributeRecord?, _ name: AttributeName) throws(HLSParseError) {
        if let flag, !bytesEqual(flag.value, "YES") {
            try report(.malformedTag, "EXT-X-PART: \(name.text) must be YES")
        }
    }

    /// Turns the pending segment tags and `uri` into a segment.
    @inline(__always)
    mutating func commitSegment(uri: ByteSpan) throws(HLSParseError) {
        if segments.count >= limits.maximumSegments {
            throw limitExceeded("more than \(limits.maximumSegments) segments")
        }
        if !storage.variables.isEmpty {
            try checkVariableReferences(in: uri)
        }
        var flags: SegmentRecord.Flags = []
        if pending.discontinuity { flags.insert(.discontinuity) }
        if pending.gap { flags.insert(.gap) }
        var length: UInt64 = 0
        var offset: UInt64 = 0
        if pending.hasByteRange {
            flags.insert(.byteRange)
            length = pending.byteRangeLength
            if pending.hasByteRangeOffset {
                offset = pending.byteRangeOffset
            } else {
                offset = try implicitByteRangeOffset(uri: uri)
            }
            if length.addingReportingOverflow(offset).overflow {
                try report(.range, "EXT-X-BYTERANGE ends past 2^64-1", line: Int(pending.byteRangeLine))
            }
        }
        let bitrate = pending.hasByteRange ? -1 : currentBitrate
        if storage.endList {
            try report(.placement, "media segment after EXT-X-ENDLIST")
        }
        let segmentIndex = Int32(segments.count)
        currentLine.kind = .segmentURI
        currentLine.item = segmentIndex
        segments.append(SegmentRecord(uri: uri, duration: pending.duration, title: pending.title,
                                              programDateTime: pending.programDateTime, byteRangeLength: length,
                                              byteRangeOffset: offset, bitrate: bitrate,
                                              keySet: currentKeys.isEmpty ? -1 : try currentKeySet(),
                                              map: currentMap, flags: flags))
        pending = PendingSegment()
    }

    /// The implicit offset of RFC 8216 section 4.3.2.2: the byte after the previous segment's
    /// sub-range, which must be of the same resource. Players continue from the previous
    /// segment regardless, so lenient mode does the same after reporting.
    private mutating func implicitByteRangeOffset(uri: ByteSpan) throws(HLSParseError) -> UInt64 {
        guard let previous = segments.last, previous.flags.contains(.byteRange) else {
            try report(.byteRange, "EXT-X-BYTERANGE without an offset needs a previous sub-range segment",
                       line: Int(pending.byteRangeLine))
            return 0
        }
        if !bytesEqual(previous.uri, uri) {
            try report(.byteRange, "EXT-X-BYTERANGE without an offset follows a segment of a different URI",
                       line: Int(pending.byteRangeLine))
        }
        let (end, overflow) = previous.byteRangeLength.addingReportingOverflow(previous.byteRangeOffset)
        return overflow ? UInt64.max : end
    }

    /// The index of the key set in force, creating it when an EXT-X-KEY changed the keys.
    private mutating func currentKeySet() throws(HLSParseError) -> Int32 {
        if currentKeys.isEmpty { return -1 }
        if !keySetIsCurrent || storage.keySets.isEmpty {
            try checkCount(storage.keySets.count, against: limits.maximumEntriesPerList, "key sets")
            let start = Int32(storage.keySetMembers.count)
            storage.keySetMembers.append(contentsOf: currentKeys)
            storage.keySets.append(start..<Int32(storage.keySetMembers.count))
            keySetIsCurrent = true
        }
        return Int32(storage.keySets.count - 1)
    }
}
