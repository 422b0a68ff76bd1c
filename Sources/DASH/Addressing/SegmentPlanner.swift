/// Turns segment information and a time range into runs or requests, with every count and time
/// computed in checked 64-bit arithmetic and bounded by the segment limit.
struct SegmentPlanner {
    let document: XMLDocument
    let range: DASHTimeRange
    let periodDuration: Double?
    var maximum: UInt64
    var timescale: UInt64 = 1
    var presentationTimeOffset: UInt64 = 0

    init(document: XMLDocument, range: DASHTimeRange, periodDuration: Double?, maximum: UInt64) {
        self.document = document
        self.range = range
        self.periodDuration = periodDuration
        self.maximum = maximum
    }

    func error(_ code: DASHAddressingError.Code, _ message: String, at element: Int32) -> DASHAddressingError {
        DASHAddressingError(code: code, message: message, position: document.position(ofElement: element))
    }

    /// `seconds` from the Period start as media time: `@presentationTimeOffset` plus the ticks,
    /// clamped to what 64 bits hold.
    private func mediaTime(_ seconds: Double) -> UInt64 {
        guard !seconds.isNaN else { return presentationTimeOffset }
        let ticks = max(0, seconds) * Double(timescale)
        let clamped = ticks >= 1.8e19 ? UInt64.max : UInt64(ticks)
        let (sum, overflow) = presentationTimeOffset.addingReportingOverflow(clamped)
        return overflow ? .max : sum
    }

    private var rangeStart: UInt64 { mediaTime(range.start) }
    /// The end of the range, else of the Period, in media time; nil when neither is known.
    private var rangeEnd: UInt64? {
        if let end = range.end { return mediaTime(min(end, periodDuration ?? end)) }
        return periodDuration.map(mediaTime)
    }

    private static func ceilingDivision(_ value: UInt64, _ divisor: UInt64) -> UInt64 {
        value / divisor + (value % divisor == 0 ? 0 : 1)
    }

    /// Of `count` segments of `duration` from `time`, the indices `first..<end` that overlap the range.
    private func overlapping(time: UInt64, duration: UInt64, count: UInt64) -> (first: UInt64, end: UInt64) {
        let start = rangeStart
        let first = start > time ? (start - time) / duration : 0
        var end = count
        if let rangeEnd = rangeEnd {
            end = rangeEnd > time ? min(count, Self.ceilingDivision(rangeEnd - time, duration)) : 0
        }
        return (min(first, end), end)
    }

    // MARK: - Templates

    /// The runs of a `SegmentTimeline` overlapping the range. A negative `@r` repeats up to the
    /// next `S@t`, else the end of the Period, else the end of the range.
    func timelineRuns(_ timeline: DASHSegmentTimeline, startNumber: UInt64) throws(DASHAddressingError) -> [DASHSegmentRequests.Run] {
        var runs: [DASHSegmentRequests.Run] = []
        var total: UInt64 = 0
        var previousEnd: UInt64 = 0
        var number = startNumber
        let entries = timeline.entries
        for (position, entry) in entries.enumerated() {
            guard let duration = entry.duration, duration > 0 else {
                throw error(.missingValue, "S without a positive @d", at: entry.element)
            }
            let time = entry.time ?? previousEnd
            let count: UInt64
            if entry.repeatCount >= 0 {
                count = UInt64(entry.repeatCount) + 1
            } else {
                let nextTime = position + 1 < entries.count ? entries[position + 1].time : nil
                guard let bound = nextTime ?? rangeEnd else {
                    throw error(.unbounded, "S@r=\(entry.repeatCount) repeats to the end of a Period whose end is unknown; give a time range with an end", at: entry.element)
                }
                count = bound > time ? Self.ceilingDivision(bound - time, duration) : 0
            }
            let (length, lengthOverflow) = duration.multipliedReportingOverflow(by: count)
            let (end, endOverflow) = time.addingReportingOverflow(length)
            let (nextNumber, numberOverflow) = number.addingReportingOverflow(count)
            guard !lengthOverflow, !endOverflow, !numberOverflow else {
                throw error(.overflow, "this S runs past 2^64-1 timescale units or segment numbers", at: entry.element)
            }
            let (first, last) = overlapping(time: time, duration: duration, count: count)
            if last > first {
                let (sum, sumOverflow) = total.addingReportingOverflow(last - first)
                total = sum
                guard !sumOverflow, total <= maximum else {
                    throw error(.limitExceeded, "more than \(maximum) segments (this S asks for \(count)); narrow the time range", at: entry.element)
                }
                runs.append(.init(time: time + first * duration, duration: duration, count: last - first, number: number + first))
            }
            previousEnd = end
            number = nextNumber
        }
        return runs
    }

    /// The numbered segments of a template with `@duration`.
    func numberedRuns(duration: UInt64?, startNumber: UInt64, endNumber: UInt64?,
                      element: Int32) throws(DASHAddressingError) -> [DASHSegmentRequests.Run] {
        guard let duration, duration > 0 else {
            throw error(.missingValue, "SegmentTemplate has neither a SegmentTimeline nor a positive @duration", at: element)
        }
        var count: UInt64?
        if let endNumber {
            count = endNumber >= startNumber ? endNumber - startNumber + 1 : 0
        }
        if let periodDuration {
            let periodTicks = mediaTime(periodDuration) - presentationTimeOffset
            let periodCount = Self.ceilingDivision(periodTicks, duration)
            count = min(count ?? periodCount, periodCount)
        }
        if count == nil, let rangeEnd {
            count = Self.ceilingDivision(rangeEnd - min(rangeEnd, presentationTimeOffset), duration)
        }
        guard let count else {
            throw error(.unbounded, "numbered segments of a Period whose end is unknown; give a time range with an end", at: element)
        }
        let (first, last) = overlapping(time: presentationTimeOffset, duration: duration, count: count)
        guard last > first else { return [] }
        guard last - first <= maximum else {
            throw error(.limitExceeded, "more than \(maximum) segments of @duration \(duration); narrow the time range", at: element)
        }
        let (offset, offsetOverflow) = duration.multipliedReportingOverflow(by: last)
        let (_, endOverflow) = presentationTimeOffset.addingReportingOverflow(offset)
        let (_, numberOverflow) = startNumber.addingReportingOverflow(last)
        guard !offsetOverflow, !endOverflow, !numberOverflow else {
            throw error(.overflow, "segment times or numbers run past 2^64-1", at: element)
        }
        return [.init(time: presentationTimeOffset + first * duration, duration: duration, count: last - first,
                      number: startNumber + first)]
    }

    // MARK: - Lists and indexes

    /// The `SegmentURL`s overlapping the range, timed by the timeline or `@duration`.
    mutating func listRequests(_ list: DASHSegmentList, base: DASHAbsoluteURL) throws(DASHAddressingError) -> [DASHSegmentRequest] {
        guard list.timescale > 0 else { throw error(.missingValue, "@timescale 0", at: list.element) }
        timescale = list.timescale
        presentationTimeOffset = list.presentationTimeOffset
        var times: [(time: UInt64, duration: UInt64)] = []
        times.reserveCapacity(list.segmentURLs.count)
        if let timeline = list.timeline {
            // The whole timeline, timed as far as there are URLs; the range is applied below.
            var whole = SegmentPlanner(document: document, range: .all, periodDuration: periodDuration, maximum: .max)
            whole.timescale = timescale
            whole.presentationTimeOffset = presentationTimeOffset
            let wanted = list.segmentURLs.count
            for run in try whole.timelineRuns(timeline, startNumber: list.startNumber) where times.count < wanted {
                var step: UInt64 = 0
                while step < run.count && times.count < wanted {
                    times.append((run.time + run.duration * step, run.duration))
                    step += 1
                }
            }
        } else {
            let duration = list.duration ?? (list.segmentURLs.count <= 1 ? mediaTime(periodDuration ?? 0) - presentationTimeOffset : 0)
            guard duration > 0 || list.segmentURLs.isEmpty else {
                throw error(.missingValue, "SegmentList of several SegmentURLs without @duration or a SegmentTimeline", at: list.element)
            }
            for position in 0..<UInt64(list.segmentURLs.count) {
                let (offset, overflow) = duration.multipliedReportingOverflow(by: position)
                let (time, overflow2) = presentationTimeOffset.addingReportingOverflow(offset)
                guard !overflow, !overflow2 else { throw error(.overflow, "segment times run past 2^64-1", at: list.element) }
                times.append((time, duration))
            }
        }
        var requests: [DASHSegmentRequest] = []
        let start = rangeStart
        // Listed segments are all there is: only an explicit end cuts them, not the Period's.
        let end = range.end.map(mediaTime)
        for (position, segment) in list.segmentURLs.enumerated() where position < times.count {
            let (time, duration) = times[position]
            let (segmentEnd, overflow) = time.addingReportingOverflow(duration)
            if !overflow && segmentEnd <= start && duration > 0 { continue }
            if let end, time >= end { continue }
            requests.append(DASHSegmentRequest(
                url: base.resolve(segment.media ?? ""), byteRange: segment.mediaRange,
                number: list.startNumber &+ UInt64(position), time: time, duration: duration, timescale: timescale,
                startSeconds: (Double(time) - Double(presentationTimeOffset)) / Double(timescale)))
        }
        return requests
    }

    /// The media references of a `sidx` box overlapping the range, as byte ranges of the file.
    func indexedRequests(_ index: DASHSegmentIndex, segmentBase: DASHSegmentBase,
                         base: DASHAbsoluteURL) throws(DASHAddressingError) -> [DASHSegmentRequest] {
        if index.references.contains(where: \.isIndex) {
            throw error(.hierarchicalIndex, "the sidx box references other sidx boxes", at: segmentBase.element)
        }
        let offsetSeconds = Double(segmentBase.presentationTimeOffset) / Double(max(segmentBase.timescale, 1))
        let scale = Double(index.timescale)
        return index.references.compactMap { reference -> DASHSegmentRequest? in
            let start = Double(reference.time) / scale - offsetSeconds
            let end = start + Double(reference.duration) / scale
            if end <= range.start && reference.duration > 0 { return nil }
            if let rangeEnd = range.end, start >= rangeEnd { return nil }
            return DASHSegmentRequest(url: base.string, byteRange: reference.range, number: nil, time: reference.time,
                                      duration: reference.duration, timescale: UInt64(index.timescale), startSeconds: start)
        }
    }
}
