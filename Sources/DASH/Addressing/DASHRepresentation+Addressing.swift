extension DASHRepresentation {
    /// The URL this Representation's references resolve against: `manifestURL` (where the MPD was
    /// fetched, after redirects) resolved with the first `BaseURL` of the MPD, the Period, the
    /// AdaptationSet and the Representation, each where present.
    public func baseURL(manifestURL: DASHAbsoluteURL) -> DASHAbsoluteURL {
        var base = manifestURL
        for level in [0, period.index, adaptationSet.index, index] {
            if let first = document.firstChild(of: level, kind: .baseURL) {
                base = base.resolving(document.uriText(of: first))
            }
        }
        return base
    }

    /// The initialization segment's request, or nil when the Representation has none.
    public func initializationRequest(manifestURL: DASHAbsoluteURL) throws(DASHAddressingError) -> DASHSegmentRequest? {
        let base = baseURL(manifestURL: manifestURL)
        switch segmentInformation {
        case .template(let template):
            guard let text = template.initialization else { return nil }
            let expanded = try parsedTemplate(text, at: template.element).expanded(representationID: id, bandwidth: bandwidth)
            return request(url: base.resolve(expanded), range: nil, timescale: template.timescale)
        case .list(let list):
            guard let initialization = list.initialization else { return nil }
            return request(url: base.resolve(initialization.sourceURL ?? ""), range: initialization.range, timescale: list.timescale)
        case .base(let segmentBase):
            guard let initialization = segmentBase.initialization else { return nil }
            return request(url: base.resolve(initialization.sourceURL ?? ""), range: initialization.range,
                           timescale: segmentBase.timescale)
        case nil:
            return nil
        }
    }

    /// For `SegmentBase`, the request for the `sidx` box (`RepresentationIndex`, else
    /// `@indexRange` of the media file); nil otherwise.
    public func indexRequest(manifestURL: DASHAbsoluteURL) -> DASHSegmentRequest? {
        guard case .base(let segmentBase) = segmentInformation else { return nil }
        let base = baseURL(manifestURL: manifestURL)
        if let index = segmentBase.representationIndex {
            return request(url: base.resolve(index.sourceURL ?? ""), range: index.range ?? segmentBase.indexRange,
                           timescale: segmentBase.timescale)
        }
        guard let range = segmentBase.indexRange else { return nil }
        return request(url: base.string, range: range, timescale: segmentBase.timescale)
    }

    /// The media segment requests overlapping `range`, in order, computed lazily.
    ///
    /// - Parameters:
    ///   - manifestURL: where the MPD was fetched (after redirects).
    ///   - range: the span of the Period wanted; the whole Period by default.
    ///   - index: for `SegmentBase`, the parsed `sidx` box from ``indexRequest(manifestURL:)``.
    ///   - limits: ``DASHParserLimits/maximumSegmentsPerRepresentation`` bounds the count.
    /// - Throws: ``DASHAddressingError`` with the position of the element that made the list
    ///   impossible or too long.
    public func segmentRequests(manifestURL: DASHAbsoluteURL, in range: DASHTimeRange = .all,
                                index: DASHSegmentIndex? = nil,
                                limits: DASHParserLimits = DASHParserLimits()) throws(DASHAddressingError) -> DASHSegmentRequests {
        let base = baseURL(manifestURL: manifestURL)
        var planner = SegmentPlanner(document: document, range: range, periodDuration: period.durationSeconds,
                                     maximum: UInt64(max(limits.maximumSegmentsPerRepresentation, 0)))
        switch segmentInformation {
        case .template(let template):
            guard let media = template.media else {
                throw planner.error(.missingValue, "SegmentTemplate without @media", at: template.element)
            }
            guard template.timescale > 0 else {
                throw planner.error(.missingValue, "@timescale 0", at: template.element)
            }
            let parsed = try parsedTemplate(media, atOffset: template.mediaAttribute.map { document.attributes[Int($0)].nameStart } ?? document.elements[Int(template.element)].start)
            let expansion = DASHSegmentRequests.Expansion(template: parsed, base: base, representationID: id, bandwidth: bandwidth,
                                                          timescale: template.timescale,
                                                          presentationTimeOffset: template.presentationTimeOffset)
            planner.timescale = template.timescale
            planner.presentationTimeOffset = template.presentationTimeOffset
            let runs: [DASHSegmentRequests.Run]
            if let timeline = template.timeline {
                runs = try planner.timelineRuns(timeline, startNumber: template.startNumber)
            } else {
                runs = try planner.numberedRuns(duration: template.duration, startNumber: template.startNumber,
                                                endNumber: template.endNumber, element: template.element)
            }
            return DASHSegmentRequests(runs: runs, expansion: expansion)
        case .list(let list):
            return DASHSegmentRequests(explicit: try planner.listRequests(list, base: base))
        case .base(let segmentBase):
            guard let index else {
                throw planner.error(.needsIndex, "SegmentBase: the segments are in the sidx box at @indexRange \(segmentBase.indexRange?.description ?? "(none)"); fetch it and pass it as index", at: segmentBase.element)
            }
            return DASHSegmentRequests(explicit: try planner.indexedRequests(index, segmentBase: segmentBase, base: base))
        case nil:
            let duration = period.durationSeconds ?? 0
            let whole = DASHSegmentRequest(url: base.string, byteRange: nil, number: nil, time: 0,
                                           duration: UInt64(max(0, min(duration * 1000, 1e18))), timescale: 1000, startSeconds: 0)
            return DASHSegmentRequests(explicit: [whole])
        }
    }

    private func parsedTemplate(_ text: String, atOffset offset: Int32) throws(DASHAddressingError) -> DASHURLTemplate {
        do {
            return try DASHURLTemplate(text)
        } catch {
            throw DASHAddressingError(code: .template, message: error.message, position: document.position(of: offset))
        }
    }

    private func parsedTemplate(_ text: String, at element: Int32) throws(DASHAddressingError) -> DASHURLTemplate {
        try parsedTemplate(text, atOffset: document.elements[Int(element)].start)
    }

    private func request(url: String, range: DASHByteRange?, timescale: UInt64) -> DASHSegmentRequest {
        DASHSegmentRequest(url: url, byteRange: range, number: nil, time: 0, duration: 0, timescale: max(timescale, 1),
                           startSeconds: 0)
    }
}
