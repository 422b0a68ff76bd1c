/// One pass over the lines that copies the source and replaces only the bytes of URIs (and
/// BANDWIDTH values) the policy changes; dropped variants lose their tag and URI line (the URI
/// line with the blank lines right after it), dropped I-frame variants and renditions their line
/// with the blank lines right after it.
///
/// Unchanged bytes are copied in runs as long as possible (`copied` marks where the pending run
/// starts), and a relative reference against a plain base directory reuses the directory's
/// resolved and encoded bytes, computed once. The policy is an existential rather than a
/// generic parameter: the rewriter is called across the module boundary, where generic code
/// would run unspecialized and look up type metadata for every URI.
struct PlaylistRewriter: ~Copyable {
    let playlist: HLSPlaylist
    let storage: PlaylistStorage
    let base: HLSBaseURL
    let policy: any HLSRewritePolicy
    var output: OutputBuffer
    var scratch: OutputBuffer
    /// Start of the source bytes not yet copied to `output`.
    var copied = 0
    /// The route of the URI being rewritten.
    var route = HLSURIRoute.unchanged
    /// For each variant record, its index among the public variants of its kind.
    var variantIndices: [Int] = []
    /// For each rendition, whether it stays; nil when every rendition stays.
    var keptRenditions: [Bool]?
    /// `scheme://authority/directory/` of the base, as is and sanitized (origin route), and
    /// percent-encoded (proxy route); empty when the base directory has dot segments.
    let baseDirectory: [UInt8]
    let sanitizedBaseDirectory: [UInt8]
    let encodedBaseDirectory: [UInt8]

    init(playlist: HLSPlaylist, base: HLSBaseURL, policy: any HLSRewritePolicy) {
        self.playlist = playlist
        self.storage = playlist.storage
        self.base = base
        self.policy = policy
        output = OutputBuffer(capacity: Self.estimatedSize(of: playlist, base: base))
        scratch = OutputBuffer(capacity: 1024)
        var directory = OutputBuffer(capacity: base.bytes.count + 1)
        if !base.directoryHasDotSegments && base.schemeIsHTTP {
            // Resolving an empty path segment gives the directory itself.
            _ = [ASCII.dot, ASCII.slash].withUnsafeBufferPointer { base.resolve($0, 0..<2, into: &directory) }
        }
        baseDirectory = Array(directory.written)
        var sanitized = OutputBuffer(capacity: baseDirectory.count * 3 + 1)
        var encoded = OutputBuffer(capacity: baseDirectory.count * 3 + 1)
        baseDirectory.withUnsafeBufferPointer {
            URISanitizer.append($0, to: &sanitized)
            PercentEncoding.appendEncoded($0, to: &encoded)
        }
        sanitizedBaseDirectory = Array(sanitized.written)
        encodedBaseDirectory = Array(encoded.written)
    }

    /// Room for the output when every URI goes through a proxy endpoint of typical length, so
    /// the buffer does not grow (each growth copies, and touches fresh pages).
    private static func estimatedSize(of playlist: HLSPlaylist, base: HLSBaseURL) -> Int {
        let storage = playlist.storage
        let uris = storage.segments.count + storage.variants.count + storage.keys.count + storage.maps.count
            + storage.parts.count + storage.preloadHints.count + storage.renditionReports.count
            + storage.renditions.count + storage.sessionData.count + storage.sessionKeys.count + 1
        let typicalEndpoint = 48
        return playlist.bytes.count * 2 + uris * (typicalEndpoint + 3 * base.bytes.count + 8) + 256
    }

    consuming func rewrite() -> [UInt8] {
        let (decisions, publicIndices) = variantDecisions()
        variantIndices = publicIndices
        keptRenditions = renditionsKept(decisions: decisions)
        let lines = storage.lines
        playlist.bytes.withUnsafeBufferPointer { source in
            var lineIndex = 0
            // The segment whose tags the lines are: segment URI lines end one.
            var segment = 0
            while lineIndex < lines.count {
                let line = lines[lineIndex]
                lineIndex += 1
                let item = Int(line.item)
                switch line.kind {
                case .segmentURI:
                    rewriteLine(line, source: source, reference: HLSURIReference(role: .segment, index: item, segmentIndex: item))
                    segment = item + 1
                case .tag where line.tag == .byteRange:
                    writeImpliedOffset(line, segment: segment, source: source)
                case .variantURI where decisions[item] == .drop:
                    flush(upTo: line.lowerBound, source: source)
                    lineIndex = skippingBlankLines(after: lineIndex - 1, lines)
                    copied = lines[lineIndex - 1].upperBound
                case .variantURI:
                    rewriteLine(line, source: source, reference: HLSURIReference(role: .variant, index: variantIndices[item]))
                case .tag where item >= 0 && (line.tag == .streamInf || line.tag == .iFrameStreamInf):
                    switch decisions[item] {
                    case .drop:
                        // The tag alone: its URI line goes when it comes. Lines between the two
                        // (an EXT-X-MEDIA, a comment) are not the variant's and stay.
                        flush(upTo: line.lowerBound, source: source)
                        if line.tag == .iFrameStreamInf {
                            lineIndex = skippingBlankLines(after: lineIndex - 1, lines)
                        }
                        copied = lines[lineIndex - 1].upperBound
                    case .keep:
                        rewriteTag(line, at: lineIndex - 1, source: source, bandwidth: nil)
                    case .keepWithBandwidth(let bandwidth):
                        rewriteTag(line, at: lineIndex - 1, source: source, bandwidth: bandwidth)
                    }
                case .tag where item >= 0 && line.tag == .media && !renditionKept(item):
                    flush(upTo: line.lowerBound, source: source)
                    lineIndex = skippingBlankLines(after: lineIndex - 1, lines)
                    copied = lines[lineIndex - 1].upperBound
                case .tag where item >= 0 || line.tag == .contentSteering:
                    rewriteTag(line, at: lineIndex - 1, source: source, bandwidth: nil)
                default:
                    continue
                }
            }
            flush(upTo: source.count, source: source)
        }
        return output.finish()
    }

    /// Writes the offset an `EXT-X-BYTERANGE:<n>` of `segment` implies (the end of the previous
    /// segment's sub-range) when the policy routes the segment elsewhere than the previous one:
    /// their URIs then differ, and RFC 8216 allows an implied offset only after a sub-range of
    /// the same URI (head-only caching sends the first segment past the head to the origin).
    private mutating func writeImpliedOffset(_ line: LineRecord, segment: Int, source: UnsafeBufferPointer<UInt8>) {
        guard segment > 0, segment < storage.segments.count, storage.segments[segment].flags.contains(.byteRange),
              !source[Int(line.contentStart)..<Int(line.contentEnd)].contains(ASCII.at) else { return }
        guard !routedAlike(HLSURIReference(role: .segment, index: segment, segmentIndex: segment),
                           HLSURIReference(role: .segment, index: segment - 1, segmentIndex: segment - 1)) else { return }
        flush(upTo: Int(line.contentEnd), source: source)
        output.append(ASCII.at)
        output.append(Array(String(storage.segments[segment].byteRangeOffset).utf8))
    }

    /// Whether the `BYTERANGE` of part `part` (its `attribute`) needs the offset it implies
    /// written out: RFC 8216 allows an implied offset only after a part of the same URI, and the
    /// policy routes this part elsewhere than the one before it (the first part past the head
    /// goes to the origin, the one before it through the proxy).
    private func partNeedsOffset(_ part: Int, _ attribute: AttributeRecord, source: UnsafeBufferPointer<UInt8>) -> Bool {
        guard part > 0, part < storage.parts.count, storage.parts[part].hasByteRange else { return false }
        let content = attribute.content
        guard !source[Int(content.start)..<Int(content.end)].contains(ASCII.at) else { return false }
        let here = Int(storage.parts[part].segment)
        let before = Int(storage.parts[part - 1].segment)
        return !routedAlike(HLSURIReference(role: .part, index: part, segmentIndex: here),
                            HLSURIReference(role: .part, index: part - 1, segmentIndex: before))
    }

    /// Whether the policy writes the URIs of `reference` and `other` the same way, so that equal
    /// URIs stay equal.
    private func routedAlike(_ reference: HLSURIReference, _ other: HLSURIReference) -> Bool {
        switch (policy.route(for: reference), policy.route(for: other)) {
        case (.unchanged, .unchanged), (.origin, .origin): true
        case (.proxy(let endpoint), .proxy(let previous)): endpoint == previous
        default: false
        }
    }

    /// The index of the first line after `last` that is not blank. A dropped variant or
    /// rendition takes the blank lines that follow it along: writers such as ffmpeg separate
    /// variants with a blank line, and keeping those would leave a run of blank lines where the
    /// variants were, in place of the one separator the source had.
    private func skippingBlankLines(after last: Int, _ lines: RecordArray<LineRecord>) -> Int {
        var next = last + 1
        while next < lines.count, lines[next].kind == .blank { next += 1 }
        return next
    }

    /// Copies the pending run of unchanged source bytes up to `end`.
    private mutating func flush(upTo end: Int, source: UnsafeBufferPointer<UInt8>) {
        if end > copied {
            output.append(UnsafeBufferPointer(rebasing: source[copied..<end]))
            copied = end
        }
    }

    // MARK: - Lines

    private mutating func rewriteLine(_ line: LineRecord, source: UnsafeBufferPointer<UInt8>,
                                      reference: HLSURIReference) {
        guard prepare(line.content, source: source, reference: reference) else { return }
        flush(upTo: Int(line.contentStart), source: source)
        appendPrepared(quoted: false)
        copied = Int(line.contentEnd)
    }

    /// Rewrites the URI attribute of a tag, the offset a part's BYTERANGE implies where the
    /// policy splits its URI from the previous part's, and, for a variant given a `bandwidth`,
    /// the values of BANDWIDTH and AVERAGE-BANDWIDTH. Attributes are visited in source order, so every
    /// replacement lands after the bytes already copied.
    private mutating func rewriteTag(_ line: LineRecord, at lineIndex: Int, source: UnsafeBufferPointer<UInt8>,
                                     bandwidth: UInt64?) {
        guard let (record, role, index, segment) = uriHolder(line, at: lineIndex) else { return }
        let digits = bandwidth.map { Array(String($0).utf8) }
        if let digits, playlist.attribute(.bandwidth, in: record) == nil {
            insertBandwidth(digits, record: record, line: line, source: source)
        }
        let uriName: AttributeName = line.tag == .contentSteering ? .serverURI : .uri
        for attributeIndex in record.attributes.indices {
            let attribute = storage.attributes[attributeIndex]
            if attribute.knownName == uriName {
                let reference = HLSURIReference(role: role, index: index, segmentIndex: segment)
                if prepare(attribute.content, source: source, reference: reference) {
                    flush(upTo: attribute.value.lowerBound, source: source)
                    appendPrepared(quoted: true)
                    copied = attribute.value.upperBound
                }
            } else if line.tag == .part, attribute.knownName == .byteRange, partNeedsOffset(index, attribute, source: source) {
                flush(upTo: Int(attribute.content.end), source: source)
                output.append(ASCII.at)
                output.append(Array(String(storage.parts[index].byteRangeOffset).utf8))
            } else if let digits, attribute.knownName == .bandwidth || attribute.knownName == .averageBandwidth {
                flush(upTo: attribute.value.lowerBound, source: source)
                output.append(digits)
                copied = attribute.value.upperBound
            }
        }
    }

    /// Inserts a BANDWIDTH attribute into a variant tag that has none.
    private mutating func insertBandwidth(_ digits: [UInt8], record: TagRecord, line: LineRecord,
                                          source: UnsafeBufferPointer<UInt8>) {
        if let first = record.attributes.indices.first {
            flush(upTo: storage.attributes[first].name.lowerBound, source: source)
            output.append(Array("BANDWIDTH=".utf8) + digits + [ASCII.comma])
        } else {
            flush(upTo: Int(line.contentEnd), source: source)
            let hasColon = source[Int(line.contentStart)..<Int(line.contentEnd)].contains(ASCII.colon)
            output.append(Array((hasColon ? "BANDWIDTH=" : ":BANDWIDTH=").utf8) + digits)
        }
    }

    /// The tag record of a line whose tag holds URIs, its role and indices.
    private func uriHolder(_ line: LineRecord, at lineIndex: Int) -> (TagRecord, HLSURIReference.Role, Int, Int?)? {
        let item = Int(line.item)
        switch line.tag {
        case .key: return (storage.keys[item], .key, item, nil)
        case .map: return (storage.maps[item].tag, .map, item, nil)
        case .part:
            let segment = Int(storage.parts[item].segment)
            return (storage.parts[item].tag, .part, item, segment)
        case .preloadHint:
            // A hinted part belongs to the segment being produced; a hinted map to no segment.
            let record = storage.preloadHints[item]
            let isMap = playlist.enumerated(record, .type) == "MAP"
            return (record, .preloadHint, item, isMap ? nil : storage.segments.count)
        case .renditionReport: return (storage.renditionReports[item], .renditionReport, item, nil)
        case .media: return (storage.renditions[item], .rendition, item, nil)
        case .sessionKey: return (storage.sessionKeys[item], .sessionKey, item, nil)
        case .sessionData: return (storage.sessionData[item], .sessionData, item, nil)
        case .streamInf: return (storage.variants[item].tag, .variant, variantIndices[item], nil)
        case .iFrameStreamInf: return (storage.variants[item].tag, .iFrameVariant, variantIndices[item], nil)
        case .contentSteering:
            guard let record = storage.contentSteering, Int(record.line) == lineIndex else { return nil }
            return (record, .contentSteering, 0, nil)
        default: return nil
        }
    }

    // MARK: - URIs

    /// Asks the policy about the URI in `span` and, unless it stays as written, resolves it
    /// into `scratch`. URIs that do not resolve to http or https (`skd:`, `data:`) stay.
    /// A simple relative reference (no scheme, authority, leading slash or dot segment) is left
    /// unresolved in `scratch` with `scratchIsRelative` set: the base directory is prepended,
    /// already encoded, when it is written.
    private mutating func prepare(_ span: ByteSpan, source: UnsafeBufferPointer<UInt8>,
                                  reference: HLSURIReference) -> Bool {
        route = policy.route(for: reference)
        if case .unchanged = route { return false }
        scratch.removeAll()
        scratchIsRelative = false
        if !storage.variables.isEmpty, let base = source.baseAddress, VariableReferences.mayContainReference(base, span) {
            let substituted = playlist.substitutedBytes(span)
            return substituted.withUnsafeBufferPointer { buffer in
                self.base.resolve(buffer, 0..<buffer.count, into: &scratch)
            }
        }
        let range = span.lowerBound..<span.upperBound
        if !baseDirectory.isEmpty, isSimpleRelative(source, range) {
            scratch.append(UnsafeBufferPointer(rebasing: source[range]))
            scratchIsRelative = true
            return true
        }
        return base.resolve(source, range, into: &scratch)
    }

    var scratchIsRelative = false
    /// The last proxy endpoint's prefix followed by the encoded base directory: one copy per
    /// relative URI instead of two. (Comparing against the same array is a pointer check.)
    var proxiedBaseDirectory: (endpoint: [UInt8], bytes: [UInt8]) = ([], [])

    /// A non-empty relative path reference that does not start with `/`, has no scheme and no
    /// dot segment: resolving it only prepends the base directory.
    private func isSimpleRelative(_ source: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard !range.isEmpty else { return false }
        let first = source[range.lowerBound]
        if first == ASCII.slash || first == ASCII.questionMark || first == ASCII.hash { return false }
        var pathEnd = range.lowerBound
        while pathEnd < range.upperBound {
            let byte = source[pathEnd]
            // A colon before any slash makes the reference start with a scheme (or be a
            // relative path that RFC 3986 says must be written "./a:b"); take the slow path.
            if byte == ASCII.colon { return false }
            if byte == ASCII.slash || byte == ASCII.questionMark || byte == ASCII.hash { break }
            pathEnd += 1
        }
        while pathEnd < range.upperBound && source[pathEnd] != ASCII.questionMark && source[pathEnd] != ASCII.hash {
            pathEnd += 1
        }
        return !DotSegments.contains(source, range.lowerBound..<pathEnd)
    }

    /// Appends the URI `prepare` resolved, routed as the policy said.
    private mutating func appendPrepared(quoted: Bool) {
        if quoted { output.append(ASCII.quote) }
        switch route {
        case .unchanged:
            break
        case .origin:
            if scratchIsRelative { sanitizedBaseDirectory.withUnsafeBufferPointer { output.append($0) } }
            URISanitizer.append(scratch.written, to: &output)
        case .proxy(let endpoint):
            if scratchIsRelative {
                if endpoint.prefix != proxiedBaseDirectory.endpoint {
                    proxiedBaseDirectory = (endpoint.prefix, endpoint.prefix + encodedBaseDirectory)
                }
                proxiedBaseDirectory.bytes.withUnsafeBufferPointer { output.append($0) }
            } else {
                endpoint.prefix.withUnsafeBufferPointer { output.append($0) }
            }
            PercentEncoding.appendEncoded(scratch.written, to: &output)
        case .custom(let transform):
            var absolute = scratchIsRelative ? baseDirectory : []
            absolute.append(contentsOf: scratch.written)
            let replacement = Array(transform(String(decoding: absolute, as: UTF8.self)).utf8)
            replacement.withUnsafeBufferPointer { URISanitizer.append($0, to: &output) }
        }
        if quoted { output.append(ASCII.quote) }
    }
}

extension LineRecord {
    var lowerBound: Int { Int(start) }
    var upperBound: Int { Int(end) }
}
