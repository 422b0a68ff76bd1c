import SparseFile
import Synchronization

/// A directory of sparse cache files: the storage a caching proxy is built on.
///
/// A store answers "which bytes of this URL do I have" (``plan(key:range:)``), hands out
/// the missing pieces to fetch so that concurrent requests coalesce into one upstream fetch
/// (``claim(key:range:)``), stores fetched bytes while readers follow them
/// (``FillHandle``, ``EntryReader``), and keeps itself under a size limit by evicting the
/// least recently used entries. One process writes a store (it holds `DIR/lock`); others may
/// open it read-only.
///
/// ```swift
/// let store = try CacheStore.open(at: "/var/cache/videos", configuration: .init(maximumSize: 10 << 30))
/// let claim = try store.claim(key: url, range: requested)
/// for fill in claim.fills { Task { try await fetch(fill) } }   // only the gaps
/// let reader = try store.reader(for: url)
/// for try await chunk in reader.bytes(in: requested) { send(chunk) }
/// ```
public final class CacheStore: Sendable {
    /// The store directory.
    public var directory: String { layout.root }
    /// Whether this process writes the store (and holds its lock).
    public let isWritable: Bool
    /// The size limit in bytes of allocated disk space.
    public let maximumSize: UInt64
    /// What opening found: entries, files rebuilt from their headers, files dropped.
    public let openReport: OpenReport

    let layout: StoreDirectory
    let configuration: CacheStoreConfiguration
    let state: Mutex<StoreState>
    /// Bytes served from the cache since the store was opened: counted on every read, so kept
    /// out of the lock (added to ``StoreStatistics/bytesFromCache`` when the counters are read).
    let bytesServedSinceOpen = Atomic<UInt64>(0)
    /// The state's revision counter, reachable without taking the lock.
    let revision: EntriesRevision
    /// The open lock file while this process writes the store (closing it releases the lock).
    private let lockFile: Mutex<FileDescriptor?>
    private let flusher: Mutex<Task<Void, Never>?>

    private init(
        layout: StoreDirectory, isWritable: Bool, maximumSize: UInt64, configuration: CacheStoreConfiguration,
        state: StoreState, report: OpenReport, lockFile: FileDescriptor?
    ) {
        self.layout = layout
        self.isWritable = isWritable
        self.maximumSize = maximumSize
        self.configuration = configuration
        self.revision = state.revision
        self.state = Mutex(state)
        self.openReport = report
        self.lockFile = Mutex(lockFile)
        self.flusher = Mutex(nil)
    }

    /// Opens (creating when missing) the store at `directory`.
    ///
    /// Opening never fails because of what is in the directory: entries are found from the saved
    /// index, entries whose files changed since are re-read from their headers, files that are
    /// corrupt are deleted, and files that are not cache files are left alone; all of it is
    /// listed in ``openReport``.
    ///
    /// - Throws: `CacheStoreError.Code.locked` when another process has the store open for
    ///   writing (read-only opens are always possible).
    public static func open(
        at directory: String, configuration: CacheStoreConfiguration = CacheStoreConfiguration(),
        readOnly: Bool = false
    ) throws(CacheStoreError) -> CacheStore {
        let layout = StoreDirectory(root: directory, calls: configuration.fileOptions.systemCalls)
        guard configuration.lowWatermark > 0, configuration.lowWatermark <= configuration.highWatermark,
              configuration.highWatermark <= 1 else {
            throw CacheStoreError(.invalidArgument, "watermarks must satisfy 0 < low <= high <= 1")
        }
        var lock: FileDescriptor?
        if !readOnly {
            try layout.create()
            lock = try layout.acquireWriterLock()
            layout.remove(layout.controlPath)  // left by a writer that died
        }
        let maximumSize = configuration.maximumSize ?? layout.readMaximumSize() ?? CacheStoreConfiguration.defaultMaximumSize
        if !readOnly, let requested = configuration.maximumSize, requested != layout.readMaximumSize() {
            // Kept for later opens; a full disk costs only that.
            try? layout.writeMaximumSize(requested)
        }
        var (state, report) = StoreLoader(layout: layout, readOnly: readOnly, options: configuration.fileOptions).load()
        let volumeSize = VolumeStatus(path: directory, calls: layout.calls)?.totalBytes ?? 0
        state.space = FreeSpace(minimum: configuration.minimumFreeSpace
            ?? CacheStoreConfiguration.defaultMinimumFreeSpace(volumeSize: volumeSize))
        let store = CacheStore(layout: layout, isWritable: !readOnly, maximumSize: maximumSize, configuration: configuration,
                               state: state, report: report, lockFile: lock)
        if !readOnly {
            // The index is a shortcut for the next open: on a full disk the store opens without
            // saving it, and the background flush tries again.
            try? store.saveIndex()
            store.startFlushing()
        }
        return store
    }

    /// Creates a store directory with a size limit that later opens use by default.
    public static func create(at directory: String, maximumSize: UInt64) throws(CacheStoreError) {
        let layout = StoreDirectory(root: directory, calls: .live)
        try layout.create()
        let lock = try layout.acquireWriterLock()
        try layout.writeMaximumSize(maximumSize)
        withExtendedLifetime(lock) {}
    }

    /// Saves the index and counters, commits open entry files, and releases the writer lock and
    /// the entry files, so that the store can be opened for writing again, in this process too
    /// (a file stays open, and locked, only while something else still holds it: a fill that is
    /// still running fails at its next write). Later claims and writes fail with
    /// `CacheStoreError.Code.closed`; reads still work, from files opened read-only. Closing a
    /// closed store does nothing: the directory may have another writer by then.
    public func close() throws(CacheStoreError) {
        let (files, wasClosed) = state.withLock { state -> ([SparseFile], Bool) in
            defer { state.isClosed = true }
            return (state.files.all, state.isClosed)
        }
        guard !wasClosed else { return }
        flusher.withLock { task in
            task?.cancel()
            task = nil
        }
        guard isWritable else { return }
        defer {
            layout.remove(layout.controlPath)
            lockFile.withLock { $0 = nil }
            // Each writable entry file holds its file's write lock, which a store opened again
            // needs; the last reference going (outside the lock) closes the file.
            let released = state.withLock { state in
                defer { state.files = OpenFiles() }
                return state.files
            }
            withExtendedLifetime(released) {}
        }
        // Everything is tried even when something fails (a full disk): what could not be
        // committed is dropped on the next open, never half-kept.
        var failure: CacheStoreError?
        for file in files where file.hasUncommittedChanges {
            do throws(SparseFileError) { try file.commit() } catch { failure = failure ?? .file(error) }
        }
        do { try saveIndex() } catch { failure = failure ?? error }
        if let failure { throw failure }
    }

    /// The cache key for a URL, as the configured key function makes it.
    public func key(for url: String) -> String { configuration.keyFunction(url) }

    // MARK: Index persistence

    func saveIndex() throws(CacheStoreError) {
        guard isWritable else { return }
        var snapshot = state.withLock { state -> IndexSnapshot in
            state.isDirty = false
            return IndexSnapshot(records: Array(state.records.values), statistics: statistics(in: state),
                                 accessSequence: state.accessSequence)
        }
        // The size and time stamp each file has now: a file that differs on the next open was
        // written after this snapshot, and is re-read from its header.
        for index in snapshot.records.indices {
            guard let status = FileStatus(path: layout.path(ofEntry: snapshot.records[index].fileName), calls: layout.calls)
            else { continue }
            snapshot.records[index].fileSize = status.size
            snapshot.records[index].modified = status.modified
        }
        do {
            try layout.writeAtomically(snapshot.encoded(), to: layout.indexPath,
                                       synchronize: configuration.fileOptions.durability != .none)
        } catch {
            state.withLock { $0.isDirty = true }
            throw error
        }
    }

    /// Saves the index after a change, unless the disk is too full to take it: the index is a
    /// shortcut for the next open, and the background flush (or `close()`) saves it later. A
    /// change that frees space must not fail because the index could not be written first.
    func saveIndexWhenPossible() {
        try? saveIndex()
    }

    private func startFlushing() {
        let interval = configuration.accessFlushInterval
        let task = Task.detached(priority: .background) { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self, !Task.isCancelled else { return }
                if self.state.withLock({ $0.isDirty && !$0.isClosed }) { try? self.saveIndex() }
            }
        }
        flusher.withLock { $0 = task }
    }

    func checkWritable() throws(CacheStoreError) {
        guard isWritable else { throw CacheStoreError(.readOnly, "\(directory): the store is open read-only") }
    }
}
