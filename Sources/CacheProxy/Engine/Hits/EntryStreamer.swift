import CacheStore
import NIOCore
import SparseFile

/// Streams an entry's bytes to a client: what is cached at once, what is being fetched as
/// it is stored, in chunks read straight from the verified cache file into the buffer that
/// goes to the socket. Memory per response stays at about one chunk.
struct EntryStreamer {
    let environment: HitEnvironment
    let reader: EntryReader
    let session: FetchSession
    let writer: ResponseWriter

    /// The ways a wait for bytes ends without them that the response can recover from: the
    /// fetch it followed failed, ended short, was replaced, or found no room in the store.
    static let recoverable: [CacheStoreError.Code] = [.notCached, .fillFailed, .entryReplaced, .storeFull, .diskFull]

    /// All of `range` when it fits in one chunk, is cached already and in memory; nil otherwise
    /// (``stream(from:to:lane:)`` reads bytes on disk off the event loop).
    func readWhole(_ range: ByteRange) throws -> ByteBuffer? {
        if let file = reader.file, environment.coldReader.mustRead(range, of: file) { return nil }
        guard let buffer = try reader.readWhole(range, of: reader.file, limit: environment.configuration.responseChunkSize, allocator: writer.allocator) else {
            return nil
        }
        environment.counters.recordServed(range.length)
        return buffer
    }

    /// Sends bytes `start..<end` (to the end of the resource when `end` is nil).
    ///
    /// - Throws: ``ByteDeliveryError`` when the bytes cannot be had (the response must then be
    ///   cut short), or the client's write error.
    func stream(from start: UInt64, to end: UInt64?, lane: UpstreamLane.Kind) async throws {
        var position = start
        var retries = 0
        let chunkSize = UInt64(environment.configuration.responseChunkSize)
        while position < end ?? UInt64.max {
            let file = reader.file
            var available = file?.cachedLength(from: position) ?? 0
            if available == 0 {
                do {
                    available = try await reader.waitForBytes(at: position)
                } catch let error as CacheStoreError where Self.recoverable.contains(error.code) {
                    if end == nil, let length = reader.file?.contentLength, position >= length { return }
                    if let failure = await session.ownFailure(at: position) {
                        guard failure.code == .storeFull else { throw ByteDeliveryError.originFailed(failure) }
                        try await passThrough(from: position, to: end, lane: lane)
                        return
                    }
                    // Someone else's fetch failed, or ended short: fetch the rest ourselves.
                    retries += 1
                    guard retries <= 2, let rest = ByteRange(from: position, to: end ?? UInt64.max) else {
                        throw ByteDeliveryError.notFetched(offset: position, error)
                    }
                    try session.claimAndFetch(rest, lane: lane)
                    continue
                }
            }
            let count = Int(min(available, chunkSize, (end ?? UInt64.max) - position))
            // A block that fails its checksum is dropped from the cache: the next pass fetches it.
            guard let bytes = ByteRange(offset: position, length: UInt64(count)),
                  let body = try await chunk(bytes, of: file) else { continue }
            try await writer.sendBody(body)
            environment.counters.recordServed(UInt64(count))
            position += UInt64(count)
            retries = 0
        }
    }

    /// Cached `bytes` of `file`, to send: with `sendfile` once verified (which a chunk not
    /// verified yet is in scratch memory, or on a cold-read thread when its pages are out of
    /// memory), so that the connection holds no copy of them; read into a buffer when they lie
    /// in several runs of the file. nil when a byte is not cached, or failed its checksum.
    private func chunk(_ bytes: ByteRange, of file: SparseFile?) async throws -> IOData? {
        if let file {
            // Twice: a cold read elsewhere may make these bytes need verifying again meanwhile.
            for _ in 0..<2 {
                if environment.coldReader.mustRead(bytes, of: file) {
                    // Out of memory: read on a cold-read thread while the event loop serves its
                    // other connections.
                    guard try await environment.coldReader.read(bytes, of: file) else { return nil }
                } else {
                    // Costs one lookup when they are verified already.
                    guard try file.verify(bytes) == .complete else { return nil }
                }
                if let (region, _) = file.fileRegion(for: bytes) {
                    reader.recordServed(bytes.length)
                    return .fileRegion(region)
                }
            }
        }
        guard let count = Int(exactly: bytes.length) else { return nil }
        var buffer = writer.allocator.buffer(capacity: count)
        return try reader.read(into: &buffer, count: count, at: bytes.offset) ? .byteBuffer(buffer) : nil
    }

    /// The store has no room: the rest comes straight from the origin, sent and not stored, so
    /// a full cache slows nothing down and breaks no response.
    private func passThrough(from position: UInt64, to end: UInt64?, lane: UpstreamLane.Kind) async throws {
        environment.fetching.noteStoreHasNoRoom()
        session.passesThrough()
        do {
            try await environment.upstream.stream(session.origin, from: position, to: end, entityTag: reader.file?.metadata.entityTag,
                                              lane: lane, headers: session.headers) { chunk in
                environment.counters.recordServed(UInt64(chunk.readableBytes))
                environment.counters.recordPassedThrough(UInt64(chunk.readableBytes))
                try await writer.sendBody(chunk)
            }
        } catch let error as UpstreamError {
            throw ByteDeliveryError.originFailed(error)
        }
    }
}
