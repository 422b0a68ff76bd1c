import CacheStore

/// What `put` and `create` say when a running proxy holds the store. `pin`, `unpin`, `rm`,
/// `clear` and `evict` hand their change to that proxy (``HandedStoreChange``); these two have
/// nothing to hand: `put` writes bytes no origin sent, which the proxy would then serve as the
/// origin's, and a running proxy's limit is its `--max-size`, read when it starts. Without this
/// they fail with the store's bare "open for writing by another process", which names a pid but
/// not the proxy, nor what to do.
enum HeldStoreRefusal {
    /// Throws when a proxy that records its address holds `directory`: `command` cannot run
    /// beside it, and `instead` says what to do.
    static func check(_ directory: String, command: String, instead: String) throws(CommandFailure) {
        guard let holder = CacheStore.holder(of: directory), let address = holder.controlAddress else { return }
        let process = holder.processIdentifier.map { " (pid \($0))" } ?? ""
        throw CommandFailure(code: .failure, message: "\(directory) is held by the proxy running at \(address)\(process), "
            + "and \(command) changes only a store no process holds: \(instead)")
    }
}
