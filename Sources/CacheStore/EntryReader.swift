public import SparseFile

/// Reads one entry's bytes: what is cached at once, and what fills are writing as it arrives.
///
/// Obtain one with ``CacheStore/reader(for:)``. Reads go straight to the entry's file (the
/// same `SparseFile` its fills write, so appended bytes are visible immediately); waiting
/// for bytes that are in flight costs no polling.
public struct EntryReader: Sendable {
    public let key: String
    let store: CacheStore

    /// The entry's file, when the entry exists: for the reference proxy's zero-copy hits
    /// (`sendfile` of a verified region, mapped reads) and the command line's inspection.
    package var file: SparseFile? { store.entryFile(for: key) }

    /// What the origin said about the entry's resource (its length, ETag, Last-Modified and
    /// Content-Type), as the latest fill's ``FillHandle/start(_:)`` recorded it; nil while the
    /// entry does not exist (before the first fill has started).
    ///
    /// A server answers a request's headers from it once the bytes it needs are cached or in
    /// flight, and checks it again while it sends: when the resource changed at the origin,
    /// a fill replaces the entry, and bytes of the new version must not follow bytes of the old
    /// one in a single response.
    public var metadata: EntryMetadata? {
        guard let resource = file?.metadata else { return nil }
        return EntryMetadata(contentLength: resource.contentLength, entityTag: resource.entityTag,
                             lastModified: resource.lastModified, contentType: resource.contentType)
    }

    /// Reads cached bytes at `offset` into `buffer`, verifying them; see ``SparseFile/read(into:at:)``.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(CacheStoreError) -> ReadOutcome {
        guard let file else {
            guard let range = ByteRange(offset: offset, length: UInt64(buffer.count)) else { throw .invalidArgument }
            return .missing([range])
        }
        do {
            let outcome = try file.read(into: buffer, at: offset)
            if outcome == .complete { store.recordServed(UInt64(buffer.count)) }
            return outcome
        } catch {
            throw .file(error)
        }
    }

    /// Counts `count` bytes of this entry served without ``read(into:at:)``: sent straight from
    /// the file (a ``SparseFile/verifiedRegion(for:)`` given to `sendfile`). `package`, with
    /// ``file``: the reference proxy's zero-copy path.
    package func recordServed(_ count: UInt64) {
        store.recordServed(count)
    }

    /// Waits until byte `offset` is cached and returns how many bytes from it on are cached
    /// contiguously (at least 1).
    ///
    /// - Throws: `CacheStoreError.Code.notCached` (with ``CacheStoreError/missing``) when the
    ///   byte is neither cached nor being fetched; `CacheStoreError.Code.fillFailed` when the
    ///   fill that was fetching it failed (claiming again retries); `CancellationError` when the
    ///   waiting task is cancelled.
    public func waitForBytes(at offset: UInt64) async throws -> UInt64 {
        try await store.waitForBytes(key: key, at: offset)
    }

    /// The bytes of `range` in order, in chunks of at most `chunkSize`, following fills in
    /// flight. Ends with an error when a byte is neither cached nor being fetched.
    public func bytes(in range: ByteRange, chunkSize: Int = 256 * 1024) -> AsyncThrowingStream<[UInt8], any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var position = range.offset
                    while position < range.end {
                        let available = try await waitForBytes(at: position)
                        let count = Int(min(available, range.end - position, UInt64(chunkSize)))
                        var chunk = [UInt8](repeating: 0, count: count)
                        let outcome = try chunk.withUnsafeMutableBytes { try read(into: $0, at: position) }
                        guard outcome == .complete else { continue }  // dropped as corrupt: wait or fail anew
                        continuation.yield(chunk)
                        position += UInt64(count)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
