/// Multivariant playlist tags (RFC 8216 section 4.3.4 and its successor draft).
extension PlaylistParser {
    mutating func parseMedia(_ value: ByteSpan) throws(HLSParseError) {
        let record = try parseAttributeList(value, tag: .media)
        var type = ByteSpan.empty
        var hasURI = false
        var hasInstreamID = false
        var isDefault = false
        var autoselect: Bool?
        for index in record.attributes.indices {
            let item = attributes[index]
            switch item.knownName {
            case .type: type = try enumeratedString(item, tag: .media)
            case .uri: hasURI = true; _ = try quotedString(item, tag: .media)
            case .groupID, .language, .assocLanguage, .name, .stableRenditionID, .characteristics, .channels,
                 .instreamID:
                _ = try quotedString(item, tag: .media)
                if item.knownName == .instreamID { hasInstreamID = true }
            case .isDefault: isDefault = try yesNo(item, tag: .media)
            case .autoselect: autoselect = try yesNo(item, tag: .media)
            case .forced: _ = try yesNo(item, tag: .media)
            case .bitDepth, .sampleRate: _ = try integerValue(item, tag: .media)
            default: break
            }
        }
        let isClosedCaptions = bytesEqual(type, "CLOSED-CAPTIONS")
        if type.isEmpty {
            try report(.attribute, "EXT-X-MEDIA needs a TYPE attribute")
        } else if !(bytesEqual(type, "AUDIO") || bytesEqual(type, "VIDEO") || bytesEqual(type, "SUBTITLES")
                    || isClosedCaptions) {
            try report(.attribute, "EXT-X-MEDIA: TYPE must be AUDIO, VIDEO, SUBTITLES or CLOSED-CAPTIONS")
        }
        if attribute(.groupID, in: record) == nil {
            try report(.attribute, "EXT-X-MEDIA needs a GROUP-ID attribute")
        }
        if attribute(.name, in: record) == nil {
            try report(.attribute, "EXT-X-MEDIA needs a NAME attribute")
        }
        if isClosedCaptions {
            if hasURI { try report(.attribute, "EXT-X-MEDIA of TYPE=CLOSED-CAPTIONS must not have a URI") }
            if !hasInstreamID { try report(.attribute, "EXT-X-MEDIA of TYPE=CLOSED-CAPTIONS needs INSTREAM-ID") }
        }
        if bytesEqual(type, "SUBTITLES") && !hasURI {
            try report(.attribute, "EXT-X-MEDIA of TYPE=SUBTITLES needs a URI")
        }
        if isDefault && autoselect == false {
            try report(.attribute, "EXT-X-MEDIA with DEFAULT=YES must have AUTOSELECT=YES")
        }
        try checkCount(storage.renditions.count, against: limits.maximumEntriesPerList, "renditions")
        currentLine.item = Int32(storage.renditions.count)
        storage.renditions.append(record)
    }

    mutating func parseStreamInf(_ value: ByteSpan) throws(HLSParseError) {
        if pendingVariant != nil {
            try report(.orphan, "EXT-X-STREAM-INF without a URI line before the next one")
        }
        // The variant joins the list only with its URI line, so an orphan tag leaves no variant.
        pendingVariant = (try parseVariantAttributes(value, tag: .streamInf), Int32(lineIndex))
    }

    mutating func parseIFrameStreamInf(_ value: ByteSpan) throws(HLSParseError) {
        var variant = try parseVariantAttributes(value, tag: .iFrameStreamInf)
        variant.isIFrame = true
        variant.uri = try requiredQuoted(.uri, in: variant.tag, tag: .iFrameStreamInf) ?? .empty
        currentLine.item = Int32(storage.variants.count)
        storage.variants.append(variant)
    }

    private mutating func parseVariantAttributes(_ value: ByteSpan, tag: TagName) throws(HLSParseError) -> VariantRecord {
        try checkCount(storage.variants.count, against: limits.maximumEntriesPerList, "variants")
        let record = try parseAttributeList(value, tag: tag)
        var variant = VariantRecord(tag: record, uri: .empty, uriLine: -1, bandwidth: nil, averageBandwidth: nil,
                                    isIFrame: false)
        for index in record.attributes.indices {
            let item = attributes[index]
            switch item.knownName {
            case .bandwidth: variant.bandwidth = try integerValue(item, tag: tag)
            case .averageBandwidth: variant.averageBandwidth = try integerValue(item, tag: tag)
            case .programID: _ = try integerValue(item, tag: tag)
            case .score, .frameRate: _ = try decimalValue(item, tag: tag)
            case .resolution:
                if item.isQuoted || NumberSyntax.resolution(base, item.value, readableEnd: count) == nil {
                    try report(.malformedTag, "\(tag.text): RESOLUTION must be <width>x<height>")
                }
            case .codecs, .supplementalCodecs, .audio, .video, .subtitles, .stableVariantID, .pathwayID,
                 .allowedCPC, .reqVideoLayout:
                _ = try quotedString(item, tag: tag)
            case .hdcpLevel, .videoRange: _ = try enumeratedString(item, tag: tag)
            case .closedCaptions:
                if !item.isQuoted && !bytesEqual(item.value, "NONE") {
                    try report(.malformedTag, "\(tag.text): CLOSED-CAPTIONS must be a quoted string or NONE")
                }
            default: break
            }
        }
        if variant.bandwidth == nil && attribute(.bandwidth, in: record) == nil {
            try report(.attribute, "\(tag.text) needs a BANDWIDTH attribute")
        }
        return variant
    }

    mutating func commitVariant(uri: ByteSpan) throws(HLSParseError) {
        if !storage.variables.isEmpty {
            try checkVariableReferences(in: uri)
        }
        guard let (pendingRecord, tagLine) = pendingVariant else { return }
        var variant = pendingRecord
        variant.uri = uri
        variant.uriLine = Int32(lineIndex)
        let variantIndex = Int32(storage.variants.count)
        lines[Int(tagLine)].item = variantIndex
        currentLine.kind = .variantURI
        currentLine.item = variantIndex
        storage.variants.append(variant)
        pendingVariant = nil
    }

    mutating func parseSessionData(_ value: ByteSpan) throws(HLSParseError) {
        let record = try parseAttributeList(value, tag: .sessionData)
        try requiredQuoted(.dataID, in: record, tag: .sessionData)
        let dataValue = attribute(.value, in: record)
        let uri = attribute(.uri, in: record)
        if (dataValue == nil) == (uri == nil) {
            try report(.attribute, "EXT-X-SESSION-DATA needs exactly one of VALUE and URI")
        }
        for item in [dataValue, uri, attribute(.language, in: record)] {
            if let item { _ = try quotedString(item, tag: .sessionData) }
        }
        try checkCount(storage.sessionData.count, against: limits.maximumEntriesPerList, "session data")
        currentLine.item = Int32(storage.sessionData.count)
        storage.sessionData.append(record)
    }

    mutating func parseSessionKey(_ value: ByteSpan) throws(HLSParseError) {
        let record = try parseAttributeList(value, tag: .sessionKey)
        guard try validateKey(record, tag: .sessionKey) else { return }
        try checkCount(storage.sessionKeys.count, against: limits.maximumEntriesPerList, "session keys")
        currentLine.item = Int32(storage.sessionKeys.count)
        storage.sessionKeys.append(record)
    }

    mutating func parseContentSteering(_ value: ByteSpan) throws(HLSParseError) {
        let record = try parseAttributeList(value, tag: .contentSteering)
        try requiredQuoted(.serverURI, in: record, tag: .contentSteering)
        if let pathway = attribute(.pathwayID, in: record) {
            _ = try quotedString(pathway, tag: .contentSteering)
        }
        if storage.contentSteering == nil { storage.contentSteering = record }
    }
}
