public import SparseFile

extension CacheStore {
    /// Which parts of `range` of `key` are cached, being fetched right now, or missing. The
    /// range is cut at the content length when it is known. Expired entries plan as missing.
    public func plan(key: String, range: ByteRange) -> RangePlan {
        withEntryFile(key) { state, file in
            let now = WallClock.milliseconds()
            if isWritable { dropIfExpired(key, in: &state, now: now) }
            return plan(key: key, range: range, file: file, in: &state, now: now)
        }
    }

    /// The plan with the entry's file at hand (nil when there is none). Lock held.
    func plan(key: String, range: ByteRange, file: SparseFile?, in state: inout StoreState, now: UInt64) -> RangePlan {
        let file = state.records[key] == nil ? nil : file
        var range = range
        if let length = file?.contentLength ?? state.records[key]?.contentLength {
            range = ByteRange(from: range.offset, to: min(range.end, max(range.offset, length))) ?? range
        }
        if let record = state.records[key], record.isExpired(at: now) {
            return RangePlan(pieces: range.isEmpty ? [] : [.init(range: range, state: .missing)])
        }
        let missing = file?.missingRanges(in: range) ?? (range.isEmpty ? [] : [range])
        let inFlight = (state.fills[key] ?? []).compactMap(\.pending)
        return RangePlan.make(range: range, missingFromFile: missing, inFlight: inFlight)
    }

    /// The result of ``claim(key:range:)``: the plan, and a fill for each missing piece that
    /// the caller now owns and must fetch (or fail).
    public struct Claim: Sendable {
        public var plan: RangePlan
        public var fills: [FillHandle]
    }

    /// Plans `range` of `key` and, atomically, claims every missing piece for the caller: the
    /// returned fills are registered as in flight, so concurrent callers for the same bytes
    /// get no fill for them and follow instead (one upstream fetch, many followers).
    ///
    /// Counts a hit when every byte was already cached, a miss otherwise (unless `counts` is
    /// false: a later claim of a request already counted, which must not turn its miss into a
    /// hit too), and marks the entry used. A head-only entry (``setHeadLimit(_:for:)``) claims
    /// nothing past its limit.
    public func claim(key: String, range: ByteRange, counts: Bool = true) throws(CacheStoreError) -> Claim {
        try checkWritable()
        return try withEntryFile(key) { state, file throws(CacheStoreError) in
            guard !state.isClosed else { throw CacheStoreError(.closed, "the store is closed") }
            let now = WallClock.milliseconds()
            dropIfExpired(key, in: &state, now: now)
            let plan = plan(key: key, range: range, file: file, in: &state, now: now)
            var fills: [FillHandle] = []
            let limit = state.records[key]?.headLimit ?? UInt64.max
            for piece in plan.pieces where piece.state == .missing && piece.range.offset < limit {
                let end = min(piece.range.end, limit)
                let identifier = state.makeIdentifier()
                state.fills[key, default: []].append(
                    InFlightFill(identifier: identifier, start: piece.range.offset, position: piece.range.offset, end: end))
                let claimed = ByteRange(from: piece.range.offset, to: end) ?? piece.range
                fills.append(FillHandle(store: self, key: key, range: claimed, identifier: identifier))
            }
            if counts {
                if plan.isFullyCached { state.statistics.hits += 1 } else { state.statistics.misses += 1 }
            }
            state.touch(key, at: now)
            return Claim(plan: plan, fills: fills)
        }
    }
}
