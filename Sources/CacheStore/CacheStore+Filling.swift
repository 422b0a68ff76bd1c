import SparseFile

extension CacheStore {
    enum FillOutcome {
        case finished(resourceEnded: Bool)
        case failed(CacheStoreError)
    }

    /// What a fill's start decided under the lock.
    private enum FillStart: Sendable {
        case use(SparseFile)
        case wait(Gate)
        case open(fileName: String)
        case create(fileName: String)
    }

    /// Room a new entry's file takes before any data: its slots and first checksum page.
    static let newEntryBytes: UInt64 = 16 << 10

    /// Creates the entry, or checks its validators against `metadata` and replaces it when they
    /// differ; fills in what the entry did not know yet (length, type, validators).
    func startFill(key: String, identifier: UInt64, metadata: EntryMetadata) throws(CacheStoreError) -> SparseFile {
        try retryingWhenDiskFull(needing: Self.newEntryBytes, protecting: key) { () throws(CacheStoreError) in
            try startFillOnce(key: key, identifier: identifier, metadata: metadata)
        }
    }

    private func startFillOnce(key: String, identifier: UInt64, metadata: EntryMetadata) throws(CacheStoreError) -> SparseFile {
        measureSpaceIfDue()
        while true {
            let step = try locked { state throws(CacheStoreError) -> FillStart in
                guard !state.isClosed else { throw CacheStoreError(.closed, "the store is closed") }
                guard state.fills[key]?.contains(where: { $0.identifier == identifier }) == true else {
                    throw CacheStoreError(.entryReplaced, "the fill of \(key) was cancelled: its entry was replaced or removed")
                }
                var lookup = state.lookUpFile(key)
                if case .open(let file) = lookup {
                    let existing = file.metadata
                    let known = EntryMetadata(contentLength: existing.contentLength, entityTag: existing.entityTag,
                                              lastModified: existing.lastModified)
                    if known.isCompatible(with: metadata) { return .use(file) }
                    // The resource changed at the origin: old bytes must never mix with new ones.
                    let fills = state.fills[key]?.filter { $0.identifier == identifier } ?? []
                    removeEntry(key, in: &state, reason: "its validators changed at the origin")
                    state.fills[key] = fills
                    lookup = .absent
                }
                switch lookup {
                case .open(let file):
                    return .use(file)
                case .wait(let gate):
                    return .wait(gate)
                case .mustOpen(let fileName):
                    return .open(fileName: fileName)
                case .absent:
                    let fileName = fileName(for: key)
                    if let owner = state.owners[fileName], owner != key {
                        removeEntry(owner, in: &state, reason: "its file name was taken by a colliding key")
                    }
                    if let gate = state.gate(of: fileName) { return .wait(gate) }
                    try keepFreeSpace(for: Self.newEntryBytes, protecting: key, in: &state)
                    state.beginActivity(on: fileName)
                    return .create(fileName: fileName)
                }
            }
            switch step {
            case .use(let file):
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
                locked { state in trimFills(of: key, to: file.contentLength, in: &state) }
                return file
            case .wait(let gate):
                gate.wait()
            case .open(let fileName):
                openEntryFile(key: key, fileName: fileName)
            case .create(let fileName):
                return try createEntry(key, identifier: identifier, fileName: fileName, metadata: metadata)
            }
        }
    }

    /// Creates the file of a new entry outside the lock, then records the entry unless its fill
    /// was cancelled meanwhile (the file is then removed again).
    private func createEntry(
        _ key: String, identifier: UInt64, fileName: String, metadata: EntryMetadata
    ) throws(CacheStoreError) -> SparseFile {
        let now = WallClock.milliseconds()
        let expires = expiry(for: metadata, from: now)
        let created = Result { () throws(CacheStoreError) in
            try createEntryFile(for: key, fileName: fileName, metadata: metadata, expires: expires)
        }
        return try locked { state throws(CacheStoreError) in
            let (file, diskBytes): (SparseFile, UInt64)
            do throws(CacheStoreError) {
                (file, diskBytes) = try created.get()
            } catch {
                state.endActivity(on: fileName)
                throw error
            }
            guard state.fills[key]?.contains(where: { $0.identifier == identifier }) == true else {
                state.actions.append(.remove(fileName: fileName))  // ends the name's activity
                throw CacheStoreError(.entryReplaced, "the fill of \(key) was cancelled: its entry was replaced or removed")
            }
            state.endActivity(on: fileName)
            insertEntry(key, fileName: fileName, file: file, diskBytes: diskBytes, metadata: metadata,
                        expires: expires, now: now, in: &state)
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
        // Room for the bytes, the blocks they touch and a header's growth.
        let incoming = UInt64(bytes.count) + 3 * 4096
        try retryingWhenDiskFull(needing: incoming, protecting: key) { () throws(CacheStoreError) in
            measureSpaceIfDue()
            try locked { state throws(CacheStoreError) in
                guard !state.isClosed else { throw CacheStoreError(.closed, "the store is closed") }
                guard state.fills[key]?.contains(where: { $0.identifier == identifier }) == true, state.records[key] != nil else {
                    throw CacheStoreError(.entryReplaced, "the entry \(key) was replaced or removed during its fill")
                }
                try makeRoom(for: incoming, protecting: key, in: &state)
                try keepFreeSpace(for: incoming, protecting: key, in: &state)
            }
            do throws(SparseFileError) {
                try file.write(bytes, at: offset)
            } catch {
                throw .file(error)
            }
        }
        let diskBytes = try? file.allocatedBytes
        locked { state in
            state.space.didWrite(UInt64(bytes.count))
            state.space.isDiskFull = false
            guard let index = state.fills[key]?.firstIndex(where: { $0.identifier == identifier }) else { return }
            state.fills[key]?[index].position = offset + UInt64(bytes.count)
            state.statistics.bytesFromOrigin += UInt64(bytes.count)
            updateSize(of: key, file: file, diskBytes: diskBytes, in: &state)
            state.touch(key, at: WallClock.milliseconds())
            for waiter in takeWaiters(of: key, in: &state, where: { $0.offset < offset + UInt64(bytes.count) }) {
                state.actions.append(.resume(waiter, nil))
            }
            // The estimate is generous, but the store must never stay over its limit.
            try? makeRoom(for: 0, protecting: key, in: &state)
        }
    }

    func endFill(key: String, identifier: UInt64, file: SparseFile?, outcome: FillOutcome) throws(CacheStoreError) {
        var commitError: CacheStoreError?
        var diskBytes: UInt64?
        if let file, file.isWritable {
            if case .finished(true) = outcome {
                let length = locked { state in
                    state.fills[key]?.first(where: { $0.identifier == identifier })?.position
                }
                if let length, file.contentLength == nil {
                    try? file.updateMetadata { $0.contentLength = length }
                }
            }
            do throws(CacheStoreError) {
                try retryingWhenDiskFull(needing: 3 * 4096, protecting: key) { () throws(CacheStoreError) in
                    do throws(SparseFileError) { try file.commit() } catch { throw .file(error) }
                }
            } catch {
                commitError = error
            }
            diskBytes = try? file.allocatedBytes
        }
        locked { state in
            guard let fill = state.fills[key]?.first(where: { $0.identifier == identifier }) else { return }
            state.fills[key]?.removeAll { $0.identifier == identifier }
            if state.fills[key]?.isEmpty == true { state.fills[key] = nil }
            if let file, state.records[key] != nil { updateSize(of: key, file: file, diskBytes: diskBytes, in: &state) }
            // Followers of the part this fill never wrote wake up: they re-plan, or get the error.
            // That includes followers past a fill trimmed to the resource's length when it
            // started, unless another fill still covers them.
            let remaining = state.fills[key] ?? []
            let stranded = takeWaiters(of: key, in: &state) { waiter in
                waiter.offset >= fill.position && (waiter.offset < fill.end
                    || !remaining.contains { $0.position <= waiter.offset && waiter.offset < $0.end })
            }
            let others = takeWaiters(of: key, in: &state) { $0.offset < fill.position }
            var failure: CacheStoreError?
            if case .failed(let error) = outcome { failure = error }
            state.actions += stranded.map { .resume($0, failure) } + others.map { .resume($0, nil) }
        }
        if let commitError { throw commitError }
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
