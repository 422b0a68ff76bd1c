public import SparseFile
import Synchronization

/// A claimed piece of an entry that its owner fetches and writes. Readers following the entry
/// see each write as soon as it returns.
///
/// Call ``start(_:)`` when the origin's response headers arrive (this checks the validators:
/// an entry whose ETag, Last-Modified or length changed is replaced, never mixed), then
/// ``write(_:)`` each chunk, then ``finish(resourceEnded:)`` — or ``fail(_:)``. A handle
/// dropped without either fails its followers with a cancellation, so nobody waits forever.
/// Bytes written before a failure are kept.
public final class FillHandle: Sendable {
    /// The entry's key.
    public let key: String
    /// The bytes this fill is expected to write (a fill may end early).
    public let range: ByteRange
    let identifier: UInt64
    private let store: CacheStore
    private let progress = Mutex(Progress())

    struct Progress {
        var file: SparseFile?
        var position: UInt64 = 0
        var isEnded = false
    }

    init(store: CacheStore, key: String, range: ByteRange, identifier: UInt64) {
        self.store = store
        self.key = key
        self.range = range
        self.identifier = identifier
        progress.withLock { $0.position = range.offset }
    }

    deinit {
        let (ended, file) = progress.withLock { ($0.isEnded, $0.file) }
        if !ended {
            let error = CacheStoreError(.fillFailed, "the fill of \(key) was abandoned")
            try? store.endFill(key: key, identifier: identifier, file: file, outcome: .failed(error))
        }
    }

    /// The next original offset this fill writes.
    public var position: UInt64 { progress.withLock { $0.position } }

    /// Records what the origin said about the resource, creating the entry or checking that its
    /// validators still match (and replacing it when they do not).
    public func start(_ metadata: EntryMetadata) throws(CacheStoreError) {
        let file = try store.startFill(key: key, identifier: identifier, metadata: metadata)
        progress.withLock { $0.file = file }
    }

    /// Stores the next bytes of the fill. Bytes past the claimed range are ignored.
    ///
    /// - Returns: how many bytes were stored.
    /// - Throws: `CacheStoreError.Code.storeFull` when no room can be made under the size limit,
    ///   `CacheStoreError.Code.diskFull` when the volume has no room even after evicting and
    ///   retrying once, `CacheStoreError.Code.entryReplaced` when the entry was replaced or
    ///   removed meanwhile.
    @discardableResult
    public func write(_ bytes: UnsafeRawBufferPointer) throws(CacheStoreError) -> Int {
        let (file, position, ended) = progress.withLock { ($0.file, $0.position, $0.isEnded) }
        guard !ended else { throw CacheStoreError(.invalidArgument, "the fill of \(key) has ended") }
        let target: SparseFile
        if let file {
            target = file
        } else {
            target = try store.startFill(key: key, identifier: identifier, metadata: EntryMetadata())
            progress.withLock { $0.file = target }
        }
        let count = Int(min(UInt64(bytes.count), range.end > position ? range.end - position : 0))
        guard count > 0 else { return 0 }
        try store.writeFill(key: key, identifier: identifier, file: target, bytes: UnsafeRawBufferPointer(rebasing: bytes[0..<count]), at: position)
        progress.withLock { $0.position = position + UInt64(count) }
        return count
    }

    /// Stores the bytes of an array; see ``write(_:)-(UnsafeRawBufferPointer)``.
    @discardableResult
    public func write(_ bytes: [UInt8]) throws(CacheStoreError) -> Int {
        let result: Result<Int, CacheStoreError> = bytes.withUnsafeBytes { buffer in
            Result { () throws(CacheStoreError) in try write(buffer) }
        }
        return try result.get()
    }

    /// Ends the fill and commits what it wrote. With `resourceEnded`, the fill ran to the end of
    /// the resource, whose length (when unknown so far) is then known.
    public func finish(resourceEnded: Bool = false) throws(CacheStoreError) {
        guard markEnded() else { return }
        try store.endFill(key: key, identifier: identifier, file: file, outcome: .finished(resourceEnded: resourceEnded))
    }

    /// Ends the fill with an error: followers wake with `CacheStoreError.Code.fillFailed`
    /// (they may retry), and the bytes written so far are kept.
    public func fail(_ error: any Error) {
        guard markEnded() else { return }
        let failure = error as? CacheStoreError ?? CacheStoreError(.fillFailed, "the fill of \(key) failed: \(error)")
        try? store.endFill(key: key, identifier: identifier, file: file, outcome: .failed(failure))
    }

    private func markEnded() -> Bool {
        progress.withLock { progress in
            defer { progress.isEnded = true }
            return !progress.isEnded
        }
    }

    var file: SparseFile? { progress.withLock { $0.file } }
}
