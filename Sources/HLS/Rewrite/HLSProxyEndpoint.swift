/// The proxy URL that rewritten URIs go through: `<endpoint>?url=<percent-encoded URI>`.
public struct HLSProxyEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// The endpoint with the `?url=` (or `&url=`) already appended, ready for the encoded URI.
    let prefix: [UInt8]

    /// `http://127.0.0.1:PORT/proxy`, the compatibility form of SparseCache's proxy.
    public init(port: UInt16) {
        prefix = Array("http://127.0.0.1:\(port)/proxy?url=".utf8)
    }

    /// An endpoint such as `http://127.0.0.1:8080/proxy`. Nil when it holds anything that would
    /// need escaping in a playlist: control characters, white space, quotes, `#` or non-ASCII.
    public init?(_ endpoint: String) {
        let bytes = Array(endpoint.utf8)
        guard !bytes.isEmpty,
              bytes.allSatisfy({ $0 > ASCII.space && $0 < ASCII.delete && $0 != ASCII.quote && $0 != ASCII.hash })
        else { return nil }
        prefix = bytes + Array((bytes.contains(ASCII.questionMark) ? "&url=" : "?url=").utf8)
    }

    /// The proxy URL for an absolute URI.
    public func url(for absoluteURI: String) -> String {
        var output = prefix
        PercentEncoding.appendEncoded(absoluteURI.utf8, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    public var description: String { String(decoding: prefix, as: UTF8.self) }
}
