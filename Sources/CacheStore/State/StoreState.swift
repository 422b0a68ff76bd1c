import SparseFile

/// Everything a store keeps in memory, behind its one lock.
struct StoreState {
    var records: [String: EntryRecord] = [:]
    /// Which key owns each file name (a hash collision hands the name to the newest key).
    var owners: [String: String] = [:]
    var totalBytes: UInt64 = 0
    var files = OpenFiles()
    var fills: [String: [InFlightFill]] = [:]
    var waiters: [String: [Waiter]] = [:]
    var statistics = StoreStatistics()
    var accessSequence: UInt64 = 0
    var nextIdentifier: UInt64 = 0
    var isDirty = false
    var isClosed = false
    let revision = EntriesRevision()
    var space = FreeSpace(minimum: 0)
    /// File names with I/O in flight outside the lock (an open, a creation, a removal). Whoever
    /// needs such a name waits for its gate, which opens when the last of them ends.
    var busyNames: [String: NameActivity] = [:]
    /// What the locked section that is running leaves for after the lock (``StoreAction``).
    var actions: [StoreAction] = []

    mutating func takeActions() -> [StoreAction] {
        let released = files.takeReleased()
        guard !actions.isEmpty || !released.isEmpty else { return [] }
        defer { actions.removeAll() }
        return actions + released.map(StoreAction.release)
    }

    mutating func makeIdentifier() -> UInt64 {
        nextIdentifier += 1
        return nextIdentifier
    }

    mutating func insert(_ record: EntryRecord) {
        revision.advance()
        if let old = records[record.key] { totalBytes -= old.diskBytes }
        records[record.key] = record
        owners[record.fileName] = record.key
        totalBytes += record.diskBytes
    }

    @discardableResult
    mutating func removeRecord(_ key: String) -> EntryRecord? {
        guard let record = records.removeValue(forKey: key) else { return nil }
        revision.advance()
        totalBytes -= record.diskBytes
        if owners[record.fileName] == key { owners[record.fileName] = nil }
        files.forget(key)
        return record
    }

    /// Holds `file` as the open file of `key`'s entry.
    mutating func open(_ file: SparseFile, for key: String) {
        revision.advance()
        files.insert(file, for: key)
    }

    // MARK: Files with I/O in flight

    /// What a caller that needs the file of `key`'s entry does next.
    enum FileLookup {
        /// The file is open: use it.
        case open(SparseFile)
        /// There is no entry.
        case absent
        /// Someone is doing I/O on the entry's file name: wait for the gate, then look again.
        case wait(Gate)
        /// Open the file (outside the lock); the name is marked busy until that ends.
        case mustOpen(fileName: String)
    }

    mutating func lookUpFile(_ key: String) -> FileLookup {
        guard let record = records[key] else { return .absent }
        if let file = files.file(for: key) { return .open(file) }
        if let busy = busyNames[record.fileName] { return .wait(busy.gate) }
        beginActivity(on: record.fileName)
        return .mustOpen(fileName: record.fileName)
    }

    /// The gate to wait for when `fileName` has I/O in flight.
    func gate(of fileName: String) -> Gate? { busyNames[fileName]?.gate }

    mutating func beginActivity(on fileName: String) {
        busyNames[fileName, default: NameActivity()].operations += 1
    }

    mutating func endActivity(on fileName: String) {
        guard var activity = busyNames[fileName] else { return }
        activity.operations -= 1
        if activity.operations > 0 {
            busyNames[fileName] = activity
        } else {
            busyNames[fileName] = nil
            actions.append(.open(activity.gate))
        }
    }

    mutating func touch(_ key: String, at now: UInt64) {
        // One lookup: a hit touches its entry, and hashing the key is most of the cost.
        guard let index = records.index(forKey: key) else { return }
        accessSequence += 1
        records.values[index].lastAccess = now
        records.values[index].accessSequence = accessSequence
        isDirty = true
    }

    mutating func updateSize(of key: String, diskBytes: UInt64, cachedBytes: UInt64, contentLength: UInt64?) {
        guard var record = records[key] else { return }
        totalBytes = totalBytes - record.diskBytes + diskBytes
        record.diskBytes = diskBytes
        record.cachedBytes = cachedBytes
        record.contentLength = contentLength
        records[key] = record
        isDirty = true
    }

    func hasActiveFills(_ key: String) -> Bool { !(fills[key]?.isEmpty ?? true) }
}

/// The I/O in flight on one file name.
struct NameActivity {
    var operations = 0
    let gate = Gate()
}

/// A fill in progress: bytes `[position, end)` are still to come.
struct InFlightFill {
    var identifier: UInt64
    var start: UInt64
    var position: UInt64
    var end: UInt64

    var pending: ByteRange? { ByteRange(from: position, to: end) }
}

/// A reader waiting for bytes at `offset` of a key.
struct Waiter {
    var identifier: UInt64
    var offset: UInt64
    var continuation: CheckedContinuation<Void, any Error>
}

/// The entry files the store has open. Each key has at most one `SparseFile` in the process
/// (its writer, which readers share so they see appended bytes at once): recent ones are held,
/// and any still referenced elsewhere are found again through a weak reference.
struct OpenFiles {
    private struct WeakFile {
        weak var file: SparseFile?
    }

    private var weak: [String: WeakFile] = [:]
    private var recent: [String: SparseFile] = [:]
    private var order: [String] = []
    private var released: [SparseFile] = []
    static let keepOpen = 64

    mutating func file(for key: String) -> SparseFile? {
        if let file = recent[key] { return file }
        guard let file = weak[key]?.file else {
            weak[key] = nil
            return nil
        }
        hold(key, file)
        return file
    }

    mutating func insert(_ file: SparseFile, for key: String) {
        weak[key] = WeakFile(file: file)
        hold(key, file)
    }

    /// Forgets the store's references; readers holding the file keep it open (POSIX unlink
    /// semantics keep the bytes readable until they let go).
    mutating func forget(_ key: String) {
        weak[key] = nil
        order.removeAll { $0 == key }
        if let file = recent.removeValue(forKey: key) { released.append(file) }
    }

    /// The files the store stopped holding, for the caller to let go of outside the lock: the
    /// last reference going away closes a file.
    mutating func takeReleased() -> [SparseFile] {
        defer { released.removeAll() }
        return released
    }

    var all: [SparseFile] { Array(recent.values) + weak.values.compactMap(\.file).filter { file in !recent.values.contains { $0 === file } } }

    private mutating func hold(_ key: String, _ file: SparseFile) {
        guard recent.updateValue(file, forKey: key) == nil else { return }
        order.append(key)
        if order.count > Self.keepOpen, let pushedOut = recent.removeValue(forKey: order.removeFirst()) {
            released.append(pushedOut)
        }
    }
}
