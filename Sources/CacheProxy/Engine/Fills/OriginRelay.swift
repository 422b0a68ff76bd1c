import CacheProxyParsing
import NIOCore

/// Answers a request straight from the origin, storing nothing: status, representation headers
/// and body as the origin sent them for the client's `Range`. The proxy falls back to it when
/// the store cannot take a new entry (a full disk), so that a full disk never breaks a response.
struct OriginRelay {
    let environment: FetchEnvironment

    func respond(
        origin: OriginURL, request: RequestHead, lane: UpstreamLane.Kind, headers: OriginHeaderFields, writer: ResponseWriter
    ) async throws {
        let range = request.headers.first(name: "range")
        do {
            try await environment.upstream.relay(origin, range: range, lane: lane, headers: headers) { head, body in
                guard [200, 206, 416].contains(head.status) else { throw UpstreamError(.status(head.status), "\(origin): the origin answered \(head.status)") }
                try await writer.sendHead(status: ResponseStatus(statusCode: head.status), headers: Self.headers(head))
                if !writer.isHead {
                    for try await chunk in body {
                        environment.counters.recordFetched(UInt64(chunk.readableBytes))
                        environment.counters.recordPassedThrough(UInt64(chunk.readableBytes))
                        environment.counters.recordServed(UInt64(chunk.readableBytes))
                        try await writer.sendBody(chunk)
                    }
                }
                try await writer.sendEnd()
            }
        } catch let error as UpstreamError {
            throw ByteDeliveryError.originFailed(error)
        }
    }

    /// The origin's representation headers; the length only when the body's length is known.
    private static func headers(_ head: OriginResponseHead) -> HeaderFields {
        var headers = HeaderFields()
        headers.add(name: "Content-Type", value: head.metadata.contentType ?? "application/octet-stream")
        headers.add(name: "Accept-Ranges", value: "bytes")
        if let entityTag = head.metadata.entityTag { headers.add(name: "ETag", value: entityTag) }
        if let lastModified = head.metadata.lastModified { headers.add(name: "Last-Modified", value: lastModified) }
        if let length = head.contentLength { headers.add(name: "Content-Length", value: String(length)) }
        if let range = head.contentRange {
            let total = range.completeLength.map(String.init) ?? "*"
            headers.add(name: "Content-Range", value: range.range.map { "bytes \($0.lowerBound)-\($0.upperBound)/\(total)" } ?? "bytes */\(total)")
        }
        return headers
    }
}
