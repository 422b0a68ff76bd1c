public import CacheProxy

extension OriginClientKind {
    /// Foundation's `URLSession` (``URLSessionOriginClient``): the system's HTTP and TLS on
    /// Apple platforms, so an app links no HTTP library of its own. It cannot check the address
    /// each connection reached (see ``URLSessionOriginClient``).
    public static var urlSession: OriginClientKind {
        OriginClientKind(name: "urlSession", checksPeers: false) { URLSessionOriginClient($0) }
    }
}
