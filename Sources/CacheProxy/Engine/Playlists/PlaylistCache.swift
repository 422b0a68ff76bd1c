import CacheStore
import HLS
import SparseFile

/// Playlists as the store keeps them: raw, whole, keyed by their URL. Shared by the responder
/// that serves players and by prefetching and offline downloads, so that all three agree on
/// what a cached playlist is.
struct PlaylistCache {
    let environment: FetchEnvironment

    /// A complete cached copy, when there is one.
    func cached(_ key: String) -> (body: [UInt8], contentType: String?, validators: EntryMetadata)? {
        let reader = environment.store.reader(for: key)
        guard let file = reader.file, let length = file.contentLength, length <= UInt64(environment.configuration.limits.maximumPlaylistBytes),
              file.cachedLength(from: 0) >= length else { return nil }
        var body = [UInt8](repeating: 0, count: Int(length))
        let outcome = body.withUnsafeMutableBytes { try? reader.read(into: $0, at: 0) }
        guard outcome == .complete else { return nil }
        let metadata = file.metadata
        return (body, metadata.contentType, EntryMetadata(entityTag: metadata.entityTag, lastModified: metadata.lastModified))
    }

    /// Stores the raw playlist, replacing an older copy (a live playlist of the same length
    /// and no validators would otherwise look cached already).
    func save(_ fetched: PlaylistFetches.Result, key: String, replacing old: [UInt8]?) {
        let store = environment.store
        guard old != fetched.body else { return }
        var metadata = fetched.head.metadata
        metadata.contentLength = UInt64(fetched.body.count)
        do {
            if old != nil || store.entry(for: key) != nil { try store.remove(key: key) }
            try store.put(key: key, offset: 0, bytes: fetched.body, metadata: metadata)
        } catch where error.code == .storeFull || error.code == .diskFull {
            environment.noteStoreHasNoRoom()
        } catch {
            environment.logger.warning("could not cache a playlist", metadata: ["key": "\(key)", "error": "\(error)"])
        }
    }

    static func parse(_ body: [UInt8], url: String) -> HLSPlaylist? {
        try? HLSPlaylist(parsing: body, options: HLSParserOptions(playlistURL: url))
    }
}
