/// Writes the canonical form of a playlist, one line at a time from the line table.
struct CanonicalWriter {
    let playlist: HLSPlaylist
    var output: [UInt8] = []

    init(playlist: HLSPlaylist) {
        self.playlist = playlist
    }

    private var storage: PlaylistStorage { playlist.storage }

    mutating func write() -> [UInt8] {
        output.reserveCapacity(playlist.bytes.count)
        playlist.bytes.withUnsafeBufferPointer { source in
            for (index, line) in storage.lines.enumerated() {
                switch line.kind {
                case .blank:
                    continue
                case .tag:
                    writeTag(line, at: index, source: source)
                case .comment, .unknownTag, .segmentURI, .variantURI, .strayURI:
                    append(source, line.content)
                }
                output.append(ASCII.lineFeed)
            }
        }
        return output
    }

    private mutating func append(_ source: UnsafeBufferPointer<UInt8>, _ span: ByteSpan) {
        guard span.count > 0 else { return }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: source[span.lowerBound..<span.upperBound]))
    }

    private mutating func appendName(_ tag: TagName) {
        output.append(ASCII.hash)
        output.append(contentsOf: tag.text.utf8)
    }

    private mutating func writeTag(_ line: LineRecord, at index: Int, source: UnsafeBufferPointer<UInt8>) {
        appendName(line.tag)
        let value = tagValue(line, source: source)
        switch line.tag.payload {
        case .none:
            return
        case .scalar where line.tag == .extinf:
            output.append(ASCII.colon)
            var comma = value.lowerBound
            while comma < value.upperBound && source[comma] != ASCII.comma { comma += 1 }
            var durationEnd = comma
            while durationEnd > value.lowerBound && ASCII.isWhitespace(source[durationEnd - 1]) { durationEnd -= 1 }
            append(source, ByteSpan(value.lowerBound, durationEnd))
            output.append(ASCII.comma)
            append(source, ByteSpan(min(comma + 1, value.upperBound), value.upperBound))
        case .scalar:
            output.append(ASCII.colon)
            append(source, value)
        case .attributeList:
            output.append(ASCII.colon)
            writeAttributes(of: line, value: value, source: source)
        }
    }

    /// The text after the tag's colon, without leading white space (the parser skips it too).
    private func tagValue(_ line: LineRecord, source: UnsafeBufferPointer<UInt8>) -> ByteSpan {
        var colon = Int(line.contentStart)
        let end = Int(line.contentEnd)
        while colon < end && source[colon] != ASCII.colon { colon += 1 }
        var start = min(colon + 1, end)
        while start < end && ASCII.isWhitespace(source[start]) { start += 1 }
        return ByteSpan(start, end)
    }

    /// Attribute lists are parsed again from the line rather than looked up, because tags the
    /// parser rejected (a KEY without METHOD, say) have no record but keep their line.
    private mutating func writeAttributes(of line: LineRecord, value: ByteSpan, source: UnsafeBufferPointer<UInt8>) {
        guard let base = source.baseAddress else { return }
        var first = true
        var scanner = AttributeListScanner.Iterator(base, value)
        while let entry = scanner.next() {
            if !first { output.append(ASCII.comma) }
            first = false
            append(source, entry.name)
            output.append(ASCII.equals)
            if entry.isQuoted { output.append(ASCII.quote) }
            append(source, entry.content)
            if entry.isQuoted { output.append(ASCII.quote) }
        }
    }
}
