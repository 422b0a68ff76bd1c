import ArgumentParser
import CacheStore

/// `sparsecache evict [DIR] --to SIZE`.
struct EvictCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evict", abstract: "Evict least-recently-used entries (expired first, never pinned) down to SIZE.",
        discussion: "Exits 1, saying how much they hold, when pinned entries (or entries being written) keep the store above SIZE.")

    @OptionGroup var store: StoreDirectoryArguments
    @Option(help: ArgumentHelp("The size to evict down to: \(SizeArgument.rule).", valueName: "size")) var to: SizeArgument
    @OptionGroup var proxy: ProxyControlArguments

    func run() throws(CommandFailure) {
        if let handed = HandedStoreChange(directory: store.path, controlToken: proxy.controlToken) {
            return try handed.evictReporting(toSize: to.bytes)
        }
        let (report, left) = try StoreOpening.withStore(store.path, readOnly: false) { store throws(CacheStoreError) in
            (try store.evict(toSize: to.bytes), EvictionShortfall(store: store, target: to.bytes))
        }
        writeToStandardOutput("evicted \(report.removedKeys.count) entries, freed \(report.freedBytes) bytes\n")
        if let left { throw left.failure }
    }
}

/// `sparsecache rm [DIR] KEY`.
struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove one entry.", usage: StoreEntryArguments.usage("rm", ProxyControlArguments.usage))

    @OptionGroup var entry: StoreEntryArguments
    @OptionGroup var proxy: ProxyControlArguments

    func run() throws(CommandFailure) {
        let key = entry.key
        if let handed = HandedStoreChange(directory: entry.directory, controlToken: proxy.controlToken) {
            return try handed.remove(key: key)
        }
        try StoreOpening.withStore(entry.directory, readOnly: false) { store throws(CacheStoreError) in
            guard store.entry(for: key) != nil else { throw CacheStoreError(.noEntry, "\(store.directory): no entry for key \(key)") }
            try store.remove(key: key)
        }
    }
}

/// `sparsecache pin [DIR] KEY`.
struct PinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin", abstract: "Pin an entry: it is never evicted.", usage: StoreEntryArguments.usage("pin", ProxyControlArguments.usage))

    @OptionGroup var entry: StoreEntryArguments
    @OptionGroup var proxy: ProxyControlArguments

    func run() throws(CommandFailure) {
        try Pinning.set(true, entry, proxy)
    }
}

/// `sparsecache unpin [DIR] KEY`.
struct UnpinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unpin", abstract: "Unpin an entry.", usage: StoreEntryArguments.usage("unpin", ProxyControlArguments.usage))

    @OptionGroup var entry: StoreEntryArguments
    @OptionGroup var proxy: ProxyControlArguments

    func run() throws(CommandFailure) {
        try Pinning.set(false, entry, proxy)
    }
}

/// `sparsecache clear [DIR]`: removes every entry and prints the bytes freed.
struct ClearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove every entry; print the bytes freed.")

    @OptionGroup var store: StoreDirectoryArguments
    @OptionGroup var proxy: ProxyControlArguments

    func run() throws(CommandFailure) {
        if let handed = HandedStoreChange(directory: store.path, controlToken: proxy.controlToken) {
            return writeToStandardOutput("\(try handed.clear().freedBytes)\n")
        }
        let freed = try StoreOpening.withStore(store.path, readOnly: false) { store throws(CacheStoreError) in try store.clear() }
        writeToStandardOutput("\(freed)\n")
    }
}

/// `sparsecache create [DIR] --max-size SIZE`: the limit is kept in the directory.
struct CreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create", abstract: "Create a store with a size limit kept in the directory.")

    @OptionGroup var store: StoreDirectoryArguments
    @Option(parsing: .unconditional, help: ArgumentHelp("The size limit, at least 1 MiB: \(SizeArgument.rule).", valueName: "size"),
            transform: SizeArgument.limit)
    var maxSize: SizeArgument

    func run() throws(CommandFailure) {
        try HeldStoreRefusal.check(store.path, command: "create", instead: "its limit is serve's --max-size; restart it with the new one")
        do {
            try CacheStore.create(at: store.path, maximumSize: maxSize.bytes)
        } catch {
            throw CommandFailure(code: .failure, message: error.message)
        }
        if let warning = FreeSpaceWarning.text(limit: maxSize.bytes, directory: store.path, cachedBytes: 0) {
            writeToStandardError("sparsecache: \(warning)\n")
        }
    }
}

/// `pin` and `unpin` differ only in the flag they set.
enum Pinning {
    static func set(_ pinned: Bool, _ entry: StoreEntryArguments, _ proxy: ProxyControlArguments) throws(CommandFailure) {
        let key = entry.key
        if let handed = HandedStoreChange(directory: entry.directory, controlToken: proxy.controlToken) {
            return try handed.setPinned(pinned, key: key)
        }
        try StoreOpening.withStore(entry.directory, readOnly: false) { store throws(CacheStoreError) in
            try store.setPinned(pinned, for: key)
        }
    }
}
