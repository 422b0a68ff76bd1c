import CacheStore

/// Why bytes a response needs could not be had from the cache and its fills, in the engine's
/// terms. Nothing here is HTTP: the routes choose the status (`ProxyFailure.init(_: ByteDeliveryError)`).
/// Running out of room is not among them: it has its way out (``StoreHasNoRoom``).
enum ByteDeliveryError: Error, Sendable, CustomStringConvertible {
    /// The store refused to claim the bytes for another reason than room.
    case storeRefused(CacheStoreError)
    /// The proxy is shutting down: no new fetch starts.
    case shuttingDown
    /// The fetch that was to deliver the bytes failed at the origin.
    case originFailed(UpstreamError)
    /// Byte `offset` still was not there after the fetches that were to deliver it, ours included.
    case notFetched(offset: UInt64, CacheStoreError)

    var message: String {
        switch self {
        case .storeRefused(let error): "the cache cannot take new bytes: \(error)"
        case .shuttingDown: "the proxy is shutting down"
        case .originFailed(let error): error.failureMessage
        case .notFetched(let offset, let error): "byte \(offset) could not be fetched: \(error)"
        }
    }

    var description: String { message }
}
