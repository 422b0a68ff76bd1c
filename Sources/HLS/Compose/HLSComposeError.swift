public import CodedErrors

/// Why playlists could not be joined into an ``HLSVirtualPlaylist``, or cut into a growing
/// playlist by ``HLSPlaylist/eventPlaylist(listingFirst:)``, and which part was at fault.
///
/// Errors compare by code, so callers match on ``Code`` rather than on the message.
public struct HLSComposeError: CodedError {
    /// Why composing failed. Codes are stable strings.
    public typealias Code = ErrorCode<HLSComposeError>

    /// Why composing failed.
    public var code: Code
    /// What is wrong, for people.
    public var message: String
    /// The index of the playlist at fault in the list given to ``HLSVirtualPlaylist``, or nil
    /// when the error is not about one of them.
    public var partIndex: Int?

    /// An error about the part at `partIndex` (nil for none).
    public init(code: Code, message: String, partIndex: Int? = nil) {
        self.code = code
        self.message = message
        self.partIndex = partIndex
    }

    /// `playlist N` (the index of the part at fault), or nil.
    public var location: String? { partIndex.map { "playlist \($0)" } }
}

extension ErrorCode where Domain == HLSComposeError {
    /// No playlist was given to join.
    public static var noParts: Self { Self(rawValue: "no-parts") }

    /// A multivariant playlist where a media playlist is needed: pick a variant first.
    public static var multivariant: Self { Self(rawValue: "multivariant") }

    /// A live playlist (no EXT-X-ENDLIST and not VOD): its end is not known yet.
    public static var live: Self { Self(rawValue: "live") }

    /// An I-frame-only playlist (EXT-X-I-FRAMES-ONLY), which players use for trick play only.
    public static var iFramesOnly: Self { Self(rawValue: "i-frames-only") }

    /// A media playlist without segments.
    public static var empty: Self { Self(rawValue: "empty") }

    /// A delta update (EXT-X-SKIP): some of its segments are not listed.
    public static var deltaUpdate: Self { Self(rawValue: "delta-update") }

    /// Segments without EXT-X-MAP after a part whose segments have one: a playlist cannot
    /// take an EXT-X-MAP out of force, so those segments would get the other part's.
    public static var missingMap: Self { Self(rawValue: "missing-map") }

    /// The joined playlist would exceed the parser limits it must be read back with.
    public static var limitExceeded: Self { Self(rawValue: "limit-exceeded") }
}
