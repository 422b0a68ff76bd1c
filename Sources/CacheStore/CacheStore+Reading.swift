import SparseFile

extension CacheStore {
    /// A reader of `key`'s bytes. The entry need not exist yet: a reader can follow a fill that
    /// has only been claimed.
    public func reader(for key: String) -> EntryReader {
        EntryReader(key: key, store: self)
    }

    /// A value that changes whenever any entry's file may have changed (an entry created,
    /// replaced or removed, or its file opened again), read without the store's lock. A caller
    /// that looked up an entry's file may keep using it for that key, instead of looking it up
    /// again, while this value stays the same. `package`: the reference proxy's per-connection
    /// file cache on its hit path; a server that reads through ``EntryReader`` never needs it.
    package var entriesRevision: UInt64 {
        revision.current
    }

    func recordServed(_ count: UInt64) {
        bytesServedSinceOpen.add(count, ordering: .relaxed)
    }

    private enum WaitDecision: Sendable {
        case available(UInt64)
        case waiting
        case missing([ByteRange])
        case closed
        case cancelled
    }

    func waitForBytes(key: String, at offset: UInt64) async throws -> UInt64 {
        while true {
            try Task.checkCancellation()
            let identifier = locked { $0.makeIdentifier() }
            var available: UInt64 = 0
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let decision = withEntryFile(key) { state, file -> WaitDecision in
                        guard !state.isClosed else { return .closed }
                        if let file {
                            let count = file.cachedLength(from: offset)
                            if count > 0 { return .available(count) }
                        }
                        let covered = state.fills[key]?.contains { fill in fill.position <= offset && offset < fill.end } ?? false
                        guard covered else {
                            // The gap runs to the next fill, or to the end of the resource.
                            let end = state.fills[key]?.map(\.start).filter { $0 > offset }.min()
                                ?? state.records[key]?.contentLength ?? UInt64.max
                            return .missing([ByteRange(from: offset, to: max(end, offset))].compactMap { $0 })
                        }
                        // A cancellation that came after the check above (while the file was
                        // opened, say) found no waiter to resume: it must not be lost. The
                        // cancellation handler takes this lock, so it runs before or after this.
                        if Task.isCancelled { return .cancelled }
                        state.waiters[key, default: []].append(Waiter(identifier: identifier, offset: offset, continuation: continuation))
                        return .waiting
                    }
                    switch decision {
                    case .available(let count):
                        available = count
                        continuation.resume()
                    case .waiting:
                        break
                    case .missing(let ranges):
                        let list = ranges.map(\.description).joined(separator: ", ")
                        continuation.resume(throwing: CacheStoreError(.notCached, "\(key): bytes \(list) are not cached", missing: ranges))
                    case .closed:
                        continuation.resume(throwing: CacheStoreError(.closed, "the store is closed"))
                    case .cancelled:
                        continuation.resume(throwing: CancellationError())
                    }
                }
            } onCancel: {
                locked { state in
                    for waiter in takeWaiters(of: key, in: &state, where: { $0.identifier == identifier }) {
                        state.actions.append(.resume(waiter, CancellationError()))
                    }
                }
            }
            if available > 0 { return available }
        }
    }
}

extension CacheStore {
    /// Counts a request the cache answered entirely without a ``claim(key:range:)``, and marks
    /// the entry used. Its bytes are counted as they are served: by ``EntryReader/read(into:at:)``,
    /// or ``EntryReader/recordServed(_:)`` for bytes sent straight from the file. `package`: the
    /// reference proxy's hit path, which answers without claiming; a server that claims every
    /// request has its hits counted by ``claim(key:range:counts:)``.
    package func recordHit(key: String) {
        locked { state in
            state.statistics.hits += 1
            state.touch(key, at: WallClock.milliseconds())
        }
    }
}
