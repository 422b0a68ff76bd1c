/// The MPD rules checked after tokenizing: the root is `MPD`, required attributes are there,
/// values have their types, templates and timelines are well formed. One pass over the element
/// table; each rule broken is a diagnostic (lenient) or the error (strict).
struct ManifestChecker {
    let document: XMLDocument
    let options: DASHParserOptions
    var diagnostics: [DASHDiagnostic] = []
    /// Where the last position was computed, so that positions of diagnostics in document order
    /// cost one pass over the input in all.
    private var cursor = (offset: 0, line: 1, lineStart: 0)

    init(document: XMLDocument, options: DASHParserOptions) {
        self.document = document
        self.options = options
    }

    mutating func check() throws(DASHParseError) {
        guard let root = document.elements.first, root.kind == .mpd else {
            let name = document.elements.isEmpty ? "" : document.name(ofElement: 0)
            throw DASHParseError(code: .notAManifest, message: "the root element is \"\(name)\", not MPD",
                                 position: document.position(ofElement: 0))
        }
        // Read once: reading the table through the document on every element retained it.
        let elements = document.elements
        for index in 0..<Int32(elements.count) {
            let kind = elements[Int(index)].kind
            // The `S` elements of a SegmentTimeline, most of a long MPD, are its to check.
            if kind == .s { continue }
            switch kind {
            case .mpd where index == 0: try checkMPD()
            case .period: try checkDurations(index, "start", "duration")
            case .representation: try checkRepresentation(index)
            case .segmentTemplate: try checkTemplate(index)
            case .segmentBase, .segmentList: try checkMultipleSegmentBase(index)
            case .segmentTimeline: try checkTimeline(index)
            case .initialization, .representationIndex, .bitstreamSwitching: try checkRange(index, "range")
            case .segmentURL:
                try checkRange(index, "mediaRange")
                try checkRange(index, "indexRange")
            case .baseURL, .location, .patchLocation:
                if elements[Int(index)].content & ElementRecord.hasChildElements != 0 {
                    try report(.placement, "\(document.name(ofElement: index)) holds child elements; it holds a URL only", index)
                }
            case .utcTiming:
                try require(index, "schemeIdUri")
                try require(index, "value")
            default: break
            }
            if kind.isLevel { try checkSegmentInformationCount(index) }
        }
    }

    // MARK: - Elements

    private mutating func checkMPD() throws(DASHParseError) {
        try require(0, "profiles")
        try require(0, "minBufferTime")
        if let attribute = document.attribute("type", of: 0),
           DASHPresentationType(rawValue: XMLNumber.trimmed(document.value(ofAttribute: attribute))) == nil {
            try report(.value, "MPD@type must be static or dynamic", attribute: attribute)
        }
        if DASHManifest.presentationType(in: document) == .dynamic && document.attribute("availabilityStartTime", of: 0) == nil {
            try report(.missingAttribute, "a dynamic MPD needs @availabilityStartTime", 0)
        }
        try checkDurations(0, "mediaPresentationDuration", "minimumUpdatePeriod", "minBufferTime", "timeShiftBufferDepth",
                           "suggestedPresentationDelay", "maxSegmentDuration")
    }

    private mutating func checkRepresentation(_ index: Int32) throws(DASHParseError) {
        try require(index, "id")
        try require(index, "bandwidth")
        try checkUnsigned(index, "bandwidth", "width", "height")
        if let id = document.value("id", of: index), id.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            try report(.value, "Representation@id \"\(id)\" holds white space", index)
        }
    }

    private mutating func checkMultipleSegmentBase(_ index: Int32) throws(DASHParseError) {
        try checkUnsigned(index, "timescale", "duration", "startNumber", "endNumber", "presentationTimeOffset")
        try checkRange(index, "indexRange")
        if let timescale = document.attribute("timescale", of: index),
           XMLNumber.unsigned(document.value(ofAttribute: timescale)) == 0 {
            try report(.value, "@timescale must not be 0", attribute: timescale)
        }
    }

    private mutating func checkTemplate(_ index: Int32) throws(DASHParseError) {
        try checkMultipleSegmentBase(index)
        let names: [(StaticString, Set<DASHURLTemplate.Identifier>)] = [
            ("media", [.representationID, .number, .time, .bandwidth, .subNumber]),
            ("index", [.representationID, .number, .time, .bandwidth, .subNumber]),
            ("initialization", [.representationID, .bandwidth]),
            ("bitstreamSwitching", [.representationID, .bandwidth]),
        ]
        for (name, allowed) in names {
            guard let attribute = document.attribute(name, of: index) else { continue }
            let text = document.value(ofAttribute: attribute)
            switch Result(catching: { () throws(DASHURLTemplate.SyntaxError) in try DASHURLTemplate(text) }) {
            case .success(let template):
                if let wrong = template.identifiers.first(where: { !allowed.contains($0) }) {
                    try report(.template, "$\(wrong.rawValue)$ may not appear in @\(name)", attribute: attribute)
                }
            case .failure(let error):
                try report(.template, error.message, attribute: attribute)
            }
        }
        let media = document.value("media", of: index) ?? ""
        if media.contains("$Number") && media.contains("$Time") {
            try report(.template, "@media holds both $Number$ and $Time$", index)
        }
    }

    /// `S@d` is required, `@t` and `@d` unsigned, `@r` an integer not below -1, and no run may
    /// start before the previous one ended. The hot loop of a long timeline: each `S` is read in
    /// one pass over its attributes.
    private mutating func checkTimeline(_ index: Int32) throws(DASHParseError) {
        let elements = document.elements
        // The document, which `self` holds, keeps these records alive while the loop reads them.
        let attributes = document.attributes.unsafeRecords
        let bytes = document.bytes
        var end: UInt64? = 0
        var child = elements[Int(index)].firstChild
        while child >= 0 {
            let record = elements[Int(child)]
            defer { child = record.nextSibling }
            guard record.kind == .s else { continue }
            let entry = bytes.withUnsafeBufferPointer { bytes in
                TimelineAttributes(document: document, attributes: attributes, bytes: bytes, record: record)
            }
            if entry.t >= 0 && entry.time == nil { try report(.value, "@t is not an unsigned integer", attribute: entry.t) }
            guard entry.d >= 0 else {
                try report(.missingAttribute, "S without @d", child)
                end = nil
                continue
            }
            guard let duration = entry.duration else {
                try report(.value, "@d is not an unsigned integer", attribute: entry.d)
                end = nil
                continue
            }
            if duration == 0 { try report(.value, "S@d must be above 0", attribute: entry.d) }
            var repeats: Int64 = 0
            if entry.r >= 0 {
                if let value = XMLNumber.signed(document.value(ofAttribute: entry.r)) {
                    repeats = value
                    if value < -1 { try report(.timeline, "S@r is \(value); the only negative value is -1", attribute: entry.r) }
                } else {
                    try report(.value, "S@r is not an integer", attribute: entry.r)
                }
            }
            if let time = entry.time, let previousEnd = end, time < previousEnd {
                try report(.timeline, "S@t \(time) starts before the previous run ends at \(previousEnd)", child)
            }
            guard let start = entry.time ?? end, duration > 0, repeats >= 0 else {
                end = nil
                continue
            }
            let (count, countOverflow) = UInt64(repeats).addingReportingOverflow(1)
            let (length, lengthOverflow) = duration.multipliedReportingOverflow(by: count)
            let (runEnd, endOverflow) = start.addingReportingOverflow(length)
            if countOverflow || lengthOverflow || endOverflow {
                try report(.timeline, "this run ends past 2^64-1 timescale units", child)
                end = nil
            } else {
                end = runEnd
            }
        }
    }

    /// At most one of SegmentBase, SegmentList and SegmentTemplate per element.
    private mutating func checkSegmentInformationCount(_ index: Int32) throws(DASHParseError) {
        var found = 0
        for child in document.children(of: index) where document.elements[Int(child)].kind.isSegmentInformation {
            found += 1
            if found == 2 {
                try report(.segmentInformation, "more than one of SegmentBase, SegmentList and SegmentTemplate", child)
                return
            }
        }
    }

    // MARK: - Values

    private mutating func require(_ element: Int32, _ name: StaticString) throws(DASHParseError) {
        if document.attribute(name, of: element) == nil {
            try report(.missingAttribute, "\(document.name(ofElement: element)) without @\(name)", element)
        }
    }

    private mutating func unsignedAttribute(_ element: Int32, _ name: StaticString) throws(DASHParseError) -> UInt64? {
        guard let attribute = document.attribute(name, of: element) else { return nil }
        let record = document.attributes[Int(attribute)]
        let value = record.needsDecoding ? XMLNumber.unsigned(document.value(ofAttribute: attribute))
            : XMLNumber.unsigned(bytes: document.rawValue(ofAttribute: attribute))
        if value == nil {
            try report(.value, "@\(name) is not an unsigned integer", attribute: attribute)
        }
        return value
    }

    private mutating func checkUnsigned(_ element: Int32, _ names: StaticString...) throws(DASHParseError) {
        for name in names { _ = try unsignedAttribute(element, name) }
    }

    private mutating func checkDurations(_ element: Int32, _ names: StaticString...) throws(DASHParseError) {
        for name in names {
            guard let attribute = document.attribute(name, of: element) else { continue }
            if DASHDuration(document.value(ofAttribute: attribute)) == nil {
                try report(.value, "@\(name) is not an xs:duration", attribute: attribute)
            }
        }
    }

    private mutating func checkRange(_ element: Int32, _ name: StaticString) throws(DASHParseError) {
        guard let attribute = document.attribute(name, of: element) else { return }
        if DASHByteRange(document.value(ofAttribute: attribute)) == nil {
            try report(.value, "@\(name) is not a byte range first-last", attribute: attribute)
        }
    }

    // MARK: - Reporting

    private mutating func report(_ code: DASHDiagnostic.Code, _ message: String, attribute: Int32) throws(DASHParseError) {
        try report(code, message, offset: Int(document.attributes[Int(attribute)].nameStart))
    }

    private mutating func report(_ code: DASHDiagnostic.Code, _ message: String, _ element: Int32) throws(DASHParseError) {
        try report(code, message, offset: Int(document.elements[Int(element)].start))
    }

    @inline(never)
    private mutating func report(_ code: DASHDiagnostic.Code, _ message: String, offset: Int) throws(DASHParseError) {
        let isStrict = options.mode == .strict
        guard isStrict || diagnostics.count < options.limits.maximumDiagnostics else { return }
        let diagnostic = DASHDiagnostic(code: code, message: message, position: position(of: offset))
        if isStrict {
            throw DASHParseError(code: .ruleViolation, message: message, position: diagnostic.position, diagnostic: diagnostic)
        }
        diagnostics.append(diagnostic)
    }

    /// The position of `offset`, counting lines from the last position computed when it is
    /// further on.
    private mutating func position(of offset: Int) -> DASHPosition {
        if offset < cursor.offset { cursor = (0, 1, 0) }
        let bytes = document.bytes
        var (index, line, lineStart) = cursor
        while index < offset && index < bytes.count {
            if bytes[index] == 0x0A || (bytes[index] == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        cursor = (index, line, lineStart)
        return DASHPosition(offset: offset, line: line, column: offset - lineStart + 1)
    }
}
