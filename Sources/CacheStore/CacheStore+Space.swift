import SparseFile

/// Room on the store's volume: the minimum free space kept whatever the size limit says, and
/// what a write that finds the disk full does.
extension CacheStore {
    /// The free space of the store's volume (measured now) and whether the disk was found full.
    public var space: StoreSpace {
        let free = VolumeStatus(path: directory, calls: layout.calls)?.availableBytes
        return state.withLock { state in
            StoreSpace(freeBytes: free, minimumFreeBytes: state.space.minimum, diskFull: state.space.isDiskFull)
        }
    }

    /// Measures the volume's free space when a measurement is due, with `statvfs` outside the lock.
    func measureSpaceIfDue() {
        guard let measurement = locked({ $0.space.beginMeasurementIfDue(now: WallClock.milliseconds()) }) else { return }
        let free = VolumeStatus(path: directory, calls: layout.calls)?.availableBytes
        locked { $0.space.record(free, for: measurement, now: WallClock.milliseconds()) }
    }

    /// Keeps the minimum free space with `incoming` more bytes written: evicts (in eviction
    /// order, never pinned or busy entries, nor `protecting`) while the volume would have less.
    /// Nothing is evicted for a write that would not fit even then. Lock held.
    ///
    /// - Throws: `CacheStoreError.Code.diskFull` when evicting cannot make enough room.
    func keepFreeSpace(for incoming: UInt64, protecting: String?, in state: inout StoreState) throws(CacheStoreError) {
        guard !state.space.hasRoom(for: incoming) else { return }
        let evictable = evictable(in: state, protecting: protecting).reduce(UInt64(0)) { $0 + $1.diskBytes }
        var afterEvicting = state.space
        afterEvicting.didFree(evictable)
        guard afterEvicting.hasRoom(for: incoming) else {
            state.space.isDiskFull = true
            throw CacheStoreError(.diskFull, "\(directory): the disk is full: about \(state.space.estimate ?? 0) bytes free, the store keeps \(state.space.minimum) free and cannot make room for \(incoming) more by evicting")
        }
        evict(in: &state, until: { $0.space.hasRoom(for: incoming) }, protecting: protecting)
    }

    /// Runs `write`; when the disk says it is full (`ENOSPC`, `EDQUOT`), evicts entries worth at
    /// least `incoming` bytes (never pinned or busy ones, nor `protecting`), has the free space
    /// measured again, and runs `write` once more. When that fails too, the disk counts as full.
    func retryingWhenDiskFull<Result>(
        needing incoming: UInt64, protecting: String, _ write: () throws(CacheStoreError) -> Result
    ) throws(CacheStoreError) -> Result {
        do {
            return try write()
        } catch where error.code == .diskFull && error.fileError != nil {
            locked { state in
                let before = state.totalBytes
                evict(in: &state, until: { before - $0.totalBytes >= incoming }, protecting: protecting)
                state.space.measureSoon()
            }
            do {
                return try write()
            } catch where error.code == .diskFull {
                locked { $0.space.isDiskFull = true }
                throw error
            }
        }
    }
}
