/// What ``CacheStore/open(at:configuration:readOnly:)`` found in the directory.
public struct OpenReport: Sendable, Hashable {
    /// A file the store did not take as an entry, and why.
    public struct Dropped: Sendable, Hashable {
        /// Path relative to the store's `entries` folder.
        public var path: String
        public var reason: String
        /// Whether the file was deleted (corrupt entry files and leftovers of interrupted
        /// writes are; files that are not cache files are left where they are).
        public var deleted: Bool
    }

    /// Entries in the store after opening.
    public var entries: Int = 0
    /// Entries whose file changed since the index was saved (or had no saved index), and which
    /// were therefore re-read from their headers.
    public var rebuiltFromHeaders: Int = 0
    /// Index records whose file had disappeared.
    public var vanished: Int = 0
    public var dropped: [Dropped] = []
}
