/// A parsed MPD (ISO/IEC 23009-1 Media Presentation Description): its bytes, kept as they came,
/// and a model of what they say.
///
/// Parsing records offsets into ``bytes`` rather than building a DOM of strings, so it is fast,
/// ``formatted()`` gives back the exact input, and ``rewritten(manifestURL:policy:)`` changes only
/// the bytes it must. Model values are decoded when a property is read; unknown elements and
/// attributes are kept and reachable through ``root`` and each view's `element`.
///
/// ```swift
/// let manifest = try DASHManifest(parsing: bytes)
/// for period in manifest.periods {
///     for representation in period.adaptationSets.flatMap(\.representations) {
///         print(representation.id ?? "?", representation.bandwidth ?? 0)
///     }
/// }
/// ```
public struct DASHManifest: Sendable {
    let document: XMLDocument
    /// Rule violations found in lenient mode, in document order, with positions.
    public let warnings: [DASHDiagnostic]

    /// Parses an MPD. Lenient by default: rule violations become ``warnings``.
    ///
    /// - Throws: ``DASHParseError`` when the bytes are not well-formed UTF-8 XML, hold a DTD or an
    ///   unknown entity, exceed a limit, have a root other than `MPD`, or (in strict mode) break
    ///   a rule.
    public init(parsing bytes: [UInt8], options: DASHParserOptions = DASHParserOptions()) throws(DASHParseError) {
        let result: Result<(RecordTable<ElementRecord>, RecordTable<AttributeRecord>), DASHParseError> = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else {
                return .failure(DASHParseError(code: .notAManifest, message: "empty input", position: .whole))
            }
            var tokenizer = XMLTokenizer(base: base, count: buffer.count, limits: options.limits)
            do throws(DASHParseError) {
                try tokenizer.parse()
            } catch {
                return .failure(error)
            }
            return .success(tokenizer.tables())
        }
        let (elements, attributes) = try result.get()
        let document = XMLDocument(bytes: bytes, elements: elements, attributes: attributes)
        var checker = ManifestChecker(document: document, options: options)
        try checker.check()
        self.document = document
        self.warnings = checker.diagnostics
    }

    /// Parses an MPD from text.
    public init(parsing text: String, options: DASHParserOptions = DASHParserOptions()) throws(DASHParseError) {
        try self.init(parsing: Array(text.utf8), options: options)
    }

    /// A quick check of the first bytes, for content sniffing: true when, after an optional BOM,
    /// XML declaration, comments and white space, the first element is `MPD` (with or without a
    /// prefix). Looks at most 4 KiB.
    public static func looksLikeManifest(_ bytes: some Collection<UInt8>) -> Bool {
        let head = Array(bytes.prefix(4096))
        var index = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < head.count {
            if ByteClass.isWhitespace(head[index]) {
                index += 1
                continue
            }
            guard head[index] == UInt8(ascii: "<") else { return false }
            let rest = head[index...]
            if rest.starts(with: "<?".utf8) || rest.starts(with: "<!--".utf8) {
                let terminator: [UInt8] = rest.starts(with: "<?".utf8) ? Array("?>".utf8) : Array("-->".utf8)
                guard let end = firstIndex(of: terminator, in: head, from: index + 2) else { return false }
                index = end + terminator.count
                continue
            }
            var nameEnd = index + 1
            while nameEnd < head.count && ByteClass.table[Int(head[nameEnd])] & ByteClass.nameCharacter != 0 { nameEnd += 1 }
            let name = head[(index + 1)..<nameEnd]
            let local = name.lastIndex(of: UInt8(ascii: ":")).map { name[($0 + 1)...] } ?? name
            return local.elementsEqual("MPD".utf8)
        }
        return false
    }

    private static func firstIndex(of pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + pattern.count <= bytes.count {
            if bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }

    /// The MPD exactly as it was parsed.
    public var bytes: [UInt8] { document.bytes }

    /// The lossless form: the input, byte for byte.
    public func formatted() -> [UInt8] { document.bytes }

    /// The root `MPD` element, for what the model does not cover.
    public var root: DASHElement { DASHElement(document: document, index: 0) }

    private func value(_ name: StaticString) -> String? { document.value(name, of: 0) }

    /// `MPD@type`; `static` when absent or unknown.
    public var type: DASHPresentationType { value("type").flatMap { DASHPresentationType(rawValue: XMLNumber.trimmed($0)) } ?? .static }
    /// `MPD@profiles`.
    public var profiles: String? { value("profiles") }
    /// `MPD@mediaPresentationDuration`.
    public var mediaPresentationDuration: DASHDuration? { value("mediaPresentationDuration").flatMap(DASHDuration.init) }
    /// `MPD@minimumUpdatePeriod`: how often a client refetches a dynamic MPD.
    public var minimumUpdatePeriod: DASHDuration? { value("minimumUpdatePeriod").flatMap(DASHDuration.init) }
    /// `MPD@minBufferTime`.
    public var minBufferTime: DASHDuration? { value("minBufferTime").flatMap(DASHDuration.init) }
    /// `MPD@timeShiftBufferDepth`.
    public var timeShiftBufferDepth: DASHDuration? { value("timeShiftBufferDepth").flatMap(DASHDuration.init) }
    /// `MPD@suggestedPresentationDelay`.
    public var suggestedPresentationDelay: DASHDuration? { value("suggestedPresentationDelay").flatMap(DASHDuration.init) }
    /// `MPD@maxSegmentDuration`.
    public var maxSegmentDuration: DASHDuration? { value("maxSegmentDuration").flatMap(DASHDuration.init) }
    /// `MPD@availabilityStartTime`, as written (`xs:dateTime`).
    public var availabilityStartTime: String? { value("availabilityStartTime") }
    /// `MPD@publishTime`, as written.
    public var publishTime: String? { value("publishTime") }

    /// The MPD-level `BaseURL` elements.
    public var baseURLs: [DASHBaseURL] { DASHBaseURL.all(in: document, under: 0) }
    /// `Location` elements: where to refetch the MPD.
    public var locations: [String] { document.children(of: 0, kind: .location).map { document.uriText(of: $0) } }
    /// `PatchLocation` elements: where MPD patches are fetched.
    public var patchLocations: [String] { document.children(of: 0, kind: .patchLocation).map { document.uriText(of: $0) } }
    /// `UTCTiming` elements.
    public var utcTimings: [DASHUTCTiming] {
        document.children(of: 0, kind: .utcTiming).map { DASHUTCTiming(document: document, index: $0) }
    }
    /// The Periods, in order.
    public var periods: [DASHPeriod] {
        let periods = document.children(of: 0, kind: .period)
        let timings = PeriodTimings(document: document, periods: periods)
        return periods.enumerated().map { DASHPeriod(document: document, index: $1, ordinal: $0, timings: timings) }
    }
    /// Every Representation of every Period, in document order.
    public var representations: [DASHRepresentation] {
        periods.flatMap { $0.adaptationSets.flatMap(\.representations) }
    }
    /// Elements with an `xlink:href` (remote elements). The parser never fetches them; the
    /// rewriter refuses them (`DASHRewriteError.Code.remoteElement`).
    public var remoteElements: [DASHElement] {
        (0..<Int32(document.elements.count)).compactMap { index in
            RemoteReference.href(of: index, in: document) == nil ? nil : DASHElement(document: document, index: index)
        }
    }
}
