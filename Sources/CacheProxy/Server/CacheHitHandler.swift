import CacheProxyParsing
import CacheStore
import NIOCore
import NIOHTTP1
import SparseFile

/// Answers requests for small byte ranges the cache holds entirely, right on the event loop:
/// no task, no hop, one read from the verified cache file into the buffer that is written.
/// Everything else (misses, playlists, large bodies, errors, `/status`) goes on to the
/// asynchronous handler behind it.
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
        /// The answer, sent when the request's end arrives.
        case answering(HTTPResponseHead, ByteBuffer?, keepAlive: Bool)
    }

    private let proxy: ProxyContext
    private var state = State.idle

    init(proxy: ProxyContext) {
        self.proxy = proxy
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
            if let body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
            if keepAlive {
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            } else {
                let channel = context.channel
                context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
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
        guard head.method == .GET || head.method == .HEAD,
              case .proxy(let origin)? = try? ProxyRoute(parsing: head.uri.utf8, limits: configuration.limits.requestTarget),
              proxy.allowList?.allows(origin.host) ?? true, !PlaylistDetection.hasPlaylistExtension(origin) else { return nil }
        let store = proxy.store
        let key = store.key(for: origin.string)
        let reader = store.reader(for: key)
        guard let file = reader.file else { return nil }
        let facts = EntryFacts(file)
        guard let length = facts.length, !facts.isPlaylist else { return nil }
        let isHead = head.method == .HEAD
        let range = ByteResponsePlan.requestedRange(head.headers, facts: facts, limits: configuration.limits.range)
        guard var plan = try? ByteResponsePlan(facts: facts, length: length, range: range, isHead: isHead) else { return nil }
        var body: ByteBuffer?
        if let bytes = plan.body {
            guard bytes.length <= UInt64(configuration.responseChunkSize), file.cachedLength(from: bytes.offset) >= bytes.length
            else { return nil }
            body = allocator.buffer(capacity: Int(bytes.length))
        }
        // Claiming cached bytes claims nothing: it counts the hit and marks the entry used. If
        // the bytes went away meanwhile, the fills are given back and the request goes on.
        guard let claimed = plan.body ?? ByteRange(offset: 0, length: 0), let claim = try? store.claim(key: key, range: claimed) else { return nil }
        guard claim.fills.isEmpty else {
            for fill in claim.fills { fill.fail(CancellationError()) }
            return nil
        }
        if let bytes = plan.body, var buffer = body {
            guard (try? reader.read(into: &buffer, count: Int(bytes.length), at: bytes.offset)) == true else { return nil }
            body = buffer
            proxy.counters.recordServed(bytes.length)
        }
        proxy.counters.requestReceived()
        let framing = ResponseFraming.apply(to: &plan.headers, version: head.version, keepAlive: head.isKeepAlive, isHead: isHead)
        return .answering(HTTPResponseHead(version: head.version, status: plan.status, headers: plan.headers), body,
                          keepAlive: framing.keepAlive)
    }
}
