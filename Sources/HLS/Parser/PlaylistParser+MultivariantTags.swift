/// Multivariant playlist tags (RFC 8216 section 4.3.4 and its successor draft).
extension PlaylistParser {
    mutating func parseMedia(_ value: ByteSpan) throws(HLSParseError) {
        let list = try attributeList(value, tag: .media)
        let record = list.record
        let facts: RenditionFacts
        if let summary = list.summary, let quick = quickRenditionFacts(summary) {
            facts = quick
        } else {
            facts = try checkedRenditionFacts(record)
        }
        let type = facts.type
        let isClosedCaptions = bytesEqual(type, "CLOSED-CAPTIONS")
        if type.isEmpty {
            try report(.attribute, "EXT-X-MEDIA needs a TYPE attribute")
        } else if !(bytesEqual(type, "AUDIO") || bytesEqual(type, "VIDEO") || bytesEqual(type, "SUBTITLES")
                    || isClosedCaptions) {
            try report(.attribute, "EXT-X-MEDIA: TYPE must be AUDIO, VIDEO, SUBTITLES or CLOSED-CAPTIONS")
        }
        if facts.group == nil {
            try report(.attribute, "EXT-X-MEDIA needs a GROUP-ID attribute")
        }
        if !facts.hasName {
            try report(.attribute, "EXT-X-MEDIA needs a NAME attribute")
        }
        if isClosedCaptions {
            if facts.hasURI { try report(.attribute, "EXT-X-MEDIA of TYPE=CLOSED-CAPTIONS must not have a URI") }
            if !facts.hasInstreamID { try report(.attribute, "EXT-X-MEDIA of TYPE=CLOSED-CAPTIONS needs INSTREAM-ID") }
        }
        if bytesEqual(type, "SUBTITLES") && !facts.hasURI {
            try report(.attribute, "EXT-X-MEDIA of TYPE=SUBTITLES needs a URI")
        }
        if facts.isDefault && facts.autoselect == false {
            try report(.attribute, "EXT-X-MEDIA with DEFAULT=YES must have AUTOSELECT=YES")
        }
        try checkCount(storage.renditions.count, against: limits.maximumEntriesPerList, "renditions")
        currentLine.item = Int32(storage.renditions.count)
        storage.renditions.append(record)
        if let typeAttribute = facts.typeAttribute, let group = facts.group {
            declaredGroups.insert(groupKey(type: FNV1a.hash(base, typeAttribute.value), group: group.content))
        }
    }

    /// What EXT-X-MEDIA's rules need from its attributes.
    struct RenditionFacts {
        /// TYPE's content (the last TYPE's, as the checks read them in order).
        var type = ByteSpan.empty
        /// The first TYPE and GROUP-ID: the group the rendition declares.
        var typeAttribute: AttributeRecord?
        var group: AttributeRecord?
        var hasURI = false
        var hasInstreamID = false
        var hasName = false
        var isDefault = false
        var autoselect: Bool?
    }

    /// Checks each attribute's type in the list's order, reporting what is wrong.
    private mutating func checkedRenditionFacts(_ record: TagRecord) throws(HLSParseError) -> RenditionFacts {
        var facts = RenditionFacts()
        for index in record.attributes.indices {
            let item = attributes[index]
            switch item.knownName {
            case .type: facts.type = try enumeratedString(item, tag: .media)
            case .uri: facts.hasURI = true; _ = try quotedString(item, tag: .media)
            case .groupID, .language, .assocLanguage, .name, .stableRenditionID, .characteristics, .channels,
                 .instreamID:
                _ = try quotedString(item, tag: .media)
                if item.knownName == .instreamID { facts.hasInstreamID = true }
            case .isDefault: facts.isDefault = try yesNo(item, tag: .media)
            case .autoselect: facts.autoselect = try yesNo(item, tag: .media)
            case .forced: _ = try yesNo(item, tag: .media)
            case .bitDepth, .sampleRate: _ = try integerValue(item, tag: .media)
            default: break
            }
        }
        facts.typeAttribute = attribute(.type, in: record)
        facts.group = attribute(.groupID, in: record)
        facts.hasName = attribute(.name, in: record) != nil
        return facts
    }

    /// ``checkedRenditionFacts(_:)`` for a list split in one pass, with each name once: the
    /// value types are checked against two masks, the few values to read are read in a fixed
    /// order. Nil when anything is wrong, for the checked path to report it in the list's order.
    /// (`mutating` though it changes nothing: called from a mutating method, a non-mutating one
    /// got a copy of the whole parser, 880 bytes, on every call.)
    private mutating func quickRenditionFacts(_ list: AttributeListSummary) -> RenditionFacts? {
        let quoted = AttributeName.uri.bit | AttributeName.groupID.bit | AttributeName.language.bit
            | AttributeName.assocLanguage.bit | AttributeName.name.bit | AttributeName.stableRenditionID.bit
            | AttributeName.characteristics.bit | AttributeName.channels.bit | AttributeName.instreamID.bit
        let unquoted = AttributeName.type.bit | AttributeName.isDefault.bit | AttributeName.autoselect.bit
            | AttributeName.forced.bit | AttributeName.bitDepth.bit | AttributeName.sampleRate.bit
        guard list.quotes(quoted, andNot: unquoted) else { return nil }
        var facts = RenditionFacts()
        if list.holds(.type) {
            let type = quickAttribute(.type)
            facts.type = type.value
            facts.typeAttribute = type
        }
        if list.holds(.groupID) { facts.group = quickAttribute(.groupID) }
        facts.hasURI = list.holds(.uri)
        facts.hasInstreamID = list.holds(.instreamID)
        facts.hasName = list.holds(.name)
        if list.holds(.isDefault) {
            guard let isDefault = yesOrNo(quickAttribute(.isDefault).value) else { return nil }
            facts.isDefault = isDefault
        }
        if list.holds(.autoselect) {
            guard let autoselect = yesOrNo(quickAttribute(.autoselect).value) else { return nil }
            facts.autoselect = autoselect
        }
        if list.holds(.forced) && yesOrNo(quickAttribute(.forced).value) == nil { return nil }
        if list.holds(.bitDepth) && quickInteger(.bitDepth) == nil { return nil }
        if list.holds(.sampleRate) && quickInteger(.sampleRate) == nil { return nil }
        return facts
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
        if storage.variants.capacity == 0 {
            // A variant and its share of the renditions take 150 to 700 bytes: room for the
            // shorter ones from the start saves copying the list as it doubles.
            storage.variants.reserveCapacity(count / 256 + 8)
        }
        let list = try attributeList(value, tag: tag)
        if let summary = list.summary, let variant = quickVariant(summary) {
            if !groupsAreDeclared(summary) { unverifiedVariants.append(variant.tag.attributes.start) }
            return variant
        }
        let record = list.record
        unverifiedVariants.append(record.attributes.start)
        var variant = VariantRecord(tag: record, uri: .empty, bandwidth: nil, averageBandwidth: nil,
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

    /// The variant of a list split in one pass, with each name once, when every value has its
    /// type (checked as in ``quickRenditionFacts(_:)``, and `mutating` for the same reason); nil
    /// for the checked path to report.
    private mutating func quickVariant(_ list: AttributeListSummary) -> VariantRecord? {
        let quoted = AttributeName.codecs.bit | AttributeName.supplementalCodecs.bit | AttributeName.audio.bit
            | AttributeName.video.bit | AttributeName.subtitles.bit | AttributeName.stableVariantID.bit
            | AttributeName.pathwayID.bit | AttributeName.allowedCPC.bit | AttributeName.reqVideoLayout.bit
        let unquoted = AttributeName.bandwidth.bit | AttributeName.averageBandwidth.bit | AttributeName.programID.bit
            | AttributeName.score.bit | AttributeName.frameRate.bit | AttributeName.resolution.bit
            | AttributeName.hdcpLevel.bit | AttributeName.videoRange.bit
        guard list.quotes(quoted, andNot: unquoted), list.holds(.bandwidth), let bandwidth = quickInteger(.bandwidth)
        else { return nil }
        var variant = VariantRecord(tag: list.record, uri: .empty, bandwidth: bandwidth,
                                    averageBandwidth: nil, isIFrame: false)
        if list.holds(.averageBandwidth) {
            guard let averageBandwidth = quickInteger(.averageBandwidth) else { return nil }
            variant.averageBandwidth = averageBandwidth
        }
        if list.holds(.programID) && quickInteger(.programID) == nil { return nil }
        if list.holds(.score) && !quickDecimal(.score) { return nil }
        if list.holds(.frameRate) && !quickDecimal(.frameRate) { return nil }
        if list.holds(.resolution)
            && NumberSyntax.resolution(base, quickAttribute(.resolution).value, readableEnd: count) == nil {
            return nil
        }
        if list.holds(.closedCaptions) && list.quotedNames & AttributeName.closedCaptions.bit == 0
            && !bytesEqual(quickAttribute(.closedCaptions).value, "NONE") {
            return nil
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
