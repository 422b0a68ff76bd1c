/// The multivariant (master) playlist side of the model.
extension HLSPlaylist {
    /// EXT-X-STREAM-INF variants, in playlist order.
    public var variants: [HLSVariant] {
        storage.variants.filter { !$0.isIFrame }.map(variant)
    }

    /// EXT-X-I-FRAME-STREAM-INF variants, in playlist order.
    public var iFrameVariants: [HLSVariant] {
        storage.variants.filter(\.isIFrame).map(variant)
    }

    /// Index and bandwidths of every variant, without decoding any string: enough to pick the
    /// lowest, highest or closest variant for prefetching, then read only that one.
    public var variantSummaries: [HLSVariantSummary] {
        var counts = (stream: 0, iFrame: 0)
        return storage.variants.map { record in
            let index = record.isIFrame ? counts.iFrame : counts.stream
            if record.isIFrame { counts.iFrame += 1 } else { counts.stream += 1 }
            return HLSVariantSummary(index: index, bandwidth: record.bandwidth,
                                     averageBandwidth: record.averageBandwidth, resolution: resolution(in: record.tag),
                                     isIFrameOnly: record.isIFrame)
        }
    }

    /// EXT-X-MEDIA renditions.
    public var renditions: [HLSRendition] {
        storage.renditions.map { record in
            HLSRendition(type: enumerated(record, .type) ?? "", groupID: quoted(record, .groupID) ?? "",
                         name: quoted(record, .name) ?? "", uri: quoted(record, .uri),
                         language: quoted(record, .language), isDefault: enumerated(record, .isDefault) == "YES",
                         autoselect: enumerated(record, .autoselect) == "YES", attributes: attributes(of: record))
        }
    }

    /// EXT-X-SESSION-DATA tags.
    public var sessionData: [HLSSessionData] {
        storage.sessionData.map { record in
            HLSSessionData(dataID: quoted(record, .dataID) ?? "", value: quoted(record, .value),
                           uri: quoted(record, .uri), language: quoted(record, .language),
                           attributes: attributes(of: record))
        }
    }

    /// EXT-X-SESSION-KEY tags.
    public var sessionKeys: [HLSKey] { storage.sessionKeys.map(key) }

    /// EXT-X-CONTENT-STEERING, or nil.
    public var contentSteering: HLSContentSteering? {
        storage.contentSteering.map { record in
            HLSContentSteering(serverURI: quoted(record, .serverURI) ?? "", pathwayID: quoted(record, .pathwayID),
                               attributes: attributes(of: record))
        }
    }

    func variant(_ record: VariantRecord) -> HLSVariant {
        let tag = record.tag
        let closedCaptions = attribute(.closedCaptions, in: tag).map { item in
            item.isQuoted ? string(item.content) : string(item.content, substituting: false)
        }
        return HLSVariant(uri: string(record.uri), bandwidth: record.bandwidth,
                          averageBandwidth: record.averageBandwidth, codecs: quoted(tag, .codecs),
                          resolution: resolution(in: tag), frameRate: decimal(tag, .frameRate), audio: quoted(tag, .audio),
                          video: quoted(tag, .video), subtitles: quoted(tag, .subtitles),
                          closedCaptions: closedCaptions, isIFrameOnly: record.isIFrame,
                          attributes: attributes(of: tag))
    }

    func resolution(in tag: TagRecord) -> HLSResolution? {
        attribute(.resolution, in: tag).flatMap { item in
            bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.flatMap { NumberSyntax.resolution($0, item.value, readableEnd: buffer.count) }
            }
        }.map { HLSResolution(width: $0.width, height: $0.height) }
    }
}
