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
        /// The answer, sent when the request's end arrives (a file body's handle belongs to
        /// `ConnectionFileHandles`).
        case answering(HTTPResponseHead, IOData?, keepAlive: Bool)
    }

    private let proxy: ProxyContext
    private let fileHandles: ConnectionFileHandles
    private var state = State.idle
    /// What the connection's last hit looked up: a player asks a connection for many ranges of
    /// one resource, and parsing, keying and looking up a URL cost more than the rest of a hit.
    private var lastTarget: HitTarget?
    private var lastEntry: HitEntry?

    init(proxy: ProxyContext, fileHandles: ConnectionFileHandles) {
        self.proxy = proxy
        self.fileHandles = fileHandles
    }

    func channelInactive(context: ChannelHandlerContext) {
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
            guard !keepAlive else {
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                return
            }
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
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
        guard head.method == .GET || head.method == .HEAD, let target = target(of: head), target.isServable,
              let (file, facts) = entry(for: target.key), let length = facts.length, !facts.isPlaylist
        else { return nil }
        let isHead = head.method == .HEAD
        let range = ByteResponsePlan.requestedRange(head.headers, facts: facts, limits: configuration.limits.range)
        guard var plan = try? ByteResponsePlan(facts: facts, length: length, range: range, isHead: isHead) else { return nil }
        // Bytes that were verified before go out with sendfile whatever their size (the kernel
        // reads them from the page cache as the socket takes them); others are read into a
        // buffer, which is only done here for up to one chunk.
        let reader = proxy.store.reader(for: target.key)
        var body: IOData?
        if let bytes = plan.body {
            if let region = fileHandles.sharedRegion(for: bytes, of: file) {
                body = .fileRegion(region)
                reader.recordServed(bytes.length)
            } else {
                guard bytes.length <= UInt64(configuration.responseChunkSize),
                      file.cachedLength(from: bytes.offset) >= bytes.length else { return nil }
                var buffer = allocator.buffer(capacity: Int(bytes.length))
                guard (try? reader.read(into: &buffer, count: Int(bytes.length), at: bytes.offset)) == true else { return nil }
                body = .byteBuffer(buffer)
            }
            proxy.counters.recordServed(bytes.length)
        }
        // Everything is cached (and a region's descriptor keeps its bytes readable even if the
        // entry is evicted now): count the hit and mark the entry used, without planning again.
        proxy.store.recordHit(key: target.key)
        proxy.counters.requestReceived()
        let framing = ResponseFraming.apply(to: &plan.headers, version: head.version, keepAlive: head.isKeepAlive, isHead: isHead)
        return .answering(HTTPResponseHead(version: head.version, status: plan.status, headers: plan.headers), body,
                          keepAlive: framing.keepAlive)
    }

    /// What a request target names, parsed once per distinct target of the connection.
    private func target(of head: HTTPRequestHead) -> HitTarget? {
        if let lastTarget, lastTarget.uri == head.uri { return lastTarget }
        guard case .proxy(let origin)? = try? ProxyRoute(parsing: head.uri.utf8, limits: proxy.configuration.limits.requestTarget)
        else { return nil }
        let target = HitTarget(uri: head.uri, key: proxy.store.key(for: origin.string),
                               isServable: (proxy.allowList?.allows(origin.host) ?? true) && !PlaylistDetection.hasPlaylistExtension(origin))
        lastTarget = target
        return target
    }

    /// The entry's file and facts, looked up again only when the store's entries or the file's
    /// metadata changed since the last hit. The revisions are read before what they vouch for,
    /// so a change in between only makes the next hit look up again.
    private func entry(for key: String) -> (SparseFile, EntryFacts)? {
        let storeRevision = proxy.store.entriesRevision
        let kept = lastEntry.flatMap { $0.key == key ? $0 : nil }
        guard let file = kept?.storeRevision == storeRevision ? kept?.file : proxy.store.reader(for: key).file else {
            lastEntry = nil
            return nil
        }
        let metadataRevision = file.metadataRevision
        if let kept, kept.file === file, kept.metadataRevision == metadataRevision {
            if kept.storeRevision != storeRevision { lastEntry?.storeRevision = storeRevision }
            return (file, kept.facts)
        }
        let facts = EntryFacts(file)
        lastEntry = HitEntry(key: key, file: file, storeRevision: storeRevision, metadataRevision: metadataRevision, facts: facts)
        return (file, facts)
    }
}
