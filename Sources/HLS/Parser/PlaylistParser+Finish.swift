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
        // Variants whose every group was declared when they were parsed are not looked at
        // again (declared groups stay declared); the others are checked here, in order.
        if !unverifiedVariants.isEmpty {
            let unverified = Set(unverifiedVariants)
            for variant in storage.variants where unverified.contains(variant.tag.attributes.start) {
                try checkGroupReferences(of: variant)
            }
        }
        for variable in storage.variables where attribute(.importName, in: variable.tag) != nil {
            try report(.variable, "EXT-X-DEFINE:IMPORT is only allowed in media playlists",
                       line: Int(variable.tag.line) + 1)
        }
    }

    /// Reports each AUDIO, VIDEO, SUBTITLES and CLOSED-CAPTIONS of `variant` that names no
    /// EXT-X-MEDIA group of that TYPE (RFC 8216 section 4.3.4.2), in the attributes' order.
    private mutating func checkGroupReferences(of variant: VariantRecord) throws(HLSParseError) {
        let kinds: [(AttributeName, String)] = [(.audio, "AUDIO"), (.video, "VIDEO"), (.subtitles, "SUBTITLES"),
                                                (.closedCaptions, "CLOSED-CAPTIONS")]
        for index in variant.tag.attributes.indices {
            let group = attributes[index]
            guard let kind = kinds.firstIndex(where: { $0.0 == group.knownName }), group.isQuoted else { continue }
            if !declaredGroups.contains(groupKey(type: FNV1a.hash(kinds[kind].1.utf8), group: group.content)) {
                let (name, type) = kinds[kind]
                try report(.attribute, "\(name.text)=\"\(text(group.content))\" names no EXT-X-MEDIA group of TYPE=\(type)",
                           line: Int(variant.tag.line) + 1)
            }
        }
    }

    /// True when every quoted AUDIO, VIDEO, SUBTITLES and CLOSED-CAPTIONS of a list split in
    /// one pass names a group declared so far. (`mutating` only to be called without a copy of
    /// the parser.)
    mutating func groupsAreDeclared(_ list: AttributeListSummary) -> Bool {
        let hashes = groupTypeHashes
        return groupIsDeclared(.audio, hashes.audio, in: list) && groupIsDeclared(.video, hashes.video, in: list)
            && groupIsDeclared(.subtitles, hashes.subtitles, in: list)
            && groupIsDeclared(.closedCaptions, hashes.closedCaptions, in: list)
    }

    /// True unless the list names, quoted, a group of this TYPE that no rendition declared yet.
    @inline(__always)
    private func groupIsDeclared(_ name: AttributeName, _ type: UInt64, in list: AttributeListSummary) -> Bool {
        list.quotedNames & name.bit == 0
            || declaredGroups.contains(groupKey(type: type, group: quickAttribute(name).content))
    }

    /// The key of a group in ``DeclaredGroups``: its GROUP-ID with the hash of its TYPE.
    @inline(__always)
    func groupKey(type: UInt64, group: ByteSpan) -> UInt64 {
        DeclaredGroups.key(type: type, base, group, readableEnd: count)
    }
}
