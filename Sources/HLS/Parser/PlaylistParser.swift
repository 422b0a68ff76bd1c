/// The single-pass parser: splits lines, validates encoding, dispatches tags and builds the
/// ``PlaylistStorage`` records. Works on a pointer that is valid for the duration of `parse()`.
struct PlaylistParser: ~Copyable {
    let base: UnsafePointer<UInt8>
    let count: Int
    let options: HLSParserOptions
    var storage = PlaylistStorage()
    /// The three record lists that grow with the input, kept apart from `storage` until the
    /// parse is done (see ``RecordBuffer``).
    var lines = RecordBuffer<LineRecord>(capacity: 16)
    var segments = RecordBuffer<SegmentRecord>(capacity: 16)
    var attributes = RecordBuffer<AttributeRecord>(capacity: 16)
    /// Where the last list split in one pass holds each known name.
    let attributePositions = AttributePositions()

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
    /// The groups the renditions parsed so far declare.
    var declaredGroups = DeclaredGroups()
    /// The attribute-pool start of each variant whose groups are checked at the end: those that
    /// named a group not declared yet, or were not split in one pass.
    var unverifiedVariants: [Int32] = []
    /// The hashes of the TYPEs a variant's group attributes name.
    let groupTypeHashes = (audio: FNV1a.hash("AUDIO".utf8), video: FNV1a.hash("VIDEO".utf8),
                           subtitles: FNV1a.hash("SUBTITLES".utf8), closedCaptions: FNV1a.hash("CLOSED-CAPTIONS".utf8))
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
    let tagTable = TagName.table
    let attributeTable = AttributeName.table
    /// Every attribute name, at the index of its raw value.
    let attributeNames = AttributeName.allCases

    init(base: UnsafePointer<UInt8>, count: Int, options: HLSParserOptions) {
        self.base = base
        self.count = count
        self.options = options
    }

    /// The parse's result: `storage` with the record buffers moved into it.
    consuming func finishedStorage() -> PlaylistStorage {
        var result = storage
        result.lines = lines.finish()
        result.segments = segments.finish()
        result.attributes = attributes.finish()
        return result
    }

    var line: Int { lineIndex + 1 }
    var isStrict: Bool { options.mode == .strict }
    var limits: HLSParserLimits { options.limits }

    // MARK: - Diagnostics

    /// Records a rule violation; in strict mode it ends the parse. Out of line: it is the cold
    /// path of every check.
    @inline(never)
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

    /// The error for a limit exceeded on the current line. Only the line number is read from
    /// `self`: a call that borrowed the whole parser would copy it.
    @inline(__always)
    func limitExceeded(_ what: String) -> HLSParseError {
        Self.limitError(what, line: line)
    }

    @inline(never)
    static func limitError(_ what: String, line: Int) -> HLSParseError {
        HLSParseError(code: .limitExceeded, message: what, line: line)
    }

    @inline(__always)
    func checkCount(_ currentCount: Int, against maximum: Int, _ what: String) throws(HLSParseError) {
        if currentCount >= maximum {
            throw Self.countError(maximum, what, line: line)
        }
    }

    @inline(never)
    static func countError(_ maximum: Int, _ what: String, line: Int) -> HLSParseError {
        limitError("more than \(maximum) \(what)", line: line)
    }

    mutating func reportHeaderMisplacement() throws(HLSParseError) {
        if !reportedHeaderMisplacement {
            reportedHeaderMisplacement = true
            try report(.header, "#EXTM3U must be the first line, before every tag")
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
