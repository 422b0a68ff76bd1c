/// An absolute URL that the references of an MPD resolve against (RFC 3986 section 5.2): the
/// MPD's own URL, then each level's `BaseURL`. Works on bytes, without Foundation's `URL`, whose
/// parsing differs between platforms.
///
/// Resolution is exactly RFC 3986's: dot segments are removed, nothing else is normalized.
public struct DASHAbsoluteURL: Hashable, Sendable, CustomStringConvertible {
    let parts: URLParts
    /// The URL.
    public let string: String

    /// Nil unless `string` has a scheme.
    public init?(_ string: String) {
        let parts = URLParts(Array(string.utf8))
        guard parts.scheme != nil else { return nil }
        self.parts = parts
        self.string = string
    }

    private init(parts: URLParts) {
        self.parts = parts
        self.string = String(decoding: parts.recomposed(), as: UTF8.self)
    }

    /// `reference` resolved against this URL.
    public func resolving(_ reference: String) -> DASHAbsoluteURL {
        DASHAbsoluteURL(parts: parts.resolving(URLParts(Array(reference.utf8))))
    }

    /// `reference` resolved against this URL, as a string.
    public func resolve(_ reference: String) -> String { resolving(reference).string }

    /// The scheme is `http` or `https`.
    public var isHTTP: Bool { parts.isHTTP }

    public var description: String { string }
}
