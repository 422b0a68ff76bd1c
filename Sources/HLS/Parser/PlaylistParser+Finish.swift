/// Rules that need the whole playlist: its kind, required tags, and references between tags.
extension PlaylistParser {
    mutating func finish() throws(HLSParseError) {
        guard started else {
            throw HLSParseError(code: .notAPlaylist, message: "no #EXTM3U header and no HLS tag", line: 0)
        }
        if pending.hasExtinf {
            try report(.orphan, "EXTINF without a URI line at the end of the playlist", line: Int(pending.extinfLine))
        }
        if let (_, tagLine) = pendingVariant {
            try report(.orphan, "EXT-X-STREAM-INF without a URI line", line: Int(tagLine) + 1)
        }
        // Like players, decide by the media tags first: a playlist with segments is a media
        // playlist even when it also (wrongly) carries multivariant tags.
        if sawTargetDurationOrExtinf || !segments.isEmpty {
            storage.kind = .media
        } else if firstMultivariantTagLine > 0 {
            storage.kind = .master
        } else {
            storage.kind = .media
        }
        switch storage.kind {
        case .media:
            if firstMultivariantTagLine > 0 {
                try report(.placement, "multivariant playlist tag in a media playlist", line: firstMultivariantTagLine)
            }
            try finishMediaPlaylist()
        case .master:
            if firstMediaTagLine > 0 {
                try report(.placement, "media playlist tag in a multivariant playlist", line: firstMediaTagLine)
            }
            try finishMultivariantPlaylist()
        }
    }

    private mutating func finishMediaPlaylist() throws(HLSParseError) {
        if let target = storage.targetDuration {
            let longest = maximumRoundedDuration
            if longest.line > 0, longest.value > target {
                try report(.playlist, "segment duration rounds to \(longest.value) s, above EXT-X-TARGETDURATION \(target)",
                           line: longest.line)
            }
        } else {
            try report(.playlist, "media playlist without EXT-X-TARGETDURATION", line: 1)
        }
        if !storage.parts.isEmpty && storage.partInf == nil {
            try report(.playlist, "EXT-X-PART without EXT-X-PART-INF",
                       line: Int(storage.parts[0].tag.line) + 1)
        }
        if storage.iFramesOnly {
            try reportVersion(4, "EXT-X-I-FRAMES-ONLY")
        }
        if let firstMap = storage.maps.first {
            let required: UInt64 = storage.iFramesOnly ? 5 : 6
            if declaredVersion < required {
                try report(.version, "EXT-X-MAP needs EXT-X-VERSION \(required) or later (playlist declares \(declaredVersion))",
                           line: Int(firstMap.tag.line) + 1)
            }
        }
    }

    private mutating func finishMultivariantPlaylist() throws(HLSParseError) {
        // Groups are compared by a 64-bit hash of TYPE and GROUP-ID: no allocation per lookup,
        // and a collision could only hide this warning.
        var groups = Set<UInt64>()
        // A playlist has a few groups, each named by many renditions and variants: the first
        // sixteen found are kept in a list, which spares a SipHash of the hash per look-up.
        var firstGroups: [UInt64] = []
        for rendition in storage.renditions {
            if let type = attribute(.type, in: rendition), let group = attribute(.groupID, in: rendition) {
                let hash = groupHash(type: FNV1a.hash(base, type.value), group: group.content)
                if firstGroups.contains(hash) { continue }
                if firstGroups.count < 16 { firstGroups.append(hash) } else { groups.insert(hash) }
            }
        }
        let kinds: [(AttributeName, String)] = [(.audio, "AUDIO"), (.video, "VIDEO"), (.subtitles, "SUBTITLES"),
                                                (.closedCaptions, "CLOSED-CAPTIONS")]
        let typeHashes = kinds.map { FNV1a.hash($0.1.utf8) }
        for variant in storage.variants {
            for index in variant.tag.attributes.indices {
                let group = attributes[index]
                let kind: Int
                switch group.knownName {
                case .audio: kind = 0
                case .video: kind = 1
                case .subtitles: kind = 2
                case .closedCaptions: kind = 3
                default: continue
                }
                guard group.isQuoted else { continue }
                let hash = groupHash(type: typeHashes[kind], group: group.content)
                if !firstGroups.contains(hash) && !groups.contains(hash) {
                    let (name, type) = kinds[kind]
                    try report(.attribute, "\(name.text)=\"\(text(group.content))\" names no EXT-X-MEDIA group of TYPE=\(type)",
                               line: Int(variant.tag.line) + 1)
                }
            }
        }
        for variable in storage.variables where attribute(.importName, in: variable.tag) != nil {
            try report(.variable, "EXT-X-DEFINE:IMPORT is only allowed in media playlists",
                       line: Int(variable.tag.line) + 1)
        }
    }

    @inline(__always)
    private func groupHash(type: UInt64, group: ByteSpan) -> UInt64 {
        FNV1a.hash(base, group, seed: type)
    }
}
