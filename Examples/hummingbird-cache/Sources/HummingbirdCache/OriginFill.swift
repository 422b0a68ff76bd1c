import AsyncHTTPClient
import CacheStore
import NIOCore
import SparseFile

/// Fetches one claimed piece of an entry (a ``FillHandle``) from the origin and writes it into
/// the store, where every request following the entry sees each chunk as soon as it is written.
///
/// Only the claimed bytes are asked for (`Range: bytes=first-last`, or `first-` while the length
/// is unknown). The origin's answer is checked before anything is stored: a 206 must start where
/// the fill does, a 200 carries the whole resource and its first bytes are skipped. Any failure,
/// a dropped connection included, ends the fill with ``FillHandle/fail(_:)``: the followers wake
/// and may claim the rest again, and what was written so far stays cached.
struct OriginFill: Sendable {
    let client: HTTPClient
    let url: String
    /// How long one origin response may take, body included.
    let timeout: TimeAmount

    /// Runs the fill to its end; never throws (failures go to the fill's followers).
    func run(_ fill: FillHandle) async {
        do {
            try await fetch(into: fill)
        } catch {
            fill.fail(error)
        }
    }

    private func fetch(into fill: FillHandle) async throws {
        var request = HTTPClientRequest(url: url)
        let last = fill.range.end == .max ? "" : String(fill.range.end - 1)
        request.headers.add(name: "Range", value: "bytes=\(fill.range.offset)-\(last)")
        let response = try await client.execute(request, timeout: timeout)
        let answer = try OriginAnswer(response, for: fill.range)
        try fill.start(answer.metadata)
        var skip = answer.bytesBeforeFill
        var bodyEnded = true
        for try await var chunk in response.body {
            if skip > 0 {
                let dropped = min(UInt64(chunk.readableBytes), skip)
                chunk.moveReaderIndex(forwardBy: Int(dropped))
                skip -= dropped
            }
            try chunk.withUnsafeReadableBytes { bytes throws(CacheStoreError) in _ = try fill.write(bytes) }
            // A 200, or an open-ended 206, goes on past the claimed bytes: others own those.
            if fill.position >= fill.range.end { bodyEnded = false; break }
        }
        try fill.finish(resourceEnded: bodyEnded && response.status == .ok)
    }
}

/// What an origin response to a fill's request means for the fill.
struct OriginAnswer: Sendable {
    var metadata: EntryMetadata
    /// Bytes of the body that come before the fill's first byte (a 200 to a range request).
    var bytesBeforeFill: UInt64

    init(_ response: HTTPClientResponse, for range: ByteRange) throws(OriginError) {
        let headers = response.headers
        metadata = EntryMetadata(entityTag: headers.first(name: "ETag"), lastModified: headers.first(name: "Last-Modified"),
                                 contentType: headers.first(name: "Content-Type"))
        switch response.status {
        case .partialContent:
            guard let header = headers.first(name: "Content-Range"), let contentRange = OriginContentRange(header: header)
            else { throw OriginError("the origin's 206 has no valid Content-Range") }
            guard contentRange.range.offset == range.offset else {
                throw OriginError("the origin sent bytes from \(contentRange.range.offset), not from \(range.offset)")
            }
            metadata.contentLength = contentRange.total
            bytesBeforeFill = 0
        case .ok:
            metadata.contentLength = headers.first(name: "Content-Length").flatMap { RequestedRange.position(Array($0.utf8)[...]) }
            bytesBeforeFill = range.offset
        default:
            throw OriginError("the origin answered \(response.status.code)")
        }
    }
}

/// Why a fill could not use the origin's answer.
struct OriginError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
