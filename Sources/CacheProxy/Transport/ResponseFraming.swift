/// How a response's connection headers are set, and whether the connection outlives it.
enum ResponseFraming {
    /// Sets `Connection` on `headers` for a response to a request of `version`.
    ///
    /// - Returns: whether the connection stays open after the response.
    static func apply(to headers: inout HeaderFields, version: ProtocolVersion, keepAlive: Bool, isHead: Bool) -> Bool {
        let framing = decide(version: version, keepAlive: keepAlive, isHead: isHead, hasLength: headers.contains(name: "Content-Length"))
        if let connection = framing.connection { headers.replaceOrAdd(name: "Connection", value: connection) }
        return framing.keepAlive
    }

    /// The same decision for a response whose headers are not built yet: the `Connection`
    /// value it must carry (nil: none), and whether the connection stays open.
    static func decide(version: ProtocolVersion, keepAlive: Bool, isHead: Bool, hasLength: Bool) -> (keepAlive: Bool, connection: String?) {
        // A body of unknown length in HTTP/1.0 can only end with the connection. A HEAD
        // response has none: the codec, which knows the request's method, writes no body and
        // no chunk terminator for it, whatever its head announces.
        let keepAlive = keepAlive && !(version.minor == 0 && !hasLength && !isHead)
        let connection: String? = !keepAlive ? "close" : version.minor == 0 ? "keep-alive" : nil
        return (keepAlive, connection)
    }
}
