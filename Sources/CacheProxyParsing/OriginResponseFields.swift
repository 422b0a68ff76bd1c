/// What the proxy reads from an origin's response head: lengths, range, validators, type and
/// caching fields, parsed from the head's `(name, value)` pairs.
///
/// Origins are untrusted: the fields come from bytes anyone serving a URL can choose. Names are
/// matched case-insensitively, the first field of a name counts where only one can (as SwiftNIO's
/// `HTTPHeaders.first(name:)`), and every field of a name where a list is meant
/// (`Cache-Control`, `Vary`, `Transfer-Encoding`).
package struct OriginResponseFields: Sendable, Hashable {
    /// The status code.
    package var status: Int
    /// The parsed `Content-Range` (a 206's or a 416's).
    package var contentRange: ContentRange?
    /// `Content-Length`, unless the body is chunked (the length is then the body's end).
    package var contentLength: UInt64?
    /// What the origin says about storing and reusing the response.
    package var cacheControl: CacheControl
    /// `Age`: how long a cache on the way held the response, in seconds.
    package var age: UInt64?
    /// `Vary`: the request fields the response was chosen by.
    package var vary: VaryField
    /// `ETag`, without surrounding spaces.
    package var entityTag: String?
    /// `Last-Modified`, as written.
    package var lastModified: String?
    /// `Content-Type`, as written.
    package var contentType: String?

    /// Reads the fields of a response head.
    ///
    /// - Throws: ``ParseError`` when `Content-Range` is present and malformed (the message
    ///   quotes at most 80 bytes of it); every other field that does not parse is taken as absent.
    package init(status: Int, fields: [(name: String, value: String)]) throws(ParseError) {
        self.status = status
        let chunked = Self.listItems(named: "transfer-encoding", in: fields).contains { $0.lowercased() == "chunked" }
        contentLength = chunked ? nil : Self.first(named: "content-length", in: fields).flatMap {
            UInt64(String(decoding: Array($0.utf8).trimmingOptionalWhitespace, as: UTF8.self))
        }
        if let value = Self.first(named: "content-range", in: fields) {
            do {
                contentRange = try ContentRange(parsing: value)
            } catch {
                throw ParseError(error.code, "origin sent a bad Content-Range \"\(value.prefix(80))\": \(error.message)")
            }
        }
        cacheControl = CacheControl(parsing: Self.values(named: "cache-control", in: fields))
        age = CacheControl.age(parsing: Self.first(named: "age", in: fields))
        vary = VaryField(parsing: Self.values(named: "vary", in: fields))
        entityTag = Self.first(named: "etag", in: fields).map {
            String(decoding: Array($0.utf8).trimmingOptionalWhitespace, as: UTF8.self)
        }
        lastModified = Self.first(named: "last-modified", in: fields)
        contentType = Self.first(named: "content-type", in: fields)
    }

    /// The resource's whole length, when the response tells it: a 206's or 416's complete
    /// length from `Content-Range`, a 200's `Content-Length`.
    package var resourceLength: UInt64? {
        switch status {
        case 206, 416: contentRange?.completeLength
        case 200: contentLength
        default: nil
        }
    }

    /// The value of the first field named `name`.
    private static func first(named name: String, in fields: [(name: String, value: String)]) -> String? {
        fields.first { isName($0.name, name) }?.value
    }

    /// The values of every field named `name`, in order.
    private static func values(named name: String, in fields: [(name: String, value: String)]) -> [String] {
        fields.filter { isName($0.name, name) }.map(\.value)
    }

    /// The comma-separated items of every field named `name`, without surrounding spaces and
    /// tabs (empty items dropped, as a field list is split in SwiftNIO's canonical form).
    private static func listItems(named name: String, in fields: [(name: String, value: String)]) -> [String] {
        values(named: name, in: fields).flatMap { value in
            value.utf8.split(separator: UInt8(ascii: ",")).map {
                String(decoding: Array($0).trimmingOptionalWhitespace, as: UTF8.self)
            }
        }
    }

    /// Whether the field name `candidate` is `name` (lower-case ASCII), ignoring case.
    private static func isName(_ candidate: String, _ name: String) -> Bool {
        candidate.utf8.count == name.utf8.count
            && zip(candidate.utf8, name.utf8).allSatisfy { ASCIIScanner.lowercased($0) == $1 }
    }
}
