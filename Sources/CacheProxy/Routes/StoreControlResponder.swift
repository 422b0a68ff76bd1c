import CacheProxyParsing
import CacheStore
import NIOCore

/// The store's control routes, which let an app (or `sparsecache pin`, `rm`, `clear`, `evict`)
/// manage the store while the proxy serves from it:
///
/// - `POST /entries/pin` and `POST /entries/unpin` with `{"url": "..."}` answer the entry;
/// - `GET /entries?url=<percent-encoded URL>` answers one entry, `DELETE` removes it;
/// - `DELETE /entries` (no query) removes every entry;
/// - `POST /evict` with `{"to": BYTES}` evicts down to that size.
///
/// Removals answer a ``StoreRemoval``. An entry the store does not have is 404.
struct StoreControlResponder {
    let hits: HitEnvironment

    private var control: StoreControl { StoreControl(store: hits.store, hits: hits) }

    func respondToPinning(_ pinned: Bool, request: RequestHead, body: ByteBuffer?, writer: ResponseWriter) async throws {
        let path = pinned ? "/entries/pin" : "/entries/unpin"
        guard request.method == .POST else { throw ProxyFailure(status: 405, "\(path) takes POST", headers: ["Allow": "POST"]) }
        let entry = try ControlRequest.parse(body, limit: EntryRequest.maximumBodyBytes, what: "an entry request") {
            bytes throws(ParseError) in try EntryRequest(parsing: bytes)
        }
        let changed = try Self.performing { () throws(CacheStoreError) in try control.setPinned(pinned, url: entry.url) }
        try await StatusResponder.sendJSON(EntriesPage.Entry(changed), status: .ok, writer: writer)
    }

    func respondToEntry(_ url: String, request: RequestHead, writer: ResponseWriter) async throws {
        switch request.method {
        case .GET, .HEAD:
            let key = control.key(for: url)
            guard let entry = hits.store.entry(for: key) else {
                throw ProxyFailure(status: 404, "no entry for key \(key)")
            }
            try await StatusResponder.sendJSON(EntriesPage.Entry(entry), status: .ok, writer: writer)
        case .DELETE:
            let removal = try Self.performing { () throws(CacheStoreError) in try control.remove(url: url) }
            try await StatusResponder.sendJSON(removal, status: .ok, writer: writer)
        default:
            throw ProxyFailure(status: 405, "/entries?url= takes GET and DELETE", headers: ["Allow": "GET, HEAD, DELETE"])
        }
    }

    func respondToEntries(_ page: EntriesPageRequest, request: RequestHead, writer: ResponseWriter) async throws {
        switch request.method {
        case .GET, .HEAD:
            try await StatusResponder.sendJSON(EntriesPage(store: hits.store, page), status: .ok, writer: writer)
        case .DELETE:
            // Clearing takes the bare path: a query (a page, a mistyped url) must not clear.
            guard !request.uri.contains("?") else {
                throw ProxyFailure(status: 400, "DELETE /entries?url=<percent-encoded URL> removes one entry; DELETE /entries, with no query, removes all")
            }
            let removal = try Self.performing { () throws(CacheStoreError) in try control.clear() }
            try await StatusResponder.sendJSON(removal, status: .ok, writer: writer)
        default:
            throw ProxyFailure(status: 405, "/entries takes GET and DELETE", headers: ["Allow": "GET, HEAD, DELETE"])
        }
    }

    func respondToEvict(_ request: RequestHead, body: ByteBuffer?, writer: ResponseWriter) async throws {
        guard request.method == .POST else { throw ProxyFailure(status: 405, "/evict takes POST", headers: ["Allow": "POST"]) }
        let evict = try ControlRequest.parse(body, limit: EvictRequest.maximumBodyBytes, what: "an evict request") {
            bytes throws(ParseError) in try EvictRequest(parsing: bytes)
        }
        let removal = try Self.performing { () throws(CacheStoreError) in try control.evict(toSize: evict.toSize) }
        try await StatusResponder.sendJSON(removal, status: .ok, writer: writer)
    }

    /// Runs a store operation; its errors become answers: 404 for an entry the store does not
    /// have, 500 for the disk failing.
    private static func performing<Result>(_ operation: () throws(CacheStoreError) -> Result) throws(ProxyFailure) -> Result {
        do {
            return try operation()
        } catch where error.code == .noEntry {
            throw ProxyFailure(status: 404, error.message)
        } catch {
            throw ProxyFailure(status: 500, error.message)
        }
    }
}
