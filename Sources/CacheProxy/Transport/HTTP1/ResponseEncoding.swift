import NIOCore

/// How a response's head and body become bytes on an HTTP/1 connection (RFC 9112): the status
/// line and fields in the order given, and the body framed by what the head says.
///
/// The framing fields are corrected on the way out: a status that carries no body (1xx, 204,
/// 304) loses `Content-Length` and `Transfer-Encoding`; a head with `Content-Length` loses
/// `Transfer-Encoding`; an HTTP/1.1 head with neither gets `transfer-encoding: chunked`, appended
/// last, and its body parts are framed as chunks; an HTTP/1.0 body of unknown length is
/// delimited by the connection's close. A response to a HEAD keeps the framing fields a GET's
/// would have (RFC 9110 section 9.3.2) and has no body: no chunk is framed and no terminator
/// written, so its connection stays open whatever length it announces.
struct ResponseEncoding {
    /// Whether the body parts of the response being written go out as chunks.
    private(set) var isChunked = false

    /// The bytes of `head`, with its framing fields corrected; `toHead`: the response answers a
    /// HEAD request.
    mutating func encode(_ head: ResponseHead, toHead: Bool, allocator: ByteBufferAllocator) -> ByteBuffer {
        var headers = head.headers
        isChunked = false
        if !Self.mayHaveBody(head.status) {
            headers.remove(name: "content-length")
            headers.remove(name: "transfer-encoding")
        } else if headers.contains(name: "content-length") {
            headers.remove(name: "transfer-encoding")
        } else if head.version.minor >= 1 {
            headers.replaceOrAdd(name: "transfer-encoding", value: "chunked")
            isChunked = !toHead
        }
        var buffer = allocator.buffer(capacity: 256)
        buffer.writeStaticString("HTTP/")
        buffer.writeString(String(head.version.major))
        buffer.writeStaticString(".")
        buffer.writeString(String(head.version.minor))
        buffer.writeStaticString(" ")
        buffer.writeString(String(head.status.code))
        buffer.writeStaticString(" ")
        buffer.writeString(head.status.reasonPhrase)
        buffer.writeStaticString("\r\n")
        Self.write(headers, into: &buffer)
        return buffer
    }

    /// The chunk header and trailing CRLF that frame a body part of `count` bytes, or nil when
    /// the part goes out as it is (not chunked, or empty: an empty chunk would end the body).
    func chunkFrame(count: Int, allocator: ByteBufferAllocator) -> (header: ByteBuffer, trailer: ByteBuffer)? {
        guard isChunked, count > 0 else { return nil }
        var header = allocator.buffer(capacity: 18)
        header.writeString(String(count, radix: 16))
        header.writeStaticString("\r\n")
        var trailer = allocator.buffer(capacity: 2)
        trailer.writeStaticString("\r\n")
        return (header, trailer)
    }

    /// The bytes that end the body: the last chunk and any trailer fields when chunked, nothing
    /// otherwise.
    func end(trailers: HeaderFields?, allocator: ByteBufferAllocator) -> ByteBuffer? {
        guard isChunked else { return nil }
        var buffer = allocator.buffer(capacity: trailers == nil ? 5 : 256)
        buffer.writeStaticString("0\r\n")
        Self.write(trailers ?? HeaderFields(), into: &buffer)
        return buffer
    }

    /// A `400 Bad Request` that ends the connection, the answer to bytes that are not HTTP/1.
    static func badRequest(allocator: ByteBufferAllocator) -> ByteBuffer {
        allocator.buffer(staticString: "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
    }

    private static func mayHaveBody(_ status: ResponseStatus) -> Bool {
        !(100..<200).contains(status.code) && status.code != 204 && status.code != 304
    }

    private static func write(_ headers: HeaderFields, into buffer: inout ByteBuffer) {
        for (name, value) in headers {
            buffer.writeString(name)
            buffer.writeStaticString(": ")
            buffer.writeString(value)
            buffer.writeStaticString("\r\n")
        }
        buffer.writeStaticString("\r\n")
    }
}
