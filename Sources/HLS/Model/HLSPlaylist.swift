/// A parsed HLS playlist: its bytes, kept as they came, and a model of what they say.
///
/// Parsing records offsets into ``bytes`` rather than copying strings, so it is fast and lets
/// ``formatted()`` give back the exact input and ``rewritten(base:policy:)`` change only the
/// bytes of the URIs it rewrites. The model's strings are decoded when a property is read.
///
/// ```swift
/// let playlist = try HLSPlaylist(parsing: bytes)
/// if playlist.kind == .media, !playlist.endList { /* live */ }
/// for segment in playlist.segments { print(segment.uri, segment.byteRange ?? "whole") }
/// ```
public struct HLSPlaylist: Sendable {
    /// The playlist exactly as it was parsed.
    public let bytes: [UInt8]
    let storage: PlaylistStorage

    /// Parses a playlist. Lenient by default: rule violations become ``warnings``.
    ///
    /// - Throws: ``HLSParseError`` when the bytes are not a playlist, exceed a limit, or (in
    ///   strict mode) break a rule.
    public init(parsing bytes: [UInt8], options: HLSParserOptions = HLSParserOptions()) throws(HLSParseError) {
        let result: Result<PlaylistStorage, HLSParseError> = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else {
                return .failure(HLSParseError(code: .notAPlaylist, message: "empty input", line: 0))
            }
            var parser = PlaylistParser(base: base, count: buffer.count, options: options)
            do throws(HLSParseError) {
                try parser.parse()
            } catch {
                return .failure(error)
            }
            return .success(parser.finishedStorage())
        }
        self.bytes = bytes
        self.storage = try result.get()
    }

    /// Parses a playlist from text.
    public init(parsing text: String, options: HLSParserOptions = HLSParserOptions()) throws(HLSParseError) {
        try self.init(parsing: Array(text.utf8), options: options)
    }

    /// A quick check of the first bytes, for content sniffing: true when, after an optional
    /// BOM, blank lines and comments, the first line is `#EXTM3U`. Looks at most 4 KiB.
    public static func looksLikePlaylist(_ bytes: some Collection<UInt8>) -> Bool {
        var head = Array(bytes.prefix(4096))[...]
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head = head.dropFirst(3) }
        let lines = head.split(omittingEmptySubsequences: true) { $0 == ASCII.lineFeed || $0 == ASCII.carriageReturn }
        for line in lines {
            var trimmed = line.drop { ASCII.isWhitespace($0) }
            while let last = trimmed.last, ASCII.isWhitespace(last) { trimmed = trimmed.dropLast() }
            if trimmed.isEmpty { continue }
            if trimmed.elementsEqual("#EXTM3U".utf8) { return true }
            if trimmed.first == ASCII.hash && !trimmed.starts(with: "#EXT".utf8) { continue }
            return false
        }
        return false
    }

    /// Multivariant or media.
    public var kind: HLSPlaylistKind { storage.kind }
    /// Rule violations found in lenient mode, in the order found, with line numbers.
    public var warnings: [HLSDiagnostic] { storage.diagnostics }
    /// EXT-X-VERSION, or nil when absent (meaning 1).
    public var version: UInt64? { storage.version }
    /// EXT-X-INDEPENDENT-SEGMENTS.
    public var independentSegments: Bool { storage.independentSegments }
    /// EXT-X-START.
    public var start: HLSStart? {
        storage.start.map { record in
            HLSStart(timeOffset: decimal(record, .timeOffset) ?? .zero,
                     precise: enumerated(record, .precise) == "YES", attributes: attributes(of: record))
        }
    }
    /// EXT-X-DEFINE variables in definition order, with their values.
    public var variables: [HLSVariable] {
        storage.variables.map {
            HLSVariable(name: String(decoding: $0.name, as: UTF8.self), value: String(decoding: $0.value, as: UTF8.self))
        }
    }
    /// Tags the parser does not know, as written (trimmed), in playlist order.
    public var unknownTags: [String] { lines(of: .unknownTag) }
    /// Comment lines, as written (trimmed), in playlist order.
    public var comments: [String] { lines(of: .comment) }

    private func lines(of kind: LineRecord.Kind) -> [String] {
        storage.lines.filter { $0.kind == kind }.map { string($0.content, substituting: false) }
    }
}
