#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
        /// The answer, sent when the request's end arrives; a file body's handle is closed once
        /// it has been written.
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
                if case .fileRegion(let region) = body { try? region.fileHandle.close() }
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
        var region: (descriptor: Int32, fileOffset: UInt64)?
        if let bytes = plan.body {
            guard file.cachedLength(from: bytes.offset) >= bytes.length else { return nil }
            region = Self.contiguousVerifiedRegion(bytes, of: file)
            guard region != nil || bytes.length <= UInt64(configuration.responseChunkSize) else { return nil }
        }
        var body: IOData?
        if let bytes = plan.body {
            if let region {
                // NIO sends files only as a FileRegion over a NIOFileHandle; this one owns a
                // duplicate descriptor and is closed when the write completes.
                let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: region.descriptor)
                let start = Int(region.fileOffset)
                body = .fileRegion(FileRegion(fileHandle: handle, readerIndex: start, endIndex: start + Int(bytes.length)))
            } else {
                var buffer = allocator.buffer(capacity: Int(bytes.length))
                guard (try? reader.read(into: &buffer, count: Int(bytes.length), at: bytes.offset)) == true else { return nil }
                body = .byteBuffer(buffer)
            }
            proxy.counters.recordServed(bytes.length)
        }
        // Everything is cached (and a region's descriptor keeps its bytes readable even if the
        // entry is evicted now): count the hit and mark the entry used, without planning again.
        store.recordHit(key: key, bytesSentDirectly: region == nil ? 0 : plan.body?.length ?? 0)
        proxy.counters.requestReceived()
        let framing = ResponseFraming.apply(to: &plan.headers, version: head.version, keepAlive: head.isKeepAlive, isHead: isHead)
        return .answering(HTTPResponseHead(version: head.version, status: plan.status, headers: plan.headers), body,
                          keepAlive: framing.keepAlive)
    }
}

extension CacheHitHandler {
    /// A duplicate descriptor and the file offset of `bytes`, when they were all verified in this
    /// process and lie in one contiguous run of the file (what one `FileRegion` can send).
    static func contiguousVerifiedRegion(_ bytes: ByteRange, of file: SparseFile) -> (descriptor: Int32, fileOffset: UInt64)? {
        guard let region = file.verifiedRegion(for: bytes) else { return nil }
        guard region.spans.count == 1, let span = region.spans.first else {
            close(region.descriptor)
            return nil
        }
        return (region.descriptor, span.fileOffset)
    }
}
