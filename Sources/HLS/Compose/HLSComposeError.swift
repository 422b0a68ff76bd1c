/// Why playlists could not be joined into an ``HLSVirtualPlaylist``, or cut into a growing
/// playlist by ``HLSPlaylist/eventPlaylist(listingFirst:)``, and which part was at fault.
///
/// Errors compare by code, so callers match on ``Code`` rather than on the message.
public struct HLSComposeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why composing failed. Codes are stable strings.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// No playlist was given to join.
        public static let noParts = Code(rawValue: "no-parts")
        /// A multivariant playlist where a media playlist is needed: pick a variant first.
        public static let multivariant = Code(rawValue: "multivariant")
        /// A live playlist (no EXT-X-ENDLIST and not VOD): its end is not known yet.
        public static let live = Code(rawValue: "live")
        /// An I-frame-only playlist (EXT-X-I-FRAMES-ONLY), which players use for trick play only.
        public static let iFramesOnly = Code(rawValue: "i-frames-only")
        /// A media playlist without segments.
        public static let empty = Code(rawValue: "empty")
        /// A delta update (EXT-X-SKIP): some of its segments are not listed.
        public static let deltaUpdate = Code(rawValue: "delta-update")
        /// Segments without EXT-X-MAP after a part whose segments have one: a playlist cannot
        /// take an EXT-X-MAP out of force, so those segments would get the other part's.
        public static let missingMap = Code(rawValue: "missing-map")
        /// The joined playlist would exceed the parser limits it must be read back with.
        public static let limitExceeded = Code(rawValue: "limit-exceeded")
    }

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

    public static func == (lhs: HLSComposeError, rhs: HLSComposeError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String { partIndex.map { "playlist \($0): \(message)" } ?? message }
}
