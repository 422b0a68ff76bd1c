/// Where a rewritten URI points.
public enum HLSURIRoute: Sendable {
    /// Keep the bytes as written.
    case unchanged
    /// The absolute URI on the origin (resolved against the base URL).
    case origin
    /// Through the proxy: `<endpoint>?url=<percent-encoded absolute URI>`.
    case proxy(HLSProxyEndpoint)
    /// A URI computed from the absolute one. The rewriter escapes what could break the line or
    /// the attribute (control characters, quotes, white space, non-ASCII), so any string is safe.
    case custom(@Sendable (String) -> String)
}
