import CacheProxyParsing

/// Whether an origin's answer may be stored, from what its `Cache-Control` and `Vary` say
/// (RFC 9111) and from what kind of cache the proxy is.
///
/// A proxy listening on loopback is a private cache: the device's own player is its one user,
/// so `private` answers are its to keep. Listening on any other address it is a shared cache
/// (every client that reaches the address uses it), which RFC 9111 section 5.2.2.7 forbids to
/// store them: one user's answer would be served to another.
struct StorageRule: Sendable {
    /// Whether `no-store` answers are stored anyway
    /// (``CacheProxyConfiguration/storesNoStoreResponses``, for apps that own their CDN).
    let storesNoStore: Bool
    /// Whether the proxy is a private cache (it listens on loopback).
    let isPrivateCache: Bool

    init(storesNoStore: Bool, isPrivateCache: Bool) {
        self.storesNoStore = storesNoStore
        self.isPrivateCache = isPrivateCache
    }

    /// The rule of a proxy configured by `configuration` (decided once: the listening address
    /// does not change while it runs).
    init(configuration: CacheProxyConfiguration) {
        self.init(storesNoStore: configuration.storesNoStoreResponses, isPrivateCache: CacheProxy.isLoopback(configuration.host))
    }

    /// Why an answer with `cacheControl` and `vary` must be passed through rather than stored,
    /// or nil when it may be stored (as one entry per value of the fields it varies on).
    func refusal(cacheControl: CacheControl, vary: VaryField) -> String? {
        if cacheControl.noStore, !storesNoStore { return "Cache-Control: no-store, passed through" }
        if vary.isAny { return "Vary: * (or a Vary the proxy cannot key by), passed through" }
        if cacheControl.isPrivate, !isPrivateCache { return "Cache-Control: private, passed through by a proxy listening beyond loopback" }
        return nil
    }
}
