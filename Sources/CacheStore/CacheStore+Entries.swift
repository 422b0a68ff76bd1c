import SparseFile

extension CacheStore {
    /// The default file name of a key: 128 bits of XXH3 (two seeds) in hex, sharded by its
    /// first byte. The full key is in the file's header and checked on open, so a collision
    /// can only ever cost a miss.
    static func defaultFileName(for key: String) -> String {
        let bytes = Array(key.utf8)
        let high = Checksum.of(bytes, seed: 0x6B65_795F_6869)
        let low = Checksum.of(bytes, seed: 0x6B65_795F_6C6F)
        let hex = hexadecimal(high) + hexadecimal(low)
        return String(hex.prefix(2)) + "/" + hex + ".scf"
    }

    private static func hexadecimal(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    func fileName(for key: String) -> String {
        configuration.fileNameFunction?(key) ?? Self.defaultFileName(for: key)
    }

    /// Creates the file of a new entry, outside the lock (the caller marked `fileName` busy).
    /// A stale file nobody owns (a stray, or left by a crash) gives way.
    func createEntryFile(
        for key: String, fileName: String, metadata: EntryMetadata, expires: UInt64?
    ) throws(CacheStoreError) -> (file: SparseFile, diskBytes: UInt64) {
        var attributes: [String: String] = [:]
        if let expires { attributes[EntryAttribute.expires] = String(expires) }
        let resource = ResourceMetadata(key: key, contentLength: metadata.contentLength, entityTag: metadata.entityTag,
                                        lastModified: metadata.lastModified, contentType: metadata.contentType,
                                        attributes: attributes)
        let path = layout.path(ofEntry: fileName)
        do {
            try Directory.make(layout.entriesPath + "/" + String(fileName.prefix(2)), calls: layout.calls)
            layout.remove(path)
            let file = try SparseFile.create(at: path, metadata: resource, options: configuration.fileOptions)
            return (file, (try? file.allocatedBytes) ?? 0)
        } catch {
            throw .file(error)
        }
    }

    /// Records a new entry whose file was just created. Lock held.
    func insertEntry(
        _ key: String, fileName: String, file: SparseFile, diskBytes: UInt64, metadata: EntryMetadata,
        expires: UInt64?, now: UInt64, in state: inout StoreState
    ) {
        state.accessSequence += 1
        state.insert(EntryRecord(
            key: key, fileName: fileName, diskBytes: diskBytes, cachedBytes: 0, contentLength: metadata.contentLength,
            lastAccess: now, accessSequence: state.accessSequence, pinned: false, expires: expires, headLimit: nil,
            fileSize: 0, modified: 0))
        state.open(file, for: key)
        state.isDirty = true
    }

    func expiry(for metadata: EntryMetadata, from now: UInt64) -> UInt64? {
        guard let ttl = metadata.timeToLive ?? configuration.defaultTimeToLive else { return nil }
        let (seconds, attoseconds) = ttl.components
        return now + UInt64(max(0, seconds)) * 1000 + UInt64(max(0, attoseconds) / 1_000_000_000_000_000)
    }

    /// Removes an entry: its fills fail, its followers wake with an error, its file is unlinked
    /// once the lock is released (readers that hold it keep reading). Lock held; returns the
    /// bytes freed.
    @discardableResult
    func removeEntry(_ key: String, in state: inout StoreState, reason: String) -> UInt64 {
        guard let record = state.removeRecord(key) else { return 0 }
        let error = CacheStoreError(.entryReplaced, "entry \(key) was removed: \(reason)")
        state.fills[key] = nil
        for waiter in state.waiters.removeValue(forKey: key) ?? [] {
            state.actions.append(.resume(waiter, error))
        }
        // The name stays busy until the file is gone, so that a new file of the same name is
        // never created before the old one is unlinked.
        state.beginActivity(on: record.fileName)
        state.actions.append(.remove(fileName: record.fileName))
        state.space.didFree(record.diskBytes)
        state.isDirty = true
        return record.diskBytes
    }

    /// Whether an entry is expired and may be dropped now (no fill is writing it).
    func dropIfExpired(_ key: String, in state: inout StoreState, now: UInt64) {
        guard let record = state.records[key], record.isExpired(at: now), !state.hasActiveFills(key) else { return }
        removeEntry(key, in: &state, reason: "expired")
        state.statistics.evictions += 1
    }

    /// Records an entry's sizes after its file grew; `diskBytes` was measured outside the lock.
    func updateSize(of key: String, file: SparseFile, diskBytes: UInt64?, in state: inout StoreState) {
        guard let diskBytes = diskBytes ?? state.records[key]?.diskBytes else { return }
        state.updateSize(of: key, diskBytes: diskBytes, cachedBytes: file.cachedByteCount, contentLength: file.contentLength)
    }
}
