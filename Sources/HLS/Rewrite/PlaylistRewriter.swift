/// One pass over the lines that copies the source and replaces only the bytes of URIs (and
/// BANDWIDTH values) the policy changes; dropped variants lose their tag and URI line.
struct PlaylistRewriter<Policy: HLSRewritePolicy> {
    let playlist: HLSPlaylist
    let base: HLSBaseURL
    let policy: Policy
    var output: [UInt8] = []
    var scratch: [UInt8] = []
    /// For each variant record, its index among the public variants of its kind.
    var variantIndices: [Int] = []

    init(playlist: HLSPlaylist, base: HLSBaseURL, policy: Policy) {
        self.playlist = playlist
        self.base = base
        self.policy = policy
    }

    private var storage: PlaylistStorage { playlist.storage }

    mutating func rewrite() -> [UInt8] {
        output.reserveCapacity(playlist.bytes.count * 2 + 64)
        let (decisions, publicIndices) = variantDecisions()
        variantIndices = publicIndices
        playlist.bytes.withUnsafeBufferPointer { source in
            var lineIndex = 0
            let lines = storage.lines
            while lineIndex < lines.count {
                let line = lines[lineIndex]
                lineIndex += 1
                let item = Int(line.item)
                switch line.kind {
                case .segmentURI:
                    let reference = HLSURIReference(role: .segment, index: item, segmentIndex: item)
                    rewriteLine(line, source: source, reference: reference)
                case .variantURI:
                    rewriteLine(line, source: source, reference: HLSURIReference(role: .variant, index: variantIndices[item]))
                case .tag where item >= 0:
                    if line.tag == .streamInf || line.tag == .iFrameStreamInf {
                        switch decisions[item] {
                        case .drop:
                            if line.tag == .streamInf { lineIndex = Int(storage.variants[item].uriLine) + 1 }
                            continue
                        case .keep:
                            rewriteTag(line, at: lineIndex - 1, source: source, bandwidth: nil)
                        case .keepWithBandwidth(let bandwidth):
                            rewriteTag(line, at: lineIndex - 1, source: source, bandwidth: bandwidth)
                        }
                    } else {
                        rewriteTag(line, at: lineIndex - 1, source: source, bandwidth: nil)
                    }
                case .tag where line.tag == .contentSteering:
                    rewriteTag(line, at: lineIndex - 1, source: source, bandwidth: nil)
                default:
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: source[line.lowerBound..<line.upperBound]))
                }
            }
        }
        return output
    }

    /// Asks the policy about every variant; a policy that would drop every EXT-X-STREAM-INF
    /// variant keeps the one with the lowest BANDWIDTH instead, so the result stays playable.
    private func variantDecisions() -> ([HLSVariantDecision], [Int]) {
        var counts = (stream: 0, iFrame: 0)
        var decisions: [HLSVariantDecision] = []
        var indices: [Int] = []
        decisions.reserveCapacity(storage.variants.count)
        indices.reserveCapacity(storage.variants.count)
        for record in storage.variants {
            let index = record.isIFrame ? counts.iFrame : counts.stream
            indices.append(index)
            if record.isIFrame { counts.iFrame += 1 } else { counts.stream += 1 }
            decisions.append(policy.decision(for: HLSVariantSummary(index: index, bandwidth: record.bandwidth,
                                                                    averageBandwidth: record.averageBandwidth,
                                                                    isIFrameOnly: record.isIFrame)))
        }
        let streams = storage.variants.indices.filter { !storage.variants[$0].isIFrame }
        if !streams.isEmpty, streams.allSatisfy({ decisions[$0] == .drop }),
           let lowest = streams.min(by: { (storage.variants[$0].bandwidth ?? 0) < (storage.variants[$1].bandwidth ?? 0) }) {
            decisions[lowest] = .keep
        }
        return (decisions, indices)
    }

    // MARK: - Lines

    private mutating func rewriteLine(_ line: LineRecord, source: UnsafeBufferPointer<UInt8>,
                                      reference: HLSURIReference) {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: source[line.lowerBound..<Int(line.contentStart)]))
        if !appendRewritten(line.content, source: source, reference: reference, quoted: false) {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: source[Int(line.contentStart)..<Int(line.contentEnd)]))
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: source[Int(line.contentEnd)..<line.upperBound]))
    }

    private mutating func rewriteTag(_ line: LineRecord, at lineIndex: Int, source: UnsafeBufferPointer<UInt8>,
                                     bandwidth: UInt64?) {
        guard let (record, role, index, segment) = uriHolder(line, at: lineIndex) else {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: source[line.lowerBound..<line.upperBound]))
            return
        }
        var copied = line.lowerBound
        if let bandwidth {
            copied = writeBandwidth(bandwidth, record: record, line: line, source: source)
        }
        let uriName: AttributeName = line.tag == .contentSteering ? .serverURI : .uri
        for attributeIndex in record.attributes.indices {
            let attribute = storage.attributes[attributeIndex]
            guard attribute.nameID == uriName.rawValue else { continue }
            let reference = HLSURIReference(role: role, index: index, segmentIndex: segment)
            let mark = output.count
            output.append(contentsOf: UnsafeBufferPointer(rebasing: source[copied..<attribute.value.lowerBound]))
            if appendRewritten(attribute.content, source: source, reference: reference, quoted: true) {
                copied = attribute.value.upperBound
            } else {
                output.removeSubrange(mark...)
            }
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: source[copied..<line.upperBound]))
    }

    /// Writes the line up to the BANDWIDTH value with `bandwidth` in its place (or inserts the
    /// attribute) and returns the offset from which copying resumes.
    private mutating func writeBandwidth(_ bandwidth: UInt64, record: TagRecord, line: LineRecord,
                                         source: UnsafeBufferPointer<UInt8>) -> Int {
        let digits = Array(String(bandwidth).utf8)
        if let existing = playlist.attribute(.bandwidth, in: record) {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: source[line.lowerBound..<existing.value.lowerBound]))
            output.append(contentsOf: digits)
            return existing.value.upperBound
        }
        if let first = record.attributes.indices.first {
            let insertAt = storage.attributes[first].name.lowerBound
            output.append(contentsOf: UnsafeBufferPointer(rebasing: source[line.lowerBound..<insertAt]))
            output.append(contentsOf: Array("BANDWIDTH=".utf8) + digits + [ASCII.comma])
            return insertAt
        }
        let insertAt = Int(line.contentEnd)
        output.append(contentsOf: UnsafeBufferPointer(rebasing: source[line.lowerBound..<insertAt]))
        let hasColon = source[Int(line.contentStart)..<insertAt].contains(ASCII.colon)
        output.append(contentsOf: Array((hasColon ? "BANDWIDTH=" : ":BANDWIDTH=").utf8) + digits)
        return insertAt
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
        case .preloadHint: return (storage.preloadHints[item], .preloadHint, item, storage.segments.count)
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

    /// Appends the rewritten form of the URI in `span`; returns false (appending nothing) when
    /// it stays as written: the policy says so, or it is not an http(s) URI (`skd:`, `data:`).
    private mutating func appendRewritten(_ span: ByteSpan, source: UnsafeBufferPointer<UInt8>,
                                          reference: HLSURIReference, quoted: Bool) -> Bool {
        let route = policy.route(for: reference)
        if case .unchanged = route { return false }
        scratch.removeAll(keepingCapacity: true)
        let isHTTP: Bool
        if !storage.variables.isEmpty, let base = source.baseAddress, VariableReferences.mayContainReference(base, span) {
            let substituted = playlist.substitutedBytes(span)
            isHTTP = substituted.withUnsafeBufferPointer { buffer in
                self.base.resolve(buffer, 0..<buffer.count, into: &scratch)
            }
        } else {
            isHTTP = base.resolve(source, span.lowerBound..<span.upperBound, into: &scratch)
        }
        guard isHTTP else { return false }
        if quoted { output.append(ASCII.quote) }
        switch route {
        case .unchanged:
            break
        case .origin:
            URISanitizer.append(scratch, to: &output)
        case .proxy(let endpoint):
            output.append(contentsOf: endpoint.prefix)
            PercentEncoding.appendEncoded(scratch, to: &output)
        case .custom(let transform):
            URISanitizer.append(Array(transform(String(decoding: scratch, as: UTF8.self)).utf8), to: &output)
        }
        if quoted { output.append(ASCII.quote) }
        return true
    }
}

extension LineRecord {
    var lowerBound: Int { Int(start) }
    var upperBound: Int { Int(end) }
}
