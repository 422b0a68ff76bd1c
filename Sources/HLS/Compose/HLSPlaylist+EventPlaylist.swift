/// Hide-until-buffered: a VOD playlist served as a growing EVENT playlist.
extension HLSPlaylist {
    /// The bytes of this VOD media playlist listing only its first `count` segments, as an EVENT
    /// playlist that is still growing, or the bytes as they are when `count` covers every
    /// segment. A proxy serves this while it caches a presentation, so that the player sees only
    /// segments it can have at once, reloads the playlist (no EXT-X-ENDLIST) and starts at the
    /// beginning (EXT-X-START) rather than near the end, as it would in a live playlist.
    ///
    /// The cut is where segment `count` begins: at its first media segment tag (EXTINF,
    /// EXT-X-KEY, EXT-X-MAP, EXT-X-DISCONTINUITY, EXT-X-DATERANGE, ...) or its URI line.
    /// Everything before the cut is kept byte for byte, except that
    /// - EXT-X-PLAYLIST-TYPE becomes `#EXT-X-PLAYLIST-TYPE:EVENT`, or is inserted,
    /// - EXT-X-START becomes `#EXT-X-START:TIME-OFFSET=0`, or is inserted,
    /// - EXT-X-ENDLIST is removed.
    /// Inserted tags go before the first tag after `#EXTM3U`, with the line ending of the first
    /// line. After the cut only the tags about the whole playlist stay (EXT-X-VERSION,
    /// EXT-X-TARGETDURATION, EXT-X-MEDIA-SEQUENCE, EXT-X-DISCONTINUITY-SEQUENCE,
    /// EXT-X-INDEPENDENT-SEGMENTS, EXT-X-DEFINE, EXT-X-PART-INF, EXT-X-SERVER-CONTROL, and the
    /// two rewritten as above); segment tags, comments, unknown tags and blank lines go.
    ///
    /// With `count` 0 the result lists no segment. RFC 8216 allows that (EXT-X-TARGETDURATION
    /// is the only tag a media playlist needs, and an EVENT playlist may grow from nothing), but
    /// players differ: FFmpeg (5.1) opens it with no stream and gives up ("Empty segment"), and
    /// hls.js reports `levelEmptyError`. A proxy should hold its first answer until at
    /// least one segment is cached, and serve `count` 0 only when it must answer anyway.
    ///
    /// - Parameter count: how many segments to list, 0 or more.
    /// - Throws: ``HLSComposeError`` with `HLSComposeError.Code.multivariant` for a
    ///   multivariant playlist and `HLSComposeError.Code.live` for a live one (no EXT-X-ENDLIST
    ///   and not VOD), whose end is not known.
    public func eventPlaylist(listingFirst count: Int) throws(HLSComposeError) -> [UInt8] {
        precondition(count >= 0, "a playlist cannot list a negative number of segments")
        guard kind == .media else {
            throw HLSComposeError(code: .multivariant, message: "a multivariant playlist lists no segments")
        }
        guard !isLive else {
            throw HLSComposeError(code: .live, message: "a live playlist is already served as it grows")
        }
        guard count < storage.segments.count else { return bytes }
        return EventPlaylistWriter(playlist: self, count: count).write()
    }
}

/// One pass over the lines: runs of kept bytes are copied whole; dropped lines and replaced
/// tag contents end a run.
struct EventPlaylistWriter: ~Copyable {
    let playlist: HLSPlaylist
    /// Segments still to be listed before the cut.
    var remaining: Int
    var output: OutputBuffer
    /// Start of the source bytes not yet copied to `output`.
    var copied = 0

    static let eventType = Array("#EXT-X-PLAYLIST-TYPE:EVENT".utf8)
    static let startAtZero = Array("#EXT-X-START:TIME-OFFSET=0".utf8)

    init(playlist: HLSPlaylist, count: Int) {
        self.playlist = playlist
        remaining = count
        output = OutputBuffer(capacity: playlist.bytes.count + 64)
    }

    consuming func write() -> [UInt8] {
        let lines = playlist.storage.lines
        var pendingInsertion = insertedLines(lines)
        var isCut = false
        playlist.bytes.withUnsafeBufferPointer { source in
            for (index, line) in lines.enumerated() {
                if !pendingInsertion.isEmpty, line.kind == .tag, line.tag != .extm3u {
                    let position = index == 0 ? Int(line.contentStart) : line.lowerBound
                    flush(upTo: position, source: source)
                    output.append(pendingInsertion)
                    pendingInsertion = []
                }
                if !isCut && remaining == 0 && Self.belongsToASegment(line) {
                    isCut = true
                }
                switch line.kind {
                case .tag where line.tag == .playlistType:
                    replaceContent(of: line, with: Self.eventType, source: source)
                case .tag where line.tag == .start:
                    replaceContent(of: line, with: Self.startAtZero, source: source)
                case .tag where line.tag == .endList:
                    drop(line, source: source)
                case .tag where isCut && !Self.isAboutThePlaylist(line.tag):
                    drop(line, source: source)
                case .segmentURI where !isCut:
                    remaining -= 1
                case _ where isCut && line.kind != .tag:
                    drop(line, source: source)
                default:
                    continue
                }
            }
            flush(upTo: source.count, source: source)
        }
        return output.finish()
    }

    /// The tags to insert: PLAYLIST-TYPE and START when the playlist has no line of them (a
    /// malformed one is rewritten, not joined by a second), each ended like the first line that
    /// has an ending.
    private func insertedLines(_ lines: RecordArray<LineRecord>) -> [UInt8] {
        var newline = [ASCII.lineFeed]
        if let ended = lines.first(where: { $0.upperBound > Int($0.contentEnd) }),
           ended.upperBound - Int(ended.contentEnd) >= 2,
           playlist.bytes[ended.upperBound - 2] == ASCII.carriageReturn {
            newline = [ASCII.carriageReturn, ASCII.lineFeed]
        }
        var inserted: [UInt8] = []
        if !lines.contains(where: { $0.kind == .tag && $0.tag == .playlistType }) { inserted += Self.eventType + newline }
        if !lines.contains(where: { $0.kind == .tag && $0.tag == .start }) { inserted += Self.startAtZero + newline }
        return inserted
    }

    /// A media segment tag or a segment's URI line: the lines that make segment N.
    private static func belongsToASegment(_ line: LineRecord) -> Bool {
        switch line.kind {
        case .segmentURI: return true
        case .tag:
            switch line.tag {
            case .extinf, .byteRange, .discontinuity, .key, .map, .programDateTime, .dateRange, .gap, .bitrate, .part:
                return true
            default:
                return false
            }
        default:
            return false
        }
    }

    /// Tags that describe the whole playlist, wherever they stand.
    private static func isAboutThePlaylist(_ tag: TagName) -> Bool {
        switch tag {
        case .extm3u, .version, .targetDuration, .mediaSequence, .discontinuitySequence, .independentSegments,
             .define, .partInf, .serverControl:
            return true
        default:
            return false
        }
    }

    private mutating func flush(upTo end: Int, source: UnsafeBufferPointer<UInt8>) {
        if end > copied {
            output.append(UnsafeBufferPointer(rebasing: source[copied..<end]))
            copied = end
        }
    }

    private mutating func drop(_ line: LineRecord, source: UnsafeBufferPointer<UInt8>) {
        flush(upTo: line.lowerBound, source: source)
        copied = max(copied, line.upperBound)
    }

    private mutating func replaceContent(of line: LineRecord, with content: [UInt8], source: UnsafeBufferPointer<UInt8>) {
        flush(upTo: Int(line.contentStart), source: source)
        output.append(content)
        copied = Int(line.contentEnd)
    }
}
