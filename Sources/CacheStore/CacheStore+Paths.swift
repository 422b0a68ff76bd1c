extension CacheStore {
    /// The path of an entry's cache file: the store directory as it was given, `entries/`, and
    /// the file's name, so it works from where the store was opened (`inspect`, `verify`).
    public func path(of entry: EntryInfo) -> String {
        layout.path(ofEntry: entry.fileName)
    }
}
