/// The process that has a store open for writing, as ``CacheStore/holder(of:)`` finds it.
///
/// `package`: the hand-off between `sparsecache` commands and a running reference proxy
/// (Docs/STORE.md, "Who holds it"); a server built on the store has no use for it.
package struct StoreHolder: Sendable, Hashable {
    /// The process's pid, from the store's lock file (nil when it could not be read).
    package var processIdentifier: Int32?
    /// Where the process can be reached, when it recorded an address with
    /// ``CacheStore/setControlAddress(_:)`` (a running proxy records its http address, so that
    /// another process can hand work to it instead of waiting for the store).
    package var controlAddress: String?
}
