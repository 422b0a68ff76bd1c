import CacheProxyParsing
import CacheStore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `GET /entries?offset=N&limit=M` answers: a page of the store's entries, most recently
/// used first, and how many there are. Absent values are `null`, never left out.
struct EntriesPage: Encodable {
    /// One entry: its URL (the cache key), how much of it is cached, when it was last used.
    struct Entry: Encodable {
        var url: String
        var cachedBytes: UInt64
        /// Nil while the origin has not said.
        @EncodedAsNull var contentLength: UInt64?
        /// The cached share of the content, 0 to 1; nil without a content length.
        @EncodedAsNull var coverage: Double?
        /// ISO 8601 in UTC.
        var lastAccess: String
        var pinned: Bool
        var complete: Bool
        var diskBytes: UInt64

        /// The entry as the store reports it (`POST /entries/pin` answers one too).
        init(_ entry: EntryInfo) {
            url = entry.key
            cachedBytes = entry.cachedBytes
            contentLength = entry.contentLength
            coverage = entry.contentLength.flatMap { $0 > 0 ? min(1, Double(entry.cachedBytes) / Double($0)) : nil }
            lastAccess = Date(timeIntervalSince1970: Double(entry.lastAccess) / 1000).formatted(
                .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
            pinned = entry.pinned
            complete = entry.isComplete
            diskBytes = entry.diskBytes
        }

        private enum CodingKeys: String, CodingKey {
            case url, cachedBytes, contentLength, coverage, lastAccess, pinned, complete, diskBytes
        }
    }

    var total: Int
    var offset: Int
    var limit: Int
    var entries: [Entry]

    init(store: CacheStore, _ page: EntriesPageRequest) {
        let all = store.entries
        total = all.count
        offset = page.offset
        limit = page.limit
        let start = min(page.offset, all.count)
        entries = all[start..<min(all.count, start + page.limit)].map(Entry.init)
    }
}
