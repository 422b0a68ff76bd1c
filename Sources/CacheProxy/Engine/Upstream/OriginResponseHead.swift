import CacheProxyParsing
import CacheStore

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

    init(status: Int, headers: HeaderFields) throws(UpstreamError) {
        let fields: OriginResponseFields
        do {
            fields = try OriginResponseFields(status: status, fields: headers.map { ($0.name, $0.value) })
        } catch {
            throw UpstreamError(.invalidResponse, error.message)
        }
        self.init(fields)
    }

    /// The head as the proxy keeps it; the parsing is `OriginResponseFields`' (CacheProxyParsing,
    /// where a fuzz target reaches it without SwiftNIO).
    init(_ fields: OriginResponseFields) {
        status = fields.status
        contentRange = fields.contentRange
        contentLength = fields.contentLength
        cacheControl = fields.cacheControl
        age = fields.age
        vary = fields.vary
        metadata = EntryMetadata(contentLength: fields.resourceLength, entityTag: fields.entityTag,
                                 lastModified: fields.lastModified, contentType: fields.contentType)
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
