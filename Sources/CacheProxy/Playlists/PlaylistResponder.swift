import CacheProxyParsing
import CacheStore
import HLS
import NIOCore
import NIOHTTP1
import SparseFile

/// Serves playlists: fetched whole (express lane), stored raw, and served rewritten so that
/// every URI in them comes back through the proxy.
///
/// A VOD media playlist (`EXT-X-ENDLIST` or `PLAYLIST-TYPE:VOD`) never changes, so a cached copy
/// is served without asking the origin. Live and multivariant playlists are fetched fresh
/// whenever the origin answers, and the cached copy is served (stale) only when it does not.
struct PlaylistResponder {
    let context: ProxyContext

    func respond(origin: OriginURL, request: HTTPRequestHead, writer: ResponseWriter) async throws {
        let store = context.store
        let key = store.key(for: origin.string)
        let playlists = PlaylistCache(context: context)
        let cached = playlists.cached(key)
        let cachedURL = context.playlistFetches.finalURL(of: origin)
        if let cached, let playlist = parse(cached.body, url: cachedURL), playlist.kind == .media, !playlist.isLive {
            // Claiming what is cached claims nothing: it counts the hit and marks the entry used.
            if let whole = ByteRange(offset: 0, length: UInt64(cached.body.count)) { _ = try? store.claim(key: key, range: whole) }
            try await send(cached.body, playlist: playlist, url: cachedURL, contentType: cached.contentType, request: request, writer: writer)
            return
        }
        let fetched: PlaylistFetches.Result
        do {
            fetched = try await context.playlistFetches.fetch(origin)
        } catch let error as UpstreamError {
            if let cached, error.isOriginDown {
                context.counters.recordStale()
                context.logger.info("serving a stale playlist: the origin is unreachable", metadata: ["url": "\(origin)"])
                try await send(cached.body, playlist: parse(cached.body, url: cachedURL), url: cachedURL,
                               contentType: cached.contentType, request: request, writer: writer)
                return
            }
            throw ProxyFailure(error)
        }
        playlists.save(fetched, key: key, replacing: cached?.body)
        try await send(fetched.body, playlist: parse(fetched.body, url: fetched.finalURL), url: fetched.finalURL,
                       contentType: fetched.head.metadata.contentType, request: request, writer: writer)
    }

    private func parse(_ body: [UInt8], url: String) -> HLSPlaylist? {
        PlaylistCache.parse(body, url: url)
    }

    private func send(
        _ body: [UInt8], playlist: HLSPlaylist?, url: String, contentType: String?, request: HTTPRequestHead, writer: ResponseWriter
    ) async throws {
        var headers = HTTPHeaders()
        headers.add(name: "Cache-Control", value: "no-cache")
        // Bytes that are not a playlist after all are passed on as they are.
        guard let playlist, let base = HLSBaseURL(url) else {
            headers.add(name: "Content-Type", value: contentType ?? "application/octet-stream")
            headers.add(name: "Content-Length", value: String(body.count))
            try await writer.sendComplete(status: .ok, headers: headers, body: writer.allocator.buffer(bytes: body))
            return
        }
        registerExpressResources(of: playlist, base: base)
        let policy = HLSProxyRewritePolicy(endpoint: endpoint(for: request))
        let rewritten = playlist.rewritten(base: base, policy: policy)
        headers.add(name: "Content-Type", value: "application/vnd.apple.mpegurl")
        headers.add(name: "Content-Length", value: String(rewritten.count))
        context.counters.recordServed(UInt64(rewritten.count))
        try await writer.sendComplete(status: .ok, headers: headers, body: writer.allocator.buffer(bytes: rewritten))
    }

    /// Init segments and keys take the express lane when the player asks for them.
    private func registerExpressResources(of playlist: HLSPlaylist, base: HLSBaseURL) {
        guard playlist.kind == .media else { return }
        let store = context.store
        func register(_ uri: String, range: HLSByteRange?) {
            guard let url = try? OriginURL(parsing: base.resolve(uri)) else { return }
            context.express.register(store.key(for: url.string), range: range.flatMap { ByteRange(offset: $0.offset, length: $0.length) })
        }
        for map in playlist.maps { register(map.uri, range: map.byteRange) }
        for key in playlist.keys { if let uri = key.uri { register(uri, range: nil) } }
    }

    /// Where rewritten URIs point: the loopback address, or, when the proxy listens on another
    /// address, the host the client used to reach it.
    private func endpoint(for request: HTTPRequestHead) -> HLSProxyEndpoint {
        let port = context.listeningPort.withLock { $0 } ?? context.configuration.port
        if context.configuration.allowsNonLoopback, let host = request.headers.first(name: "host"),
           host.utf8.allSatisfy(Self.isHostByte), let endpoint = HLSProxyEndpoint("http://\(host)/proxy") {
            return endpoint
        }
        return HLSProxyEndpoint(port: UInt16(clamping: port))
    }

    /// Letters, digits and `-.:[]`: a host, an IPv4 or bracketed IPv6 address, and a port.
    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: Array("-.:[]".utf8).contains(byte)
        }
    }
}

extension UpstreamError {
    /// Whether a failure means the origin cannot serve now (stale copies may stand in), as
    /// opposed to an answer about the resource (404).
    var isOriginDown: Bool {
        switch code {
        case .unreachable, .truncated: true
        case .status(let status): status >= 500
        case .invalidResponse, .tooLarge, .storeFull: false
        }
    }
}
