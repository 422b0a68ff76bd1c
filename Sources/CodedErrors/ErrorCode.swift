/// A stable error code of one error type (`Domain`): a string that scripts and callers may
/// match on, which never changes meaning between releases.
///
/// Each error type declares its codes as static members of `ErrorCode<ItsType>`, so
/// `HLSParseError.Code.notAPlaylist` and `CacheStoreError.Code.diskFull` are distinct types and
/// cannot be compared by mistake.
public struct ErrorCode<Domain>: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as scripts see it (`not-a-playlist`, `diskFull`).
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
}
