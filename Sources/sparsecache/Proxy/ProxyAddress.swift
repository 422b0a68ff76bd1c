import HLS

/// The addresses a `serve` on HOST:PORT answers at, as `serve` prints them and `url` makes them.
struct ProxyAddress {
    var host: String
    var port: Int

    /// `http://HOST:PORT`, an IPv6 address in brackets.
    var base: String {
        "http://\(host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host):\(port)"
    }

    /// `http://HOST:PORT/proxy?url=<origin URL, percent-encoded whole>`: the origin URL's own
    /// query (a signed URL's signature) stays in the `url` parameter.
    func proxyURL(for originURL: String) -> String {
        let endpoint = HLSProxyEndpoint(base + "/proxy") ?? HLSProxyEndpoint(port: UInt16(clamping: port))
        return endpoint.url(for: originURL)
    }
}
