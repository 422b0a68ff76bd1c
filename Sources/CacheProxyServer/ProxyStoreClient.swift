public import CacheProxy
import NIOHTTP1

/// Manages the store of a proxy that runs in another process (the one holding the store, which
/// records its address: ``CacheStore/CacheStore/holder(of:)``): what `sparsecache pin`, `unpin`,
/// `rm`, `clear` and `evict` do when a `sparsecache serve` has the cache directory, since a store
/// has one writer.
public struct ProxyStoreClient: Sendable {
    /// The proxy's base URL, `http://HOST:PORT`.
    public let baseURL: String
    /// The proxy's control token, when it was started with one.
    public let controlToken: String?

    public init(baseURL: String, controlToken: String? = nil) {
        self.baseURL = baseURL
        self.controlToken = controlToken
    }

    /// Pins (or unpins) the entry `url` names (`POST /entries/pin`, `POST /entries/unpin`).
    ///
    /// - Throws: `CacheProxyError.Code.notFound` when the store has no such entry; the errors
    ///   of a proxy that refuses or does not answer.
    public func setPinned(_ pinned: Bool, url: String) async throws(CacheProxyError) {
        let _: Answer = try await connection.send(.POST, pinned ? "/entries/pin" : "/entries/unpin",
                                                  body: ProxyControlConnection.json(["url": url]), refused: "to change the entry", answer: "an entry")
    }

    /// Removes the entry `url` names (`DELETE /entries?url=`).
    ///
    /// - Throws: `CacheProxyError.Code.notFound` when the store has no such entry.
    public func remove(url: String) async throws(CacheProxyError) -> StoreRemoval {
        try await connection.send(.DELETE, "/entries?url=" + Self.percentEncoded(url), refused: "to remove the entry", answer: "a removal")
    }

    /// Removes every entry (`DELETE /entries`).
    public func clear() async throws(CacheProxyError) -> StoreRemoval {
        try await connection.send(.DELETE, "/entries", refused: "to clear the store", answer: "a removal")
    }

    /// Evicts down to `size` bytes (`POST /evict`).
    public func evict(toSize size: UInt64) async throws(CacheProxyError) -> StoreRemoval {
        try await connection.send(.POST, "/evict", body: ProxyControlConnection.json(["to": size]), refused: "to evict", answer: "a removal")
    }

    private var connection: ProxyControlConnection { ProxyControlConnection(baseURL: baseURL, controlToken: controlToken) }

    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

    /// `text` with every byte but RFC 3986's unreserved characters percent-encoded, to be one
    /// query value whatever it holds (`&`, `#`, `%`).
    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            if Self.unreserved.contains(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// An answer whose content is not needed.
    private struct Answer: Decodable {}
}
