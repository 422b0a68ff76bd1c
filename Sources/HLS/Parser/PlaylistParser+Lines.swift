/// Splitting the input into lines, and dispatching each line to its handler.
///
/// The common case is kept short: a line of printable ASCII ending in LF is found with one
/// vector scan, and the tags that come with every segment (`#EXTINF`, `#EXT-X-BYTERANGE`,
/// `#EXT-X-PROGRAM-DATE-TIME`, `#EXT-X-PART`) are recognized by word comparisons before any
/// table lookup.
extension PlaylistParser {
    mutating func parse() throws(HLSParseError) {
        guard count <= limits.maximumInputBytes, count <= Int(Int32.max) else {
            throw HLSParseError(code: .limitExceeded,
                                message: "input of \(count) bytes exceeds the limit of \(limits.maximumInputBytes)",
                                line: 0)
        }
        guard count > 0 else {
            throw HLSParseError(code: .notAPlaylist, message: "empty input", line: 0)
        }
        // Typical lines are 20 to 60 bytes and segments 60 to 90: reserving for short ones
        // avoids regrowing (and copying) the largest buffers while parsing.
        lines.reserve(count / 20 + 4)
        segments.reserve(count / 48 + 4)
        attributes.reserve(count / 16 + 4)
        let hasBOM = count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF
        let maximumLineBytes = limits.maximumLineBytes
        var position = 0
        while position < count {
            let lineStart = position
            let contentStart = hasBOM && position == 0 ? 3 : position
            var lineEnd = SpecialByteScanner.firstSpecialByte(in: base, from: contentStart, to: count)
            var next = lineEnd &+ 1
            var problem: EncodingProblem?
            if lineEnd == count || base[lineEnd] != ASCII.lineFeed {
                (lineEnd, next, problem) = finishLine(at: lineEnd)
            }
            if lineEnd - lineStart > maximumLineBytes {
                throw limitExceeded("line of \(lineEnd - lineStart) bytes exceeds the limit of \(maximumLineBytes)")
            }
            if hasBOM && lineStart == 0 {
                try report(.encoding, "byte order mark at the start of the playlist")
            }
            if let problem {
                try report(.encoding, problem.message)
            }
            try parseLine(start: lineStart, contentStart: contentStart, contentEnd: lineEnd, end: next)
            lines.append(currentLine)
            position = next
            lineIndex &+= 1
        }
        try finish()
    }

    /// What is wrong with the bytes of a line; the first problem found is reported, except that
    /// a bare CR (found last, as it ends the line) replaces it.
    enum EncodingProblem {
        case bareCR
        case c1Control
        case invalidUTF8
        case control(UInt8)

        var message: String {
            switch self {
            case .bareCR: "bare CR line terminator (lines end in LF or CRLF)"
            case .c1Control: "C1 control character"
            case .invalidUTF8: "invalid UTF-8"
            case .control(let byte): "control character 0x\(String(byte, radix: 16))"
            }
        }
    }

    /// The rest of a line whose scan stopped at `special`, a byte other than LF: the end of the
    /// input, CR, a tab, another control character or a non-ASCII byte. Returns the end of the
    /// content, the start of the next line and the encoding problem to report.
    @inline(never)
    private mutating func finishLine(at special: Int) -> (lineEnd: Int, next: Int, problem: EncodingProblem?) {
        var special = special
        var problem: EncodingProblem?
        while special < count {
            let byte = base[special]
            var scan: Int
            if byte == ASCII.lineFeed {
                return (special, special + 1, problem)
            }
            if byte == ASCII.carriageReturn {
                if special + 1 < count && base[special + 1] == ASCII.lineFeed {
                    return (special, special + 2, problem)
                }
                if !reportedBareCR {
                    reportedBareCR = true
                    problem = .bareCR
                }
                return (special, special + 1, problem)
            }
            if byte >= 0x80 {
                switch UTF8Validation.validate(base, at: special, end: count) {
                case .scalar(let length):
                    scan = special + length
                case .c1Control:
                    problem = problem ?? .c1Control
                    scan = special + 2
                case .invalid:
                    problem = problem ?? .invalidUTF8
                    scan = special + 1
                }
            } else {
                // Tabs count as white space (reported where they lead or trail a line).
                if byte != ASCII.tab {
                    problem = problem ?? .control(byte)
                }
                scan = special + 1
            }
            special = SpecialByteScanner.firstSpecialByte(in: base, from: scan, to: count)
        }
        return (count, count, problem)
    }

    @inline(__always)
    private mutating func parseLine(start: Int, contentStart: Int, contentEnd: Int, end: Int) throws(HLSParseError) {
        var first = contentStart
        var last = contentEnd
        if first < last && (ASCII.isWhitespace(base[first]) || ASCII.isWhitespace(base[last &- 1])) {
            while first < last && ASCII.isWhitespace(base[first]) { first &+= 1 }
            while last > first && ASCII.isWhitespace(base[last &- 1]) { last &-= 1 }
        }
        currentLine = LineRecord(start: Int32(truncatingIfNeeded: start), contentStart: Int32(truncatingIfNeeded: first),
                                 contentEnd: Int32(truncatingIfNeeded: last), end: Int32(truncatingIfNeeded: end),
                                 kind: .blank, tag: .extm3u, item: -1)
        if first == last { return }
        // Tag handlers clear this when the tag itself is not written the canonical way.
        currentLine.isCanonical = first == start && last == contentEnd
            && (end == contentEnd || (end == contentEnd &+ 1 && base[contentEnd] == ASCII.lineFeed))
        if first != contentStart || last != contentEnd {
            try report(.whitespace, "white space at the start or end of the line")
        }
        if base[first] != ASCII.hash {
            try parseURILine(ByteSpan(first, last))
            return
        }
        let length = last &- first
        if length >= 8 {
            let head = SWAR.load(base, first)
            if head == TagWords.extinf {
                markTag(.extinf)
                if !sawHeader || firstMediaTagLine == 0 { try notePlacement(of: .extinf) }
                try parseExtinf(ByteSpan(first &+ 8, last))
                return
            }
            if length >= 18 && head == TagWords.byteRange.0 && SWAR.load(base, first &+ 8) == TagWords.byteRange.1
                && base[first &+ 16] == ASCII.colon && !ASCII.isWhitespace(base[first &+ 17]) {
                markTag(.byteRange)
                if !sawHeader || firstMediaTagLine == 0 { try notePlacement(of: .byteRange) }
                try parseByteRange(ByteSpan(first &+ 17, last))
                return
            }
            if head == TagWords.programDateTime.0 {
                if length >= 26 && SWAR.load(base, first &+ 8) == TagWords.programDateTime.1
                    && SWAR.load(base, first &+ 16) == TagWords.programDateTime.2
                    && base[first &+ 24] == ASCII.colon && !ASCII.isWhitespace(base[first &+ 25]) {
                    markTag(.programDateTime)
                    if !sawHeader || firstMediaTagLine == 0 { try notePlacement(of: .programDateTime) }
                    try parseProgramDateTime(ByteSpan(first &+ 25, last))
                    return
                }
                // `#EXT-X-PART:`, four to a segment in low-latency playlists.
                if length >= 13 && UnsafeRawPointer(base + (first &+ 8)).loadUnaligned(as: UInt32.self)
                    == UInt32(littleEndian: TagWords.part) && !ASCII.isWhitespace(base[first &+ 12]) {
                    markTag(.part)
                    if !sawHeader || firstMediaTagLine == 0 { try notePlacement(of: .part) }
                    try parsePart(ByteSpan(first &+ 12, last))
                    return
                }
            }
        }
        guard length >= 4,
              UnsafeRawPointer(base + first).loadUnaligned(as: UInt32.self) == UInt32(littleEndian: TagWords.ext)
        else {
            currentLine.kind = .comment
            return
        }
        let colon = ByteSearch.first(ASCII.colon, in: base, from: first &+ 4, to: last, readableEnd: count)
        guard let tag = TagName.named(base, ByteSpan(first &+ 1, colon), in: tagTable, readableEnd: count) else {
            currentLine.kind = .unknownTag
            return
        }
        markTag(tag)
        var valueStart = colon < last ? colon &+ 1 : last
        if (colon < last) != (tag.payload != .none) { currentLine.isCanonical = false }
        if valueStart < last && ASCII.isWhitespace(base[valueStart]) {
            currentLine.isCanonical = false
            try report(.whitespace, "white space after the colon of \(tag.text)")
            while valueStart < last && ASCII.isWhitespace(base[valueStart]) { valueStart &+= 1 }
        }
        let value = ByteSpan(valueStart, last)
        switch tag.payload {
        case .none:
            if colon < last {
                try report(.malformedTag, "\(tag.text) takes no value")
            }
        case .scalar, .attributeList:
            if colon == last {
                try report(.malformedTag, "\(tag.text) needs a value after a colon")
            }
        }
        try parseTag(tag, value: value)
    }

    @inline(__always)
    private mutating func markTag(_ tag: TagName) {
        currentLine.kind = .tag
        currentLine.tag = tag
    }

    private mutating func parseTag(_ tag: TagName, value: ByteSpan) throws(HLSParseError) {
        if tag == .extm3u {
            if sawHeader {
                try report(.header, "#EXTM3U appears more than once")
            }
            sawHeader = true
            started = true
            return
        }
        try notePlacement(of: tag)
        try parseTagValue(tag, value: value)
    }

    /// Bookkeeping every tag but `#EXTM3U` needs: the header rule, repeated singletons, and the
    /// first media and multivariant tags (which decide the playlist's kind).
    private mutating func notePlacement(of tag: TagName) throws(HLSParseError) {
        if !sawHeader { try reportHeaderMisplacement() }
        started = true
        if tag.isSingleton {
            let bit: UInt64 = 1 << UInt64(tag.rawValue)
            if seenSingletons & bit != 0 {
                try report(.duplicate, "\(tag.text) appears more than once")
            }
            seenSingletons |= bit
        }
        if tag.isMediaOnly && firstMediaTagLine == 0 { firstMediaTagLine = line }
        if tag.isMultivariantOnly && firstMultivariantTagLine == 0 { firstMultivariantTagLine = line }
    }

    private mutating func parseTagValue(_ tag: TagName, value: ByteSpan) throws(HLSParseError) {
        switch tag {
        case .extm3u: break
        case .extinf: try parseExtinf(value)
        case .version: try parseVersion(value)
        case .byteRange: try parseByteRange(value)
        case .discontinuity: pending.discontinuity = true
        case .gap: pending.gap = true
        case .programDateTime: try parseProgramDateTime(value)
        case .bitrate: try parseBitrate(value)
        case .key: try parseKey(value)
        case .map: try parseMap(value)
        case .dateRange: try parseDateRange(value)
        case .part: try parsePart(value)
        case .targetDuration: try parseTargetDuration(value)
        case .mediaSequence: storage.mediaSequence = try parseSequenceNumber(value, tag: tag)
        case .discontinuitySequence: storage.discontinuitySequence = try parseSequenceNumber(value, tag: tag)
        case .endList: storage.endList = true
        case .playlistType: try parsePlaylistType(value)
        case .iFramesOnly: storage.iFramesOnly = true
        case .independentSegments: storage.independentSegments = true
        case .partInf: try parsePartInf(value)
        case .serverControl: try parseServerControl(value)
        case .preloadHint: try parsePreloadHint(value)
        case .skip: try parseSkip(value)
        case .renditionReport: try parseRenditionReport(value)
        case .start: try parseStart(value)
        case .define: try parseDefine(value)
        case .media: try parseMedia(value)
        case .streamInf: try parseStreamInf(value)
        case .iFrameStreamInf: try parseIFrameStreamInf(value)
        case .sessionData: try parseSessionData(value)
        case .sessionKey: try parseSessionKey(value)
        case .contentSteering: try parseContentSteering(value)
        }
    }

    @inline(__always)
    private mutating func parseURILine(_ uri: ByteSpan) throws(HLSParseError) {
        guard started else {
            throw HLSParseError(code: .notAPlaylist, message: "no #EXTM3U header before the first URI line",
                                line: line)
        }
        if pendingVariant != nil {
            try commitVariant(uri: uri)
        } else if pending.hasExtinf {
            try commitSegment(uri: uri)
        } else {
            currentLine.kind = .strayURI
            try report(.orphan, "URI line without a preceding EXTINF or EXT-X-STREAM-INF")
        }
    }
}
