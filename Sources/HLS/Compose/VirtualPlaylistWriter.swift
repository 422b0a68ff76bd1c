/// Writes the segments of the parts of an ``HLSVirtualPlaylist`` one after the other, keeping
/// track of the EXT-X-KEY and EXT-X-MAP a player would have in force, then the header that the
/// whole needs.
struct VirtualPlaylistWriter {
    /// A key in force: its KEYFORMAT (`identity` when absent), which a later key of the same
    /// format replaces, and the tag line that set it.
    struct Key: Equatable {
        var format: String
        var line: [UInt8]
    }

    private var body: [UInt8] = []
    private var version: UInt64 = 1
    private var targetDuration: UInt64 = 0
    private var keysInForce: [Key] = []
    private var mapInForce: [UInt8]?
    /// The index of the last part whose segments have an EXT-X-MAP.
    private var partWithMap = 0

    mutating func append(_ part: HLSVirtualPlaylist.Part, index: Int) throws(HLSComposeError) {
        let playlist = part.playlist
        version = max(version, playlist.version ?? 1)
        targetDuration = max(targetDuration, playlist.targetDuration ?? 0)
        for (position, segment) in playlist.segments.enumerated() {
            let isFirst = position == 0
            if (isFirst && index > 0) || segment.discontinuity {
                appendLine("#EXT-X-DISCONTINUITY")
            }
            updateKeys(to: segment.keys.map { key(for: $0, url: part.url) }, restating: isFirst)
            if let map = segment.map {
                let line = mapLine(for: map, url: part.url)
                if isFirst || line != mapInForce {
                    appendLine(line)
                    mapInForce = line
                    partWithMap = index
                }
                require(6)
            } else if mapInForce != nil {
                throw HLSComposeError(code: .missingMap,
                                      message: "segments without EXT-X-MAP cannot follow those of playlist \(partWithMap), which have one",
                                      partIndex: index)
            }
            if let date = segment.programDateTime {
                appendLine("#EXT-X-PROGRAM-DATE-TIME:" + date)
            }
            if segment.gap {
                appendLine("#EXT-X-GAP")
            }
            let duration = segment.duration.text
            if duration.utf8.contains(ASCII.dot) { require(3) }
            targetDuration = max(targetDuration, SegmentDuration(duration.utf8).roundedSeconds)
            appendLine("#EXTINF:" + duration + "," + (segment.title ?? ""))
            if let range = segment.byteRange {
                appendLine("#EXT-X-BYTERANGE:\(range.length)@\(range.offset)")
                require(4)
            }
            appendLine(Self.resolved(segment.uri, against: part.url))
        }
    }

    /// The header, the segments and the end.
    consuming func finish(independentSegments: Bool) -> [UInt8] {
        var header = "#EXTM3U\n#EXT-X-VERSION:\(version)\n#EXT-X-TARGETDURATION:\(targetDuration)\n"
            + "#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        if independentSegments { header += "#EXT-X-INDEPENDENT-SEGMENTS\n" }
        return Array(header.utf8) + body + Array("#EXT-X-ENDLIST\n".utf8)
    }

    // MARK: - Keys and maps

    /// Writes what takes the keys in force to `keys`: nothing when they already are (unless
    /// `restating`), METHOD=NONE when a format in force is not among them (only NONE can end a
    /// key), then every key of `keys`, each replacing the one of its format.
    private mutating func updateKeys(to keys: [Key], restating: Bool) {
        guard keys != keysInForce || (restating && !keys.isEmpty) else { return }
        if !keysInForce.isEmpty, !keysInForce.allSatisfy({ old in keys.contains { $0.format == old.format } }) {
            appendLine("#EXT-X-KEY:METHOD=NONE")
        }
        for key in keys { appendLine(key.line) }
        keysInForce = keys
    }

    private mutating func key(for key: HLSKey, url: HLSBaseURL) -> Key {
        if key.iv != nil { require(2) }
        if key.keyFormat != nil || key.keyFormatVersions != nil { require(5) }
        let line = Self.tagLine("#EXT-X-KEY:", key.attributes) { attribute in
            switch attribute.name {
            case "URI": Self.resolved(key.uri ?? attribute.value, against: url)
            case "KEYFORMAT": URISanitizer.sanitized((key.keyFormat ?? attribute.value).utf8)
            case "KEYFORMATVERSIONS": URISanitizer.sanitized((key.keyFormatVersions ?? attribute.value).utf8)
            default: nil
            }
        }
        return Key(format: key.keyFormat ?? "identity", line: line)
    }

    private func mapLine(for map: HLSMap, url: HLSBaseURL) -> [UInt8] {
        Self.tagLine("#EXT-X-MAP:", map.attributes) { attribute in
            switch attribute.name {
            case "URI": Self.resolved(map.uri, against: url)
            case "BYTERANGE": map.byteRange.map { Array("\($0.length)@\($0.offset)".utf8) }
            default: nil
            }
        }
    }

    /// `tag` and the attributes, each with the quoted value `replacement` gives, or as written
    /// when it gives nil.
    private static func tagLine(_ tag: String, _ attributes: [HLSAttribute],
                                replacement: (HLSAttribute) -> [UInt8]?) -> [UInt8] {
        var line = Array(tag.utf8)
        for (position, attribute) in attributes.enumerated() {
            if position > 0 { line.append(ASCII.comma) }
            line += Array(attribute.name.utf8)
            line.append(ASCII.equals)
            if let value = replacement(attribute) {
                line += [ASCII.quote] + value + [ASCII.quote]
            } else {
                line += attribute.isQuoted ? [ASCII.quote] + Array(attribute.value.utf8) + [ASCII.quote]
                    : Array(attribute.value.utf8)
            }
        }
        return line
    }

    // MARK: - Bytes

    private mutating func require(_ needed: UInt64) {
        version = max(version, needed)
    }

    private mutating func appendLine(_ text: String) {
        body += Array(text.utf8)
        body.append(ASCII.lineFeed)
    }

    private mutating func appendLine(_ bytes: [UInt8]) {
        body += bytes
        body.append(ASCII.lineFeed)
    }

    /// `uri` resolved against `url`, with what a URI line or quoted string cannot hold escaped.
    private static func resolved(_ uri: String, against url: HLSBaseURL) -> [UInt8] {
        URISanitizer.sanitized(url.resolve(uri).utf8)
    }
}
