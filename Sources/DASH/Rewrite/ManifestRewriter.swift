/// Rewrites an MPD for the proxy as a list of byte edits over the input: URL values replaced,
/// dropped Representations and PatchLocations removed, every other byte copied.
struct ManifestRewriter {
    /// The bases a reference resolves against: on the origin, and as the player will see them.
    struct BasePair {
        var origin: DASHAbsoluteURL
        var served: DASHAbsoluteURL
    }

    let document: XMLDocument
    let policy: DASHProxyRewritePolicy
    let rootPair: BasePair
    /// Whether a BaseURL inserted for an MPD served elsewhere must name the MPD itself, not its
    /// directory (``DASHManifest/hasImplicitReferenceToItsOwnURL``).
    let insertsManifestURL: Bool
    private var edits: [(range: Range<Int>, replacement: [UInt8])] = []
    /// The effective bases of each level element (MPD, Period, AdaptationSet, Representation).
    private var levelPairs: [Int32: BasePair] = [:]
    /// Removed byte ranges, sorted and disjoint (each is one element and the space before it).
    private var removed: [Range<Int>] = []

    init(document: XMLDocument, policy: DASHProxyRewritePolicy, manifestURL: DASHAbsoluteURL, insertsManifestURL: Bool = true) {
        self.document = document
        self.policy = policy
        self.insertsManifestURL = insertsManifestURL
        let served = policy.servedManifestURL
            ?? policy.endpoint.url(for: manifestURL.string).flatMap(DASHAbsoluteURL.init)
            ?? manifestURL
        rootPair = BasePair(origin: manifestURL, served: served)
    }

    mutating func rewrite() throws(DASHRewriteError) -> [UInt8] {
        try refuseRemoteElements()
        removeDroppedRepresentations()
        try rewriteBaseURLs()
        try rewriteManifestLocations()
        try rewriteSegmentInformation()
        return applied()
    }

    // MARK: - Refusals and removals

    private func refuseRemoteElements() throws(DASHRewriteError) {
        for element in 0..<Int32(document.elements.count) {
            if let href = RemoteReference.fetchable(element, in: document) {
                throw DASHRewriteError(code: .remoteElement, message: "\(document.name(ofElement: element)) has \(document.name(ofAttribute: href))=\"\(document.value(ofAttribute: href))\": remote elements are never fetched", position: document.position(ofAttribute: href))
            }
        }
    }

    private mutating func removeDroppedRepresentations() {
        for period in document.children(of: 0, kind: .period).enumerated() {
            for adaptationSet in document.children(of: period.element, kind: .adaptationSet).enumerated() {
                let representations = document.children(of: adaptationSet.element, kind: .representation)
                let summaries = representations.enumerated().map { ordinal, element in
                    DASHRepresentationSummary(
                        period: period.offset, adaptationSet: adaptationSet.offset, ordinal: ordinal,
                        id: document.value("id", of: element),
                        bandwidth: document.value("bandwidth", of: element).flatMap(XMLNumber.unsigned),
                        width: document.value("width", of: element).flatMap(XMLNumber.unsigned),
                        height: document.value("height", of: element).flatMap(XMLNumber.unsigned),
                        contentType: document.value("contentType", of: adaptationSet.element)
                            ?? (document.value("mimeType", of: element) ?? document.value("mimeType", of: adaptationSet.element))
                                .flatMap { $0.split(separator: "/").first.map(String.init) },
                        codecs: document.value("codecs", of: element) ?? document.value("codecs", of: adaptationSet.element))
                }
                var kept = summaries.map(policy.keeps)
                if !summaries.isEmpty && !kept.contains(true) {
                    // Never an empty AdaptationSet: the lowest bandwidth stays.
                    let lowest = summaries.indices.min { (summaries[$0].bandwidth ?? .max) < (summaries[$1].bandwidth ?? .max) } ?? 0
                    kept[lowest] = true
                }
                for (element, keep) in zip(representations, kept) where !keep { remove(element) }
            }
        }
    }

    /// Removes the element and the white space before it (its indentation and line break).
    private mutating func remove(_ element: Int32) {
        let record = document.elements[Int(element)]
        var start = Int(record.start)
        while start > 0 && ByteClass.isWhitespace(document.bytes[start - 1]) { start -= 1 }
        let range = start..<Int(record.end)
        removed.insert(range, at: firstRemoved(after: range.lowerBound))
        edits.append((range, []))
    }

    /// The index of the first removed range starting after `offset`.
    private func firstRemoved(after offset: Int) -> Int {
        var low = 0
        var high = removed.count
        while low < high {
            let middle = (low + high) / 2
            if removed[middle].lowerBound <= offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Whether `offset` is inside a removed element: a binary search, as every URL attribute asks.
    private func isRemoved(_ offset: Int32) -> Bool {
        let candidate = firstRemoved(after: Int(offset)) - 1
        return candidate >= 0 && removed[candidate].contains(Int(offset))
    }

    // MARK: - BaseURL and Location

    /// Each level's BaseURLs, top-down (document order puts parents first), and the effective
    /// base pair below each level.
    private mutating func rewriteBaseURLs() throws(DASHRewriteError) {
        levelPairs[0] = rootPair
        for element in 0..<Int32(document.elements.count) {
            let record = document.elements[Int(element)]
            guard record.kind.isLevel, !isRemoved(record.start) else { continue }
            let parentPair = element == 0 ? rootPair : pair(above: element)
            var levelPair = parentPair
            if element == 0, let inserted = insertBaseURLIfServedElsewhere() { levelPair = inserted }
            for (position, baseURL) in document.children(of: element, kind: .baseURL).enumerated() {
                let value = document.uriText(of: baseURL)
                let written = try decide(value, pairs: [parentPair], at: Int(record.start))
                if let written { replaceText(of: baseURL, with: written) }
                if position == 0 {
                    levelPair = BasePair(origin: parentPair.origin.resolving(value),
                                         served: parentPair.served.resolving(written ?? value))
                }
            }
            levelPairs[element] = levelPair
        }
    }

    /// References left implicit (a SegmentURL without @media, an Initialization without
    /// @sourceURL, a SegmentBase without a BaseURL) are the base itself: served from a URL that is
    /// not the MPD's path form, with no MPD-level BaseURL to rewrite, they would point at the
    /// served URL. Then a `BaseURL` holding the path form of the MPD's directory (or, when a
    /// reference names the MPD's own URL implicitly, of the MPD) is inserted first in the MPD,
    /// and every relative reference below it resolves through the proxy as written; one that
    /// resolves differently against the directory (empty, or only a query) is made absolute.
    private mutating func insertBaseURLIfServedElsewhere() -> BasePair? {
        let root = document.elements[0]
        let base = insertsManifestURL ? rootPair.origin : rootPair.origin.resolving(".")
        guard document.firstChild(of: 0, kind: .baseURL) == nil, !root.isEmptyElementTag,
              policy.endpoint.originURL(for: rootPair.served.string) != DASHProxyEndpoint.normalized(rootPair.origin.string),
              let pathForm = policy.endpoint.url(for: base.string), let served = DASHAbsoluteURL(pathForm)
        else { return nil }
        let prefix = document.bytes[Int(root.start + 1)..<Int(root.localNameStart)]
        var element: [UInt8] = Array("<".utf8) + prefix + Array("BaseURL>".utf8)
        XMLText.appendEscaped(pathForm.utf8, to: &element)
        element += Array("</".utf8) + prefix + Array("BaseURL>".utf8)
        edits.append((Int(root.startTagEnd)..<Int(root.startTagEnd), element))
        return BasePair(origin: rootPair.origin, served: served)
    }

    /// The pair of the nearest level element above `element`.
    private func pair(above element: Int32) -> BasePair {
        var parent = document.elements[Int(element)].parent
        while parent >= 0 {
            if let pair = levelPairs[parent] { return pair }
            parent = document.elements[Int(parent)].parent
        }
        return rootPair
    }

    private mutating func rewriteManifestLocations() throws(DASHRewriteError) {
        for location in document.children(of: 0, kind: .location) {
            if let written = try decide(document.uriText(of: location), pairs: [rootPair],
                                        at: Int(document.elements[Int(location)].start)) {
                replaceText(of: location, with: written)
            }
        }
        for patch in document.children(of: 0, kind: .patchLocation) {
            if !policy.keepsPatchLocations {
                remove(patch)
            } else if let written = try decide(document.uriText(of: patch), pairs: [rootPair],
                                               at: Int(document.elements[Int(patch)].start)) {
                replaceText(of: patch, with: written)
            }
        }
    }

    // MARK: - Segment information

    /// Every URL attribute of segment information, checked against the bases of each
    /// Representation that inherits it (a template on an AdaptationSet serves all of its
    /// Representations, each with its own BaseURL).
    private mutating func rewriteSegmentInformation() throws(DASHRewriteError) {
        var uses: [Int32: [BasePair]] = [:]
        for element in 0..<Int32(document.elements.count) {
            let record = document.elements[Int(element)]
            guard record.kind == .representation, !isRemoved(record.start),
                  document.elements[Int(record.parent)].kind == .adaptationSet else { continue }
            let levels = SegmentInformationLevels(document: document, representation: element)
            let pair = levelPairs[element] ?? rootPair
            for attribute in Self.urlAttributes(of: levels, in: document) { uses[attribute, default: []].append(pair) }
        }
        for element in 0..<Int32(document.elements.count) {
            let record = document.elements[Int(element)]
            guard !isRemoved(record.start) else { continue }
            for attribute in Self.urlAttributeNames(of: record.kind).compactMap({ document.attribute($0, of: element) }) {
                let pairs = uses[attribute] ?? [pair(above: element)]
                if let written = try decide(document.value(ofAttribute: attribute), pairs: pairs,
                                            at: Int(document.attributes[Int(attribute)].nameStart)) {
                    replaceValue(of: attribute, with: written)
                }
            }
        }
    }

    /// The URL-bearing attributes of each element kind.
    private static func urlAttributeNames(of kind: ElementKind) -> [StaticString] {
        switch kind {
        case .segmentTemplate: ["media", "initialization", "index", "bitstreamSwitching"]
        case .initialization, .representationIndex, .bitstreamSwitching: ["sourceURL"]
        case .segmentURL: ["media", "index"]
        default: []
        }
    }

    /// The URL attributes a Representation uses after inheritance.
    private static func urlAttributes(of levels: SegmentInformationLevels, in document: XMLDocument) -> [Int32] {
        guard let kind = levels.kind else { return [] }
        var result: [Int32] = []
        for name in urlAttributeNames(of: kind) {
            if let attribute = levels.attribute(name, of: kind) { result.append(attribute) }
        }
        for child in [ElementKind.initialization, .representationIndex, .bitstreamSwitching] {
            if let element = levels.child(child, of: kind), let attribute = document.attribute("sourceURL", of: element) {
                result.append(attribute)
            }
        }
        if kind == .segmentList,
           let owner = levels.elements(kind).first(where: { document.firstChild(of: $0, kind: .segmentURL) != nil }) {
            for segment in document.children(of: owner, kind: .segmentURL) {
                result += ["media", "index"].compactMap { (name: StaticString) in document.attribute(name, of: segment) }
            }
        }
        return result
    }

    // MARK: - Decisions and edits

    /// Nil when `value` can stay as written (it is not http(s), or every player-side resolution
    /// already maps back to its origin URL); otherwise its absolute path-form URL.
    private func decide(_ value: String, pairs: [BasePair], at offset: Int) throws(DASHRewriteError) -> String? {
        guard let first = pairs.first else { return nil }
        let target = first.origin.resolving(value)
        guard target.isHTTP else { return nil }
        let keeps = pairs.allSatisfy { pair in
            policy.endpoint.originURL(for: pair.served.resolve(value))
                == DASHProxyEndpoint.normalized(pair.origin.resolve(value))
        }
        if keeps { return nil }
        let normalizedTarget = DASHProxyEndpoint.normalized(target.string)
        for pair in pairs.dropFirst() where DASHProxyEndpoint.normalized(pair.origin.resolve(value)) != normalizedTarget {
            throw DASHRewriteError(code: .ambiguousReference, message: "\"\(value)\" resolves to different origin URLs for the Representations that inherit it", position: document.position(of: Int32(offset)))
        }
        guard let proxied = policy.endpoint.url(for: target.string) else {
            throw DASHRewriteError(code: .unproxiable, message: "\(target.string) has no path-form proxy URL (a $ before its path)", position: document.position(of: Int32(offset)))
        }
        return proxied
    }

    private mutating func replaceValue(of attribute: Int32, with value: String) {
        let record = document.attributes[Int(attribute)]
        var escaped: [UInt8] = []
        XMLText.appendEscaped(value.utf8, to: &escaped)
        edits.append((Int(record.valueStart)..<Int(record.valueEnd), escaped))
    }

    /// Replaces the URL text of `element`: only the text between the white space around it when
    /// the content is plain text, else the whole content.
    private mutating func replaceText(of element: Int32, with value: String) {
        let record = document.elements[Int(element)]
        let range = document.trimmedPlainTextRange(of: element) ?? Int(record.startTagEnd)..<Int(record.contentEnd)
        var escaped: [UInt8] = []
        XMLText.appendEscaped(value.utf8, to: &escaped)
        edits.append((range, escaped))
    }

    /// The input with the edits applied; edits inside a removed range are dropped with it.
    private func applied() -> [UInt8] {
        let bytes = document.bytes
        // An insertion (an empty range) goes before a removal starting at the same offset.
        let ordered = edits.sorted {
            ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound)
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + edits.count * 48)
        var cursor = 0
        for edit in ordered where edit.range.lowerBound >= cursor {
            output += bytes[cursor..<edit.range.lowerBound]
            output += edit.replacement
            cursor = edit.range.upperBound
        }
        output += bytes[cursor...]
        return output
    }
}

extension DASHManifest {
    /// The MPD for serving through the proxy: every URL a player will request routed to
    /// `policy.endpoint` in path form, Representations dropped as the policy says, PatchLocations
    /// removed unless kept; every other byte as parsed. `ContentProtection` and `UTCTiming` are
    /// never touched.
    ///
    /// - Parameter manifestURL: the MPD's origin URL (after redirects).
    /// - Throws: ``DASHRewriteError`` for a remote (`xlink:href`) element, a URL with no path
    ///   form, or an inherited reference that resolves differently per Representation.
    public func rewritten(manifestURL: DASHAbsoluteURL, policy: DASHProxyRewritePolicy) throws(DASHRewriteError) -> [UInt8] {
        // Only an MPD served elsewhere may get a BaseURL, so only it needs the look at every Representation.
        let insertsManifestURL = policy.servedManifestURL == nil || hasImplicitReferenceToItsOwnURL
        var rewriter = ManifestRewriter(document: document, policy: policy, manifestURL: manifestURL, insertsManifestURL: insertsManifestURL)
        return try rewriter.rewrite()
    }
}
