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

    /// The open file of an existing entry (opening it if needed); nil when there is no entry or
    /// its file is gone or no longer holds the key (then the entry is dropped). Called with the
    /// lock held.
    func existingFile(for key: String, in state: inout StoreState) -> SparseFile? {
        guard let record = state.records[key] else { return nil }
        if let file = state.files.file(for: key) { return file }
        do {
            let file = try SparseFile.open(at: layout.path(ofEntry: record.fileName), mode: isWritable ? .readWrite : .readOnly,
                                           expectedKey: key, options: configuration.fileOptions)
            state.open(file, for: key)
            return file
        } catch {
            state.removeRecord(key)
            state.isDirty = true
            return nil
        }
    }

    /// Creates the file of a new entry. A file name owned by another key (a hash collision) is
    /// taken over: the older entry is removed. Called with the lock held.
    func createEntry(for key: String, metadata: EntryMetadata, in state: inout StoreState) throws(CacheStoreError) -> SparseFile {
        let fileName = fileName(for: key)
        if let owner = state.owners[fileName], owner != key {
            removeEntry(owner, in: &state, reason: "its file name was taken by a colliding key")
        }
        let path = layout.path(ofEntry: fileName)
        let shard = layout.entriesPath + "/" + String(fileName.prefix(2))
        let now = WallClock.milliseconds()
        var attributes: [String: String] = [:]
        let expires = expiry(for: metadata, from: now)
        if let expires { attributes[EntryAttribute.expires] = String(expires) }
        let resource = ResourceMetadata(key: key, contentLength: metadata.contentLength, entityTag: metadata.entityTag,
                                        lastModified: metadata.lastModified, contentType: metadata.contentType,
                                        attributes: attributes)
        let file: SparseFile
        do {
            try Directory.make(shard, calls: layout.calls)
            layout.remove(path)  // a stale file nobody owns (a stray, or left by a crash) gives way
            file = try SparseFile.create(at: path, metadata: resource, options: configuration.fileOptions)
        } catch {
            throw .file(error)
        }
        state.accessSequence += 1
        state.insert(EntryRecord(
            key: key, fileName: fileName, diskBytes: (try? file.allocatedBytes) ?? 0, cachedBytes: 0,
            contentLength: metadata.contentLength, lastAccess: now, accessSequence: state.accessSequence,
            pinned: false, expires: expires, headLimit: nil, fileSize: 0, modified: 0))
        state.open(file, for: key)
        state.isDirty = true
        return file
    }

    func expiry(for metadata: EntryMetadata, from now: UInt64) -> UInt64? {
        guard let ttl = metadata.timeToLive ?? configuration.defaultTimeToLive else { return nil }
        let (seconds, attoseconds) = ttl.components
        return now + UInt64(max(0, seconds)) * 1000 + UInt64(max(0, attoseconds) / 1_000_000_000_000_000)
    }

    /// Removes an entry: its fills fail, its followers wake with an error, its file is unlinked
    /// (readers that hold it keep reading). Called with the lock held; returns the bytes freed.
    @discardableResult
    func removeEntry(_ key: String, in state: inout StoreState, reason: String) -> UInt64 {
        guard let record = state.removeRecord(key) else { return 0 }
        let error = CacheStoreError(.entryReplaced, "entry \(key) was removed: \(reason)")
        state.fills[key] = nil
        for waiter in state.waiters.removeValue(forKey: key) ?? [] {
            waiter.continuation.resume(throwing: error)
        }
        layout.remove(layout.path(ofEntry: record.fileName))
        state.isDirty = true
        return record.diskBytes
    }

    /// Whether an entry is expired and may be dropped now (no fill is writing it).
    func dropIfExpired(_ key: String, in state: inout StoreState, now: UInt64) {
        guard let record = state.records[key], record.isExpired(at: now), !state.hasActiveFills(key) else { return }
        removeEntry(key, in: &state, reason: "expired")
        state.statistics.evictions += 1
    }

    /// Re-reads an entry's sizes after its file grew.
    func refreshSize(of key: String, file: SparseFile, in state: inout StoreState) {
        let diskBytes = (try? file.allocatedBytes) ?? state.records[key]?.diskBytes ?? 0
        state.updateSize(of: key, diskBytes: diskBytes, cachedBytes: file.cachedByteCount, contentLength: file.contentLength)
    }
}
