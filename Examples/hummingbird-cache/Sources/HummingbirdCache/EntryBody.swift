import CacheStore
import Hummingbird
import SparseFile

/// Writes a range of an entry to a response as its bytes become cached: at once what is cached
/// already, and what fills write, as they write it, without polling
/// (``EntryReader/waitForBytes(at:)`` suspends until the byte arrives).
///
/// When the fill it follows fails (a dropped origin) or nobody is fetching the next byte, it
/// claims the rest of the range and fetches the gaps itself, a few times without progress at
/// most. The response's headers promised one version of the resource: if the entry is replaced
/// by another meanwhile, the response is cut rather than mixed.
struct EntryBody: Sendable {
    let resource: ProxiedResource
    let fetcher: GapFetcher
    /// The validators the response's headers carry.
    let promised: EntryMetadata
    let chunkSize = 256 * 1024
    let retriesWithoutProgress = 3

    func write(_ range: ByteRange, to writer: inout any ResponseBodyWriter) async throws {
        let reader = fetcher.store.reader(for: resource.key)
        var position = range.offset
        var retries = 0
        var buffer = ByteBufferAllocator().buffer(capacity: min(chunkSize, Int(clamping: range.length)))
        while position < range.end {
            let available: UInt64
            do {
                available = try await reader.waitForBytes(at: position)
            } catch let error as CacheStoreError where error.code == .fillFailed || error.code == .notCached {
                guard retries < retriesWithoutProgress, let rest = ByteRange(from: position, to: range.end) else { throw error }
                retries += 1
                try fetcher.fetchGaps(of: rest, of: resource, counts: false)
                continue
            }
            guard let current = reader.metadata, current.isSameVersion(as: promised) else {
                throw OriginError("\(resource.url) changed at the origin while it was being sent")
            }
            let count = Int(min(available, range.end - position, UInt64(chunkSize)))
            var outcome = ReadOutcome.complete
            buffer.clear()
            try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { space in
                outcome = try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: space[0..<count]), at: position)
                return outcome == .complete ? count : 0
            }
            guard outcome == .complete else { continue }  // dropped as corrupt: wait for it again, or fetch it
            try await writer.write(buffer)
            position += UInt64(count)
            retries = 0
        }
    }
}

extension EntryMetadata {
    /// Whether bytes described by `other` belong to the same version of the resource.
    func isSameVersion(as other: EntryMetadata) -> Bool {
        contentLength == other.contentLength && entityTag == other.entityTag && lastModified == other.lastModified
    }
}
