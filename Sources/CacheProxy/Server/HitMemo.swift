import SparseFile

/// A request target the cache-hit path has seen: the entry key it names, and whether that path
/// may serve it at all (an allowed host, and not a playlist by its name).
struct HitTarget {
    let uri: String
    let key: String
    let isServable: Bool
}

/// An entry the cache-hit path has served, with the revisions that keep it valid: the store's
/// (the key still names this file) and the file's metadata (the facts still hold).
struct HitEntry {
    let key: String
    let file: SparseFile
    var storeRevision: UInt64
    let metadataRevision: UInt64
    let facts: EntryFacts
}
