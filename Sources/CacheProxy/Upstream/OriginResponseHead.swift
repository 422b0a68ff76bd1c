import CacheProxyParsing
import CacheStore
import NIOHTTP1

/// What the proxy reads from an origin's response head: validators, type, lengths.
struct OriginResponseHead: Sendable {
    var status: Int
    var metadata: EntryMetadata
    /// The parsed `Content-Range` of a 206 or 416.
    var contentRange: ContentRange?
    /// `Content-Length`, unless the body is chunked.
    var contentLength: UInt64?
    /// What the origin says about storing and reusing the response.
    var cacheControl: CacheControl
    /// `Age`: how long a cache on the way held the response, in seconds.
    var age: UInt64?
    /// `Vary`: the request fields the response was chosen by.
    var vary: VaryField

    init(status: Int, headers: HTTPHeaders) throws(UpstreamError) {
        self.status = status
        let chunked = headers[canonicalForm: "transfer-encoding"].contains { $0.lowercased() == "chunked" }
        contentLength = chunked ? nil : headers.first(name: "content-length").flatMap { UInt64($0.trimmingSpaces) }
        if let value = headers.first(name: "content-range") {
            do {
                contentRange = try ContentRange(parsing: value)
            } catch {
                throw UpstreamError(.invalidResponse, "origin sent a bad Content-Range \"\(value.prefix(80))\": \(error.message)")
            }
        }
        cacheControl = CacheControl(parsing: headers["cache-control"])
        age = CacheControl.age(parsing: headers.first(name: "age"))
        vary = VaryField(parsing: headers["vary"])
        metadata = EntryMetadata(
            contentLength: nil,
            entityTag: headers.first(name: "etag")?.trimmingSpaces,
            lastModified: headers.first(name: "last-modified"),
            contentType: headers.first(name: "content-type"))
        switch status {
        case 206, 416: metadata.contentLength = contentRange?.completeLength
        case 200: metadata.contentLength = contentLength
        default: break
        }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs (header values' OWS). Works on
    /// UTF-8 bytes: it runs for every request.
    var trimmingSpaces: String {
        let bytes = utf8
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
              let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return "" }
        if first == bytes.startIndex && last == bytes.index(before: bytes.endIndex) { return self }
        return String(self[first...last])
    }
}
