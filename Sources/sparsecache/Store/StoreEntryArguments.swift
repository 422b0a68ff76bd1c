import ArgumentParser
import CacheStore

/// The `DIR KEY` pair the entry commands share.
struct StoreEntryArguments: ParsableArguments {
    @Argument(help: "The store directory.") var directory: String
    @Argument(help: "The cache key (URLs are normalized as the proxy does).") var rawKey: String

    var key: String { CacheKey.normalizedURL(rawKey) }
}
