/// The segment requests of one Representation for one time range, computed lazily: a
/// `SegmentTimeline` run of a billion repeats costs one record, and each request is made when
/// the iterator reaches it. ``count`` is exact and known without iterating.
public struct DASHSegmentRequests: Sequence, Sendable {
    /// Consecutive template segments of equal duration: `count` of them from `time`, numbered
    /// from `number`.
    struct Run: Sendable {
        var time: UInt64
        var duration: UInt64
        var count: UInt64
        var number: UInt64
    }

    /// What is needed to turn a run's segment into a URL.
    struct Expansion: Sendable {
        var template: DASHURLTemplate
        var base: DASHAbsoluteURL
        var representationID: String?
        var bandwidth: UInt64?
        var timescale: UInt64
        var presentationTimeOffset: UInt64
    }

    enum Source: Sendable {
        case runs([Run], Expansion)
        case explicit([DASHSegmentRequest])
    }

    let source: Source
    /// The number of requests.
    public let count: Int

    init(runs: [Run], expansion: Expansion) {
        source = .runs(runs, expansion)
        // The planner bounded the sum by the segment limit, an Int.
        count = Int(clamping: runs.reduce(UInt64(0)) { $0 &+ $1.count })
    }

    init(explicit requests: [DASHSegmentRequest]) {
        source = .explicit(requests)
        count = requests.count
    }

    public var underestimatedCount: Int { count }

    public func makeIterator() -> Iterator { Iterator(source: source) }

    /// Makes each request as it is reached.
    public struct Iterator: IteratorProtocol, Sendable {
        let source: Source
        var run = 0
        var step: UInt64 = 0

        public mutating func next() -> DASHSegmentRequest? {
            switch source {
            case .explicit(let requests):
                guard run < requests.count else { return nil }
                defer { run += 1 }
                return requests[run]
            case .runs(let runs, let expansion):
                while run < runs.count && step >= runs[run].count {
                    run += 1
                    step = 0
                }
                guard run < runs.count else { return nil }
                let current = runs[run]
                defer { step += 1 }
                // The run's construction checked that these cannot overflow.
                let time = current.time + current.duration * step
                let number = current.number + step
                let reference = expansion.template.expanded(representationID: expansion.representationID, number: number,
                                                            time: time, bandwidth: expansion.bandwidth)
                let start = Double(time) - Double(expansion.presentationTimeOffset)
                return DASHSegmentRequest(url: expansion.base.resolve(reference), byteRange: nil, number: number, time: time,
                                          duration: current.duration, timescale: expansion.timescale,
                                          startSeconds: start / Double(expansion.timescale))
            }
        }
    }
}
