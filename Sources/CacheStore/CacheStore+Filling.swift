import SparseFile

extension CacheStore {
    enum FillOutcome {
        case finished(resourceEnded: Bool)
        case failed(CacheStoreError)
    }

    /// Creates the entry, or checks its validators against `metadata` and replaces it when they
    /// differ; fills in what the entry did not know yet (length, type, validators).
    func startFill(key: String, identifier: UInt64, metadata: EntryMetadata) throws(CacheStoreError) -> SparseFile {
        try state.withLock { state throws(CacheStoreError) in
            guard state.fills[key]?.contains(where: { $0.identifier == identifier }) == true else {
                throw CacheStoreError(.entryReplaced, "the fill of \(key) was cancelled: its entry was replaced or removed")
            }
            if let file = existingFile(for: key, in: &state) {
                let existing = file.metadata
                let known = EntryMetadata(contentLength: existing.contentLength, entityTag: existing.entityTag,
                                          lastModified: existing.lastModified)
                if known.isCompatible(with: metadata) {
                    do throws(SparseFileError) {
                        try file.updateMetadata { resource in
                            resource.contentLength = resource.contentLength ?? metadata.contentLength
                            resource.entityTag = resource.entityTag ?? metadata.entityTag
                            resource.lastModified = resource.lastModified ?? metadata.lastModified
                            resource.contentType = metadata.contentType ?? resource.contentType
                        }
                    } catch {
                        throw .file(error)
                    }
                    trimFills(of: key, to: file.contentLength, in: &state)
                    return file
                }
                // The resource changed at the origin: old bytes must never mix with new ones.
                let fills = state.fills[key]?.filter { $0.identifier == identifier } ?? []
                removeEntry(key, in: &state, reason: "its validators changed at the origin")
                state.fills[key] = fills
            }
            let file = try createEntry(for: key, metadata: metadata, in: &state)
            trimFills(of: key, to: metadata.contentLength, in: &state)
            return file
        }
    }

    /// Fills cannot write past the end of the resource once its length is known.
    private func trimFills(of key: String, to length: UInt64?, in state: inout StoreState) {
        guard let length, var fills = state.fills[key] else { return }
        for index in fills.indices { fills[index].end = min(fills[index].end, max(fills[index].position, length)) }
        state.fills[key] = fills
    }

    func writeFill(key: String, identifier: UInt64, file: SparseFile, bytes: UnsafeRawBufferPointer, at offset: UInt64) throws(CacheStoreError) {
        try state.withLock { state throws(CacheStoreError) in
            guard state.fills[key]?.contains(where: { $0.identifier == identifier }) == true, state.records[key] != nil else {
                throw CacheStoreError(.entryReplaced, "the entry \(key) was replaced or removed during its fill")
            }
            // Room for the bytes, the blocks they touch and a header's growth.
            try makeRoom(for: UInt64(bytes.count) + 3 * 4096, protecting: key, in: &state)
        }
        do {
            try file.write(bytes, at: offset)
        } catch {
            throw .file(error)
        }
        let waiters = state.withLock { state -> [Waiter] in
            guard let index = state.fills[key]?.firstIndex(where: { $0.identifier == identifier }) else { return [] }
            state.fills[key]?[index].position = offset + UInt64(bytes.count)
            state.statistics.bytesFromOrigin += UInt64(bytes.count)
            refreshSize(of: key, file: file, in: &state)
            state.touch(key, at: WallClock.milliseconds())
            let ready = takeWaiters(of: key, in: &state) { $0.offset < offset + UInt64(bytes.count) }
            // The estimate is generous, but the store must never stay over its limit.
            try? makeRoom(for: 0, protecting: key, in: &state)
            return ready
        }
        for waiter in waiters { waiter.continuation.resume() }
    }

    func endFill(key: String, identifier: UInt64, file: SparseFile?, outcome: FillOutcome) throws(CacheStoreError) {
        var commitError: SparseFileError?
        if let file, file.isWritable {
            if case .finished(true) = outcome {
                let length = state.withLock { state in
                    state.fills[key]?.first(where: { $0.identifier == identifier })?.position
                }
                if let length, file.contentLength == nil {
                    try? file.updateMetadata { $0.contentLength = length }
                }
            }
            do { try file.commit() } catch { commitError = error }
        }
        let waiters = state.withLock { state -> [(Waiter, CacheStoreError?)] in
            guard let fill = state.fills[key]?.first(where: { $0.identifier == identifier }) else { return [] }
            state.fills[key]?.removeAll { $0.identifier == identifier }
            if state.fills[key]?.isEmpty == true { state.fills[key] = nil }
            if let file, state.records[key] != nil { refreshSize(of: key, file: file, in: &state) }
            // Followers of the part this fill never wrote wake up: they re-plan, or get the error.
            // That includes followers past a fill trimmed to the resource's length when it
            // started, unless another fill still covers them.
            let remaining = state.fills[key] ?? []
            let stranded = takeWaiters(of: key, in: &state) { waiter in
                waiter.offset >= fill.position && (waiter.offset < fill.end
                    || !remaining.contains { $0.position <= waiter.offset && waiter.offset < $0.end })
            }
            let others = takeWaiters(of: key, in: &state) { $0.offset < fill.position }
            switch outcome {
            case .finished: return (stranded + others).map { ($0, nil) }
            case .failed(let error): return stranded.map { ($0, error) } + others.map { ($0, nil) }
            }
        }
        for (waiter, error) in waiters {
            if let error { waiter.continuation.resume(throwing: error) } else { waiter.continuation.resume() }
        }
        if let commitError { throw .file(commitError) }
    }

    /// Removes and returns the waiters of `key` that `shouldWake` selects. Lock held.
    func takeWaiters(of key: String, in state: inout StoreState, where shouldWake: (Waiter) -> Bool) -> [Waiter] {
        guard let waiting = state.waiters[key] else { return [] }
        var woken: [Waiter] = []
        var kept: [Waiter] = []
        for waiter in waiting {
            if shouldWake(waiter) { woken.append(waiter) } else { kept.append(waiter) }
        }
        state.waiters[key] = kept.isEmpty ? nil : kept
        return woken
    }
}
