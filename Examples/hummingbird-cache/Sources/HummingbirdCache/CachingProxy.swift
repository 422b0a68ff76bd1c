public import AsyncHTTPClient
public import CacheStore
public import Hummingbird
public import NIOCore
import SparseFile

/// A caching reverse proxy for byte ranges of one origin, built on ``CacheStore``'s public API.
///
/// `GET /path?query` is answered with the bytes of `origin/path?query`, whole (200) or the one
/// range its `Range` header asks for (206). Every request claims its range in the store: what
/// is cached is read from disk, what another request is fetching is followed as it arrives,
/// and only the gaps are fetched from the origin, each with a request of its own. The store
/// keeps what was fetched across restarts.
///
/// ```swift
/// let store = try CacheStore.open(at: "/var/cache/origin", configuration: .init(maximumSize: 10 << 30))
/// let proxy = CachingProxy(store: store, origin: "https://media.example", client: HTTPClient.shared)
/// let router = Router()
/// proxy.addRoutes(to: router)
/// try await Application(router: router).runService()
/// await proxy.cancelFills()
/// try store.close()
/// ```
///
/// The origin must say how long a resource is (`Content-Range` with a total, or the
/// `Content-Length` of a 200); a resource whose length stays unknown is answered with 502.
public struct CachingProxy: Sendable {
    /// The origin's scheme, host and port (and path prefix), without a trailing slash.
    public let origin: String
    let fetcher: GapFetcher

    /// - Parameters:
    ///   - store: a store open for writing; the proxy never closes it.
    ///   - origin: for example `http://127.0.0.1:8080`; a request's path and query follow it.
    ///   - client: the client origin requests go through; the caller shuts it down.
    ///   - originTimeout: how long one origin response may take, its body included.
    public init(store: CacheStore, origin: String, client: HTTPClient, originTimeout: TimeAmount = .minutes(10)) {
        self.origin = origin.hasSuffix("/") ? String(origin.dropLast()) : origin
        fetcher = GapFetcher(store: store, client: client, originTimeout: originTimeout)
    }

    /// Adds `GET` of every path to `router`.
    public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        router.get("**") { request, _ in try await respond(to: request) }
    }

    /// Cancels the origin downloads in flight and waits until they have ended. Call it once the
    /// server has stopped, before closing the store; later requests fetch nothing.
    public func cancelFills() async {
        await fetcher.tasks.cancelAll()
    }

    /// The response to one `GET`: the requested bytes, or an error status.
    public func respond(to request: Request) async throws -> Response {
        let target = request.uri.string
        guard target.hasPrefix("/") else { return Self.status(.badRequest, "expected a path") }
        let url = origin + target
        let resource = ProxiedResource(url: url, key: fetcher.store.key(for: url))
        let requested = RequestedRange(header: request.headers[.range])
        let reader = fetcher.store.reader(for: resource.key)
        do {
            var counted = false
            if reader.metadata?.contentLength == nil {
                // Unknown length: fetch from where the request starts; the origin's answer tells it.
                guard let first = requested.firstFetch else { return Self.status(.rangeNotSatisfiable, "bad range") }
                try fetcher.fetchGaps(of: first, of: resource)
                counted = true
                _ = try? await reader.waitForBytes(at: first.offset)
            }
            guard let metadata = reader.metadata, let length = metadata.contentLength else {
                return Self.status(.badGateway, "the origin did not answer with the length of \(url)")
            }
            guard let range = requested.resolved(length: length) else {
                return Response(status: .rangeNotSatisfiable, headers: [.contentRange: "bytes */\(length)"])
            }
            if !range.isEmpty { try fetcher.fetchGaps(of: range, of: resource, counts: !counted) }
            return response(range, of: resource, metadata: metadata, partial: requested != .whole)
        } catch {
            return Self.status(.serviceUnavailable, "the cache cannot store \(url): \(error)")
        }
    }

    private func response(_ range: ByteRange, of resource: ProxiedResource, metadata: EntryMetadata, partial: Bool) -> Response {
        var headers: HTTPFields = [.acceptRanges: "bytes"]
        headers[.contentType] = metadata.contentType
        headers[.eTag] = metadata.entityTag
        headers[.lastModified] = metadata.lastModified
        if partial, let last = range.last, let length = metadata.contentLength {
            headers[.contentRange] = "bytes \(range.offset)-\(last)/\(length)"
        }
        let body = EntryBody(resource: resource, fetcher: fetcher, promised: metadata)
        return Response(status: partial ? .partialContent : .ok, headers: headers,
                        body: ResponseBody(contentLength: Int(clamping: range.length)) { writer in
                            try await body.write(range, to: &writer)
                            try await writer.finish(nil)
                        })
    }

    private static func status(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain"], body: ResponseBody(byteBuffer: ByteBuffer(string: message + "\n")))
    }
}
