import CacheProxyParsing
import CacheStore
import NIOCore
import NIOHTTP1
import SparseFile

/// Answers requests for byte ranges the cache holds entirely, right on the event loop: no task,
/// no hop. Bytes verified before are sent from the cache file with `sendfile`, whatever their
/// size; others are read (and so verified) into the buffer that is written, up to one chunk.
/// Everything else (misses, playlists, larger unverified bodies, errors, `/status`) goes on to
/// the asynchronous handler behind it.
///
/// It sits after `HTTPServerPipelineHandler`, which hands over a request only once the
/// previous response has ended, so answers from here and from behind never interleave.
final class CacheHitHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        case idle
        case forwarding
        /// The answer, sent when the request's end arrives (a file body's handle is closed by
        /// `FileRegionCloser` once it has been written).
        case answering(HTTPResponseHead, IOData?, keepAlive: Bool)
    }

    private let proxy: ProxyContext
    private var state = State.idle
    /// The last request target and what it named: a player asks a connection for many ranges
    /// of one resource, and parsing and keying a URL costs more than the rest of a hit.
    private var lastTarget: (uri: String, origin: OriginURL, key: String)?

    init(proxy: ProxyContext) {
        self.proxy = proxy
    }

    func channelInactive(context: ChannelHandlerContext) {
        // An answer whose request never ended is never written: its file handle is ours to close.
        if case .answering(_, .fileRegion(let region)?, _) = state { try? region.fileHandle.close() }
        state = .idle
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch (unwrapInboundIn(data), state) {
        case (.head(let head), _):
            if let answer = answer(head, allocator: context.channel.allocator) {
                state = answer
            } else {
                state = .forwarding
                context.fireChannelRead(data)
            }
        case (.body, .answering):
            break  // a GET's body means nothing here
        case (.end, .answering(let head, let body, let keepAlive)):
            state = .idle
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            if let body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
                if !keepAlive { channel.close(promise: nil) }
            }
        case (.end, _):
            state = .idle
            context.fireChannelRead(data)
        case (.body, _):
            context.fireChannelRead(data)
        }
    }

    /// The answer when the request is a cache hit this handler can serve; nil otherwise.
    private func answer(_ head: HTTPRequestHead, allocator: ByteBufferAllocator) -> State? {
        let configuration = proxy.configuration
        let store = proxy.store
        guard head.method == .GET || head.method == .HEAD else { return nil }
        let origin: OriginURL
        let key: String
        if let lastTarget, lastTarget.uri == head.uri {
            (origin, key) = (lastTarget.origin, lastTarget.key)
        } else {
            guard case .proxy(let parsed)? = try? ProxyRoute(parsing: head.uri.utf8, limits: configuration.limits.requestTarget)
            else { return nil }
            (origin, key) = (parsed, store.key(for: parsed.string))
            lastTarget = (head.uri, origin, key)
        }
        guard proxy.allowList?.allows(origin.host) ?? true, !PlaylistDetection.hasPlaylistExtension(origin) else { return nil }
        let reader = store.reader(for: key)
        guard let file = reader.file else { return nil }
        let facts = EntryFacts(file)
        guard let length = facts.length, !facts.isPlaylist else { return nil }
        let isHead = head.method == .HEAD
        let range = ByteResponsePlan.requestedRange(head.headers, facts: facts, limits: configuration.limits.range)
        guard var plan = try? ByteResponsePlan(facts: facts, length: length, range: range, isHead: isHead) else { return nil }
        // Bytes that were verified before go out with sendfile whatever their size (the kernel
        // reads them from the page cache as the socket takes them); others are read into a
        // buffer, which is only done here for up to one chunk.
        var body: IOData?
        if let bytes = plan.body {
            guard file.cachedLength(from: bytes.offset) >= bytes.length else { return nil }
            if let region = file.fileRegion(for: bytes) {
                body = .fileRegion(region)
                reader.recordServed(bytes.length)
            } else {
                guard bytes.length <= UInt64(configuration.responseChunkSize) else { return nil }
                var buffer = allocator.buffer(capacity: Int(bytes.length))
                guard (try? reader.read(into: &buffer, count: Int(bytes.length), at: bytes.offset)) == true else { return nil }
                body = .byteBuffer(buffer)
            }
            proxy.counters.recordServed(bytes.length)
        }
        // Everything is cached (and a region's descriptor keeps its bytes readable even if the
        // entry is evicted now): count the hit and mark the entry used, without planning again.
        store.recordHit(key: key)
        proxy.counters.requestReceived()
        let framing = ResponseFraming.apply(to: &plan.headers, version: head.version, keepAlive: head.isKeepAlive, isHead: isHead)
        return .answering(HTTPResponseHead(version: head.version, status: plan.status, headers: plan.headers), body,
                          keepAlive: framing.keepAlive)
    }
}
