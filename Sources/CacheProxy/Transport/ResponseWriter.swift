import NIOCore

/// Writes one response to a client connection, with backpressure: a write waits while the
/// connection is not writable, so a slow client holds at most a chunk or two in memory.
///
/// It remembers whether the head went out: an error before that becomes an error response,
/// an error after it can only end the connection (a response cut short is never completed).
final class ResponseWriter {
    private let outbound: NIOAsyncChannelOutboundWriter<ResponsePart>
    let allocator: ByteBufferAllocator
    private let version: ProtocolVersion
    /// Whether the connection stays open after this response.
    private(set) var keepAlive: Bool
    let isHead: Bool
    private(set) var headSent = false
    /// When the head went out: the end of the proxy's part of a response's latency.
    private(set) var headSentAt: ContinuousClock.Instant?
    /// The playback session whose traffic this response is, if any: its body bytes count there.
    var session: SessionTraffic?
    /// The status of the head sent, for the access log and the metrics.
    private(set) var status: ResponseStatus?
    /// The body bytes written so far.
    private(set) var bodyBytes: UInt64 = 0
    /// How the response used the cache, told by the responder that served an origin resource.
    var cache: CacheOutcome?
    /// The origin URL the request names, as fetched, for the access log.
    var origin: String?
    /// Why the request was refused or its response cut short, for the access log.
    var failure: String?

    init(outbound: NIOAsyncChannelOutboundWriter<ResponsePart>, allocator: ByteBufferAllocator, request: RequestHead) {
        self.outbound = outbound
        self.allocator = allocator
        version = request.version
        keepAlive = request.isKeepAlive
        isHead = request.method == .HEAD
    }

    /// Sends the head. Without `Content-Length` the body is chunked (HTTP/1.1) or ends with
    /// the connection (HTTP/1.0).
    func sendHead(status: ResponseStatus, headers: HeaderFields) async throws {
        try await outbound.write(.head(makeHead(status: status, headers: headers)))
    }

    func sendBody(_ buffer: ByteBuffer) async throws {
        try await sendBody(.byteBuffer(buffer))
    }

    /// Sends a part of the body; a file region goes out with `sendfile`, with no copy and no
    /// memory held while a slow client takes it. The region's handle is closed once it is
    /// written, or here when it cannot be handed to the connection.
    func sendBody(_ body: IOData) async throws {
        session?.recordServed(UInt64(body.readableBytes))
        bodyBytes += UInt64(body.readableBytes)
        do {
            try await outbound.write(.body(body))
        } catch {
            if case .fileRegion(let region) = body { try? region.fileHandle.close() }
            throw error
        }
    }

    func sendEnd() async throws {
        try await outbound.write(.end(nil))
    }

    /// Sends a whole response in one flush (a small body, or none for HEAD).
    func sendComplete(status: ResponseStatus, headers: HeaderFields, body: ByteBuffer?) async throws {
        let head = makeHead(status: status, headers: headers)
        if let body, !isHead {
            session?.recordServed(UInt64(body.readableBytes))
            bodyBytes += UInt64(body.readableBytes)
            try await outbound.write(contentsOf: [.head(head), .body(.byteBuffer(body)), .end(nil)])
        } else {
            try await outbound.write(contentsOf: [.head(head), .end(nil)])
        }
    }

    /// A short plain-text error response.
    func sendError(_ status: ResponseStatus, _ message: String, extraHeaders: HeaderFields = [:]) async throws {
        var headers = extraHeaders
        let body = allocator.buffer(string: message + "\n")
        headers.replaceOrAdd(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.replaceOrAdd(name: "Content-Length", value: String(body.readableBytes))
        headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        try await sendComplete(status: status, headers: headers, body: body)
    }

    private func makeHead(status: ResponseStatus, headers: HeaderFields) -> ResponseHead {
        headSent = true
        headSentAt = .now
        self.status = status
        var headers = headers
        keepAlive = ResponseFraming.apply(to: &headers, version: version, keepAlive: keepAlive, isHead: isHead)
        return ResponseHead(version: version, status: status, headers: headers)
    }
}
