/// Writes the canonical form of a playlist, one line at a time from the line table.
///
/// Lines the parser found already canonical are copied, and consecutive ones in a single copy:
/// a playlist that is canonical but for a few lines costs little more than a memory copy.
struct CanonicalWriter: ~Copyable {
    let playlist: HLSPlaylist
    var output: OutputBuffer

    init(playlist: HLSPlaylist) {
        self.playlist = playlist
        output = OutputBuffer(capacity: playlist.bytes.count + 64)
    }

    consuming func write() -> [UInt8] {
        let lines = playlist.storage.lines
        playlist.bytes.withUnsafeBufferPointer { source in
            var runStart = -1
            var runEnd = 0
            for (index, line) in lines.enumerated() {
                if line.isCanonical {
                    if runStart < 0 { runStart = line.lowerBound }
                    runEnd = line.upperBound
                    if line.upperBound == Int(line.contentEnd) {
                        // The last line, without a line feed: the canonical form has one.
                        flush(source, &runStart, runEnd)
                        output.append(ASCII.lineFeed)
                    }
                    continue
                }
                flush(source, &runStart, runEnd)
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
            flush(source, &runStart, runEnd)
        }
        return output.finish()
    }

    private mutating func flush(_ source: UnsafeBufferPointer<UInt8>, _ runStart: inout Int, _ runEnd: Int) {
        if runStart >= 0 {
            output.append(UnsafeBufferPointer(rebasing: source[runStart..<runEnd]))
            runStart = -1
        }
    }

    private mutating func append(_ source: UnsafeBufferPointer<UInt8>, _ span: ByteSpan) {
        guard span.count > 0 else { return }
        output.append(UnsafeBufferPointer(rebasing: source[span.lowerBound..<span.upperBound]))
    }

    private mutating func appendName(_ tag: TagName) {
        output.append(ASCII.hash)
        output.append(Array(tag.text.utf8))
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
