/// EXT-X-KEY or EXT-X-SESSION-KEY: how segments are encrypted and where the key is.
public struct HLSKey: Hashable, Sendable {
    /// `AES-128`, `SAMPLE-AES`, `SAMPLE-AES-CTR` (or `NONE` for a session key that says so).
    public var method: String
    /// The key's URI, variables substituted; nil when absent. May be `skd:` or `data:`.
    public var uri: String?
    /// The initialization vector as written (`0x...`), or nil.
    public var iv: String?
    /// KEYFORMAT as written, or nil (meaning `identity`).
    public var keyFormat: String?
    /// KEYFORMATVERSIONS as written, or nil.
    public var keyFormatVersions: String?
    /// Every attribute as written, including ones this type has no property for.
    public var attributes: [HLSAttribute]
}
