import SparseFile

/// The store's lock discipline: decide under the lock, act outside it. A locked section changes
/// the in-memory state and queues what must follow (``StoreAction``): unlinking files, resuming
/// waiters, letting go of files. Opening and creating entry files happens between two locked
/// sections, with the file's name marked busy so that only callers that need that file wait.
extension CacheStore {
    /// Runs `body` under the store's lock, then performs the actions it queued once the lock is
    /// released.
    func locked<Result: Sendable, Failure: Error>(
        _ body: (inout StoreState) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let (result, actions) = state.withLock { state in
            (Swift.Result { () throws(Failure) in try body(&state) }, state.takeActions())
        }
        perform(actions)
        return try result.get()
    }

    private func perform(_ actions: [StoreAction]) {
        for action in actions {
            switch action {
            case .resume(let waiter, let error?):
                waiter.continuation.resume(throwing: error)
            case .resume(let waiter, nil):
                waiter.continuation.resume()
            case .remove(let fileName):
                layout.remove(layout.path(ofEntry: fileName))
                locked { $0.endActivity(on: fileName) }
            case .release:
                break  // the last reference may go with `actions`, after the lock
            case .open(let gate):
                gate.open()
            }
        }
    }

    /// What a locked section that needs an entry's file decided.
    private enum FileStep<Result: Sendable>: Sendable {
        case done(Result)
        case wait(Gate)
        case open(fileName: String)
    }

    /// Runs `body` under the lock with the file of `key`'s entry, or nil when there is no entry.
    /// When the entry's file is not open, it is opened first, outside the lock; when another
    /// caller is doing I/O on it, this one waits for that to end. Either way only callers that
    /// need this file wait.
    func withEntryFile<Result: Sendable, Failure: Error>(
        _ key: String, _ body: (inout StoreState, SparseFile?) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        while true {
            let step = try locked { state throws(Failure) -> FileStep<Result> in
                switch state.lookUpFile(key) {
                case .open(let file): return .done(try body(&state, file))
                case .absent: return .done(try body(&state, nil))
                case .wait(let gate): return .wait(gate)
                case .mustOpen(let fileName): return .open(fileName: fileName)
                }
            }
            switch step {
            case .done(let result): return result
            case .wait(let gate): gate.wait()
            case .open(let fileName): openEntryFile(key: key, fileName: fileName)
            }
        }
    }

    /// The open file of `key`'s entry (opening it if needed), or nil when there is no entry.
    func entryFile(for key: String) -> SparseFile? {
        withEntryFile(key) { _, file in file }
    }

    /// Opens the file of an existing entry, whose name the caller marked busy, and holds it for
    /// the entry. A file that is gone or no longer holds the key costs the entry (the file stays).
    func openEntryFile(key: String, fileName: String) {
        // A closed store has let go of its files' write locks and must not take them again.
        let writable = isWritable && !locked { $0.isClosed }
        let opened = Swift.Result { () throws(SparseFileError) in
            try SparseFile.open(at: layout.path(ofEntry: fileName), mode: writable ? .readWrite : .readOnly,
                                expectedKey: key, options: configuration.fileOptions)
        }
        locked { state in
            state.endActivity(on: fileName)
            // Closed meanwhile: the caller looks again and opens the file read-only.
            if writable, state.isClosed { return }
            guard state.records[key]?.fileName == fileName else {
                // The entry went away meanwhile; the file goes with `opened`, after the lock.
                return
            }
            switch opened {
            case .success(let file):
                state.open(file, for: key)
            case .failure:
                state.removeRecord(key)
                state.isDirty = true
            }
        }
    }
}
