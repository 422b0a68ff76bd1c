/// The media playlist side of the model.
extension HLSPlaylist {
    /// EXT-X-TARGETDURATION in seconds, or nil when absent.
    public var targetDuration: UInt64? { storage.targetDuration }
    /// EXT-X-MEDIA-SEQUENCE (0 when absent).
    public var mediaSequence: UInt64 { storage.mediaSequence ?? 0 }
    /// EXT-X-DISCONTINUITY-SEQUENCE (0 when absent).
    public var discontinuitySequence: UInt64 { storage.discontinuitySequence ?? 0 }
    /// EXT-X-ENDLIST: no segment will be added.
    public var endList: Bool { storage.endList }
    /// EXT-X-PLAYLIST-TYPE, or nil.
    public var playlistType: HLSPlaylistType? { storage.playlistType }
    /// EXT-X-I-FRAMES-ONLY.
    public var iFramesOnly: Bool { storage.iFramesOnly }
    /// True for a media playlist that may still change: no EXT-X-ENDLIST and not VOD.
    public var isLive: Bool { kind == .media && !storage.endList && storage.playlistType != .vod }

    /// The media segments, decoded when read.
    public var segments: HLSElementList<HLSSegment> {
        let playlist = self
        return HLSElementList(count: storage.segments.count) { playlist.segment(at: $0) }
    }

    /// Every distinct EXT-X-MAP, in playlist order. A proxy fetches these (and keys) on a
    /// different upstream lane from segments.
    public var maps: [HLSMap] { storage.maps.indices.map(map(at:)) }

    /// Every EXT-X-KEY that is not METHOD=NONE, in playlist order.
    public var keys: [HLSKey] { storage.keys.map(key) }

    /// EXT-X-PART tags, in playlist order.
    public var parts: HLSElementList<HLSPart> {
        let playlist = self
        return HLSElementList(count: storage.parts.count) { playlist.part(at: $0) }
    }

    /// EXT-X-PRELOAD-HINT tags.
    public var preloadHints: [HLSPreloadHint] {
        storage.preloadHints.map { record in
            HLSPreloadHint(type: enumerated(record, .type) ?? "", uri: quoted(record, .uri) ?? "",
                           byteRangeStart: integer(record, .byteRangeStart) ?? 0,
                           byteRangeLength: integer(record, .byteRangeLength), attributes: attributes(of: record))
        }
    }

    /// EXT-X-RENDITION-REPORT tags.
    public var renditionReports: [HLSRenditionReport] {
        storage.renditionReports.map { record in
            HLSRenditionReport(uri: quoted(record, .uri) ?? "", lastMediaSequenceNumber: integer(record, .lastMSN),
                               lastPart: integer(record, .lastPart), attributes: attributes(of: record))
        }
    }

    /// EXT-X-DATERANGE tags.
    public var dateRanges: [HLSDateRange] {
        storage.dateRanges.map { range in
            let record = range.tag
            let all = attributes(of: record)
            return HLSDateRange(id: quoted(record, .id) ?? "", dateRangeClass: quoted(record, .dateRangeClass),
                                startDate: quoted(record, .startDate), endDate: quoted(record, .endDate),
                                duration: decimal(record, .duration), plannedDuration: decimal(record, .plannedDuration),
                                endOnNext: enumerated(record, .endOnNext) == "YES",
                                scte35Command: enumerated(record, .scte35Command),
                                scte35Out: enumerated(record, .scte35Out), scte35In: enumerated(record, .scte35In),
                                clientAttributes: all.filter { $0.name.hasPrefix("X-") },
                                segmentIndex: Int(range.segment), attributes: all)
        }
    }

    /// EXT-X-SERVER-CONTROL, or nil.
    public var serverControl: HLSServerControl? {
        storage.serverControl.map { record in
            HLSServerControl(canSkipUntil: decimal(record, .canSkipUntil),
                             canSkipDateRanges: enumerated(record, .canSkipDateRanges) == "YES",
                             holdBack: decimal(record, .holdBack), partHoldBack: decimal(record, .partHoldBack),
                             canBlockReload: enumerated(record, .canBlockReload) == "YES",
                             attributes: attributes(of: record))
        }
    }

    /// PART-TARGET of EXT-X-PART-INF, or nil.
    public var partTarget: HLSDecimal? { storage.partInf.flatMap { decimal($0, .partTarget) } }

    /// EXT-X-SKIP, or nil.
    public var skip: HLSSkip? {
        storage.skip.map { record in
            let removed = quoted(record, .recentlyRemovedDateRanges)
            return HLSSkip(skippedSegments: storage.skippedSegments,
                           recentlyRemovedDateRanges: removed.map { $0.split(separator: "\t").map(String.init) } ?? [],
                           attributes: attributes(of: record))
        }
    }

    func segment(at index: Int) -> HLSSegment {
        let record = storage.segments[index]
        let keys: [HLSKey] = record.keySet < 0 ? [] : storage.keySets[Int(record.keySet)].map {
            key(storage.keys[Int(storage.keySetMembers[Int($0)])])
        }
        let first = mediaSequence.addingReportingOverflow(storage.skippedSegments)
        let number = first.partialValue.addingReportingOverflow(UInt64(index))
        return HLSSegment(
            uri: string(record.uri),
            duration: record.duration.isEmpty ? .zero : HLSDecimal(validated: string(record.duration, substituting: false)),
            title: record.title.isEmpty ? nil : string(record.title, substituting: false),
            byteRange: record.flags.contains(.byteRange)
                ? HLSByteRange(length: record.byteRangeLength, offset: record.byteRangeOffset) : nil,
            discontinuity: record.flags.contains(.discontinuity),
            keys: keys,
            map: record.map < 0 ? nil : map(at: Int(record.map)),
            programDateTime: record.programDateTime.isEmpty ? nil : string(record.programDateTime, substituting: false),
            gap: record.flags.contains(.gap),
            bitrate: record.bitrate < 0 ? nil : storage.bitrates[Int(record.bitrate)],
            sequenceNumber: first.overflow || number.overflow ? nil : number.partialValue)
    }

    func map(at index: Int) -> HLSMap {
        let record = storage.maps[index]
        return HLSMap(uri: quoted(record.tag, .uri) ?? "",
                      byteRange: record.hasByteRange
                        ? HLSByteRange(length: record.byteRangeLength, offset: record.byteRangeOffset) : nil,
                      attributes: attributes(of: record.tag))
    }

    func part(at index: Int) -> HLSPart {
        let record = storage.parts[index]
        return HLSPart(uri: quoted(record.tag, .uri) ?? "", duration: decimal(record.tag, .duration) ?? .zero,
                       byteRange: record.hasByteRange
                        ? HLSByteRange(length: record.byteRangeLength, offset: record.byteRangeOffset) : nil,
                       independent: enumerated(record.tag, .independent) == "YES",
                       gap: enumerated(record.tag, .gap) == "YES", segmentIndex: Int(record.segment),
                       attributes: attributes(of: record.tag))
    }
}
