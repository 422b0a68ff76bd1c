/// The single-pass parser: splits lines, validates encoding, dispatches tags and builds the
/// ``PlaylistStorage`` records. Works on a pointer that is valid for the duration of `parse()`.
struct PlaylistParser: ~Copyable {
    let base: UnsafePointer<UInt8>
    let count: Int
    let options: HLSParserOptions
    var storage = PlaylistStorage()

    /// Index of the line being parsed (0-based; diagnostics print it 1-based).
    var lineIndex = 0
    /// The record of the line being parsed; handlers set its kind and item, and it is appended
    /// to the line table when the line is done (one append per line, no indexed writes).
    var currentLine = LineRecord(start: 0, contentStart: 0, contentEnd: 0, end: 0, kind: .blank, tag: .extm3u, item: -1)
    /// `#EXTM3U` was seen.
    var sawHeader = false
    /// `#EXTM3U` or another known tag was seen: the input is a playlist, possibly a headerless one.
    var started = false
    var pending = PendingSegment()
    var pendingVariant: (record: VariantRecord, line: Int32)?
    var currentKeys: [Int32] = []
    var keySetIsCurrent = false
    var currentMap: Int32 = -1
    /// Index into `storage.bitrates` of the EXT-X-BITRATE in force, or -1.
    var currentBitrate: Int32 = -1
    var previousPartEnd: (uri: ByteSpan, end: UInt64)?
    /// The longest EXTINF duration rounded to an integer, and its line (0 when there is none).
    var maximumRoundedDuration: (value: UInt64, line: Int) = (0, 0)
    /// EXT-X-VERSION, 1 until declared.
    var declaredVersion: UInt64 = 1
    var substitutionBytes = 0
    var seenSingletons: UInt64 = 0
    var reportedHeaderMisplacement = false
    var reportedBareCR = false
    var firstMediaTagLine = 0
    var firstMultivariantTagLine = 0
    var sawTargetDurationOrExtinf = false

    /// Read once: a static is behind a lazy-initialization check on every access.
    private let extinfWord = Self.extinfPrefix
    private let byteRangeWords = Self.byteRangePrefix
    private let tagTable = TagName.table
    let attributeTable = AttributeName.table

    init(base: UnsafePointer<UInt8>, count: Int, options: HLSParserOptions) {
        self.base = base
        self.count = count
        self.options = options
    }

    var line: Int { lineIndex + 1 }
    var isStrict: Bool { options.mode == .strict }
    var limits: HLSParserLimits { options.limits }

    // MARK: - Diagnostics

    /// Records a rule violation; in strict mode it ends the parse.
    mutating func report(_ code: HLSDiagnostic.Code, _ message: String, line reportedLine: Int? = nil)
        throws(HLSParseError) {
        let diagnostic = HLSDiagnostic(code: code, message: message, line: reportedLine ?? line)
        if isStrict {
            throw HLSParseError(code: .ruleViolation, message: message, line: diagnostic.line, diagnostic: diagnostic)
        }
        if storage.diagnostics.count < limits.maximumDiagnostics {
            storage.diagnostics.append(diagnostic)
        }
    }

    func limitExceeded(_ what: String) -> HLSParseError {
        HLSParseError(code: .limitExceeded, message: what, line: line)
    }

    func checkCount(_ currentCount: Int, against maximum: Int, _ what: String) throws(HLSParseError) {
        if currentCount >= maximum {
            throw limitExceeded("more than \(maximum) \(what)")
        }
    }

    // MARK: - Lines

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
        // avoids regrowing (and copying) the two largest arrays while parsing.
        storage.lines.reserveCapacity(count / 20 + 4)
        storage.segments.reserveCapacity(count / 48 + 4)
        storage.attributes.reserveCapacity(count / 16 + 4)
        var position = 0
        var hasBOM = false
        if count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF {
            hasBOM = true
        }
        while position < count {
            let lineStart = position
            let contentStart = hasBOM && position == 0 ? 3 : position
            var scan = contentStart
            var lineEnd = count
            var next = count
            var encodingProblem: String?
            while true {
                let special = SpecialByteScanner.firstSpecialByte(in: base, from: scan, to: count)
                if special == count { break }
                let byte = base[special]
                if byte == ASCII.lineFeed {
                    lineEnd = special
                    next = special + 1
                    break
                }
                if byte == ASCII.carriageReturn {
                    lineEnd = special
                    if special + 1 < count && base[special + 1] == ASCII.lineFeed {
                        next = special + 2
                    } else {
                        next = special + 1
                        if !reportedBareCR {
                            reportedBareCR = true
                            encodingProblem = "bare CR line terminator (lines end in LF or CRLF)"
                        }
                    }
                    break
                }
                if byte >= 0x80 {
                    switch UTF8Validation.validate(base, at: special, end: count) {
                    case .scalar(let length):
                        scan = special + length
                    case .c1Control:
                        encodingProblem = encodingProblem ?? "C1 control character"
                        scan = special + 2
                    case .invalid:
                        encodingProblem = encodingProblem ?? "invalid UTF-8"
                        scan = special + 1
                    }
                } else {
                    // Tabs count as white space (reported where they lead or trail a line).
                    if byte != ASCII.tab {
                        encodingProblem = encodingProblem ?? "control character 0x\(String(byte, radix: 16))"
                    }
                    scan = special + 1
                }
            }
            if lineEnd - lineStart > limits.maximumLineBytes {
                throw limitExceeded("line of \(lineEnd - lineStart) bytes exceeds the limit of \(limits.maximumLineBytes)")
            }
            if hasBOM && lineStart == 0 {
                try report(.encoding, "byte order mark at the start of the playlist")
            }
            if let problem = encodingProblem {
                try report(.encoding, problem)
            }
            try parseLine(start: lineStart, contentStart: contentStart, contentEnd: lineEnd, end: next)
            storage.lines.append(currentLine)
            position = next
            lineIndex += 1
        }
        try finish()
    }

    private mutating func parseLine(start: Int, contentStart: Int, contentEnd: Int, end: Int) throws(HLSParseError) {
        var first = contentStart
        var last = contentEnd
        while first < last && ASCII.isWhitespace(base[first]) { first += 1 }
        while last > first && ASCII.isWhitespace(base[last - 1]) { last -= 1 }
        currentLine = LineRecord(start: Int32(start), contentStart: Int32(first), contentEnd: Int32(last),
                                 end: Int32(end), kind: .blank, tag: .extm3u, item: -1)
        if first == last { return }
        // Tag handlers clear this when the tag itself is not written the canonical way.
        currentLine.isCanonical = first == start && last == contentEnd
            && (end == contentEnd || (end == contentEnd + 1 && base[contentEnd] == ASCII.lineFeed))
        if first != contentStart || last != contentEnd {
            try report(.whitespace, "white space at the start or end of the line")
        }
        if base[first] != ASCII.hash {
            try parseURILine(ByteSpan(first, last))
            return
        }
        // "#EXTINF:" is by far the most common line; compare it as one word before any lookup.
        if last - first >= 8,
           UnsafeRawPointer(base + first).loadUnaligned(as: UInt64.self) == extinfWord {
            markTag(.extinf)
            if !sawHeader || firstMediaTagLine == 0 { try notePlacement(of: .extinf) }
            try parseExtinf(ByteSpan(first + 8, last))
            return
        }
        // "#EXT-X-BYTERANGE:" comes with every segment of a byte-range playlist.
        if last - first >= 18, base[first + 16] == ASCII.colon, !ASCII.isWhitespace(base[first + 17]),
           UnsafeRawPointer(base + first).loadUnaligned(as: UInt64.self) == byteRangeWords.0,
           UnsafeRawPointer(base + first + 8).loadUnaligned(as: UInt64.self) == byteRangeWords.1 {
            markTag(.byteRange)
            if !sawHeader || firstMediaTagLine == 0 { try notePlacement(of: .byteRange) }
            try parseByteRange(ByteSpan(first + 17, last))
            return
        }
        guard last - first >= 4, base[first + 1] == 0x45, base[first + 2] == 0x58, base[first + 3] == 0x54 else {
            currentLine.kind = .comment
            return
        }
        var colon = first + 1
        while colon < last && base[colon] != ASCII.colon { colon += 1 }
        guard let tag = tagTable.lookup(base, ByteSpan(first + 1, colon), readableEnd: count) else {
            currentLine.kind = .unknownTag
            return
        }
        markTag(tag)
        var valueStart = colon < last ? colon + 1 : last
        if (colon < last) != (tag.payload != .none) { currentLine.isCanonical = false }
        if valueStart < last && ASCII.isWhitespace(base[valueStart]) {
            currentLine.isCanonical = false
            try report(.whitespace, "white space after the colon of \(tag.text)")
            while valueStart < last && ASCII.isWhitespace(base[valueStart]) { valueStart += 1 }
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

    private static let extinfPrefix = word("#EXTINF:")
    private static let byteRangePrefix = (word("#EXT-X-B"), word("YTERANGE"))

    /// Eight ASCII characters as the word an unaligned load of them gives.
    private static func word(_ text: StaticString) -> UInt64 {
        var word: UInt64 = 0
        for index in 0..<8 {
            word |= UInt64(text.utf8Start[index]) << (UInt64(index) * 8)
        }
        return UInt64(littleEndian: word)
    }

    private mutating func markTag(_ tag: TagName) {
        currentLine.kind = .tag
        currentLine.tag = tag
    }

    mutating func reportHeaderMisplacement() throws(HLSParseError) {
        if !reportedHeaderMisplacement {
            reportedHeaderMisplacement = true
            try report(.header, "#EXTM3U must be the first line, before every tag")
        }
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

/// The media segment tags seen since the last segment, waiting for its URI line.
/// Kept small: it is reset after every segment.
struct PendingSegment {
    var duration = ByteSpan.empty
    var title = ByteSpan.empty
    var programDateTime = ByteSpan.empty
    var byteRangeLength: UInt64 = 0
    var byteRangeOffset: UInt64 = 0
    var byteRangeLine: Int32 = 0
    var extinfLine: Int32 = 0
    var hasExtinf = false
    var hasByteRange = false
    var hasByteRangeOffset = false
    var discontinuity = false
    var gap = false
}
