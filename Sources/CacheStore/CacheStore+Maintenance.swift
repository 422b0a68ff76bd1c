import SparseFile

extension CacheStore {
    /// Every entry, most recently used first.
    public var entries: [EntryInfo] {
        state.withLock { state in
            state.records.values.sorted { $0.accessSequence > $1.accessSequence }.map(EntryInfo.init)
        }
    }

    /// One entry, or nil.
    public func entry(for key: String) -> EntryInfo? {
        state.withLock { state in state.records[key].map(EntryInfo.init) }
    }

    /// The disk space all entries take, in bytes (kept up to date, never a directory walk).
    public var totalBytes: UInt64 { state.withLock { $0.totalBytes } }

    /// The counters since the store was created.
    public var statistics: StoreStatistics { state.withLock { statistics(in: $0) } }

    /// The counters, with the bytes served since open added. Lock held.
    func statistics(in state: StoreState) -> StoreStatistics {
        var statistics = state.statistics
        statistics.bytesFromCache += bytesServedSinceOpen.load(ordering: .relaxed)
        return statistics
    }

    /// Stores `bytes` at `offset` of `key` in one go (the fetch already happened). Bytes that
    /// are cached or being fetched by someone else are skipped.
    public func put(key: String, offset: UInt64, bytes: [UInt8], metadata: EntryMetadata = EntryMetadata()) throws(CacheStoreError) {
        guard let range = ByteRange(offset: offset, length: UInt64(bytes.count)) else { throw .invalidArgument }
        let claim = try claim(key: key, range: range)
        for fill in claim.fills {
            do throws(CacheStoreError) {
                try fill.start(metadata)
                let from = Int(fill.range.offset - offset)
                try fill.write(Array(bytes[from..<from + Int(fill.range.length)]))
                try fill.finish()
            } catch {
                fill.fail(error)
                throw error
            }
        }
    }

    /// Stores a stream of chunks from `offset` on, as they arrive; readers follow them. Bytes
    /// already cached or being fetched by another fill are skipped. The fill is cancelled with
    /// the calling task (what was written is kept).
    ///
    /// - Returns: the bytes stored.
    @discardableResult
    public func fill<Chunks: AsyncSequence>(
        key: String, offset: UInt64, metadata: EntryMetadata, chunks: Chunks
    ) async throws -> UInt64 where Chunks.Element == [UInt8] {
        guard let range = ByteRange(from: offset, to: max(offset, metadata.contentLength ?? UInt64.max)) else {
            throw CacheStoreError(.invalidArgument, "offset \(offset) lies past the content length")
        }
        var pending = try claim(key: key, range: range).fills[...]
        var position = offset
        var stored: UInt64 = 0
        do {
            for fill in pending { try fill.start(metadata) }
            for try await chunk in chunks {
                try Task.checkCancellation()
                let chunkEnd = position + UInt64(chunk.count)
                while let fill = pending.first, fill.position < chunkEnd {
                    let from = Int(max(fill.position, position) - position)
                    let written = try fill.write(Array(chunk[from...]))
                    stored += UInt64(written)
                    guard fill.position == fill.range.end else { break }
                    try fill.finish()
                    pending.removeFirst()
                }
                position = chunkEnd
            }
            for fill in pending { try fill.finish(resourceEnded: metadata.contentLength == nil && fill.position == position) }
        } catch {
            for fill in pending { fill.fail(error) }
            throw error
        }
        return stored
    }

    /// Removes an entry; returns the bytes freed (0 when there was none).
    @discardableResult
    public func remove(key: String) throws(CacheStoreError) -> UInt64 {
        try checkWritable()
        let freed = locked { state in removeEntry(key, in: &state, reason: "removed") }
        saveIndexWhenPossible()
        return freed
    }

    /// Removes every entry; returns the bytes freed.
    @discardableResult
    public func clear() throws(CacheStoreError) -> UInt64 {
        try checkWritable()
        let freed = locked { state in
            state.records.keys.reduce(UInt64(0)) { total, key in total + removeEntry(key, in: &state, reason: "the store was cleared") }
        }
        saveIndexWhenPossible()
        return freed
    }

    /// Pins or unpins an entry: pinned entries are never evicted.
    public func setPinned(_ pinned: Bool, for key: String) throws(CacheStoreError) {
        try updateEntry(key, .pinned(pinned))
    }

    /// Sets when an entry expires (`nil`: never), counting from now.
    public func setTimeToLive(_ timeToLive: Duration?, for key: String) throws(CacheStoreError) {
        let expires = timeToLive.flatMap { expiry(for: EntryMetadata(timeToLive: $0), from: WallClock.milliseconds()) }
        try updateEntry(key, .expires(expires))
    }

    /// Limits an entry to its first `limit` bytes (head-only caching, e.g. for prefetching the
    /// start of a video); `nil` lifts the limit so the entry can grow to the whole resource.
    /// Bytes already cached past a new limit are kept.
    public func setHeadLimit(_ limit: UInt64?, for key: String) throws(CacheStoreError) {
        try updateEntry(key, .headLimit(limit))
    }

    /// Records in an entry's file the names of the request header fields its response varies
    /// on (HTTP `Vary`), as the attribute `http.vary` (names joined by commas; none removes it),
    /// so that `sparsecache inspect` shows them. Names only: never request values.
    public func setVaryNames(_ names: [String], for key: String) throws(CacheStoreError) {
        try updateEntry(key, .varyNames(names))
    }

    /// Changes an entry's record and, durably, the attributes in its file's header (written and
    /// committed outside the lock).
    private func updateEntry(_ key: String, _ change: EntryChange) throws(CacheStoreError) {
        try checkWritable()
        guard let file = entryFile(for: key) else { throw CacheStoreError(.noEntry, "\(directory): no entry for key \(key)") }
        do throws(SparseFileError) {
            try file.updateMetadata { change.apply(to: &$0.attributes) }
            try file.commit()
        } catch {
            throw .file(error)
        }
        locked { state in
            guard var record = state.records[key], state.files.file(for: key) === file else { return }
            change.apply(to: &record)
            state.records[key] = record
            state.isDirty = true
        }
        saveIndexWhenPossible()
    }
}

/// A change to what the store keeps about an entry, both in its record and in its file's header
/// attributes (which survive losing the index).
private enum EntryChange {
    case pinned(Bool)
    case expires(UInt64?)
    case headLimit(UInt64?)
    /// Only in the file's attributes: the record does not keep it.
    case varyNames([String])

    func apply(to record: inout EntryRecord) {
        switch self {
        case .pinned(let pinned): record.pinned = pinned
        case .expires(let expires): record.expires = expires
        case .headLimit(let limit): record.headLimit = limit
        case .varyNames: break
        }
    }

    func apply(to attributes: inout [String: String]) {
        switch self {
        case .pinned(let pinned): attributes[EntryAttribute.pinned] = pinned ? "1" : nil
        case .expires(let expires): attributes[EntryAttribute.expires] = expires.map(String.init)
        case .headLimit(let limit): attributes[EntryAttribute.headLimit] = limit.map(String.init)
        case .varyNames(let names): attributes[EntryAttribute.vary] = names.isEmpty ? nil : names.joined(separator: ",")
        }
    }
}
