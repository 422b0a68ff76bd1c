
/// How a response's connection headers are set, and whether the connection outlives it.
enum ResponseFraming {
    /// Sets `Connection` on `headers` for a response to a request of `version`.
    ///
    /// - Returns: whether the connection stays open after the response, and whether the
    ///   response must end by closing it (a HEAD response of unknown length: the codec's encoder,
    ///   which is not told the request was a HEAD, would frame it as chunked and write a
    ///   terminator).
    static func apply(
        to headers: inout HeaderFields, version: ProtocolVersion, keepAlive: Bool, isHead: Bool
    ) -> (keepAlive: Bool, endsWithConnection: Bool) {
        let framing = decide(version: version, keepAlive: keepAlive, isHead: isHead, hasLength: headers.contains(name: "Content-Length"))
        if let connection = framing.connection { headers.replaceOrAdd(name: "Connection", value: connection) }
        return (framing.keepAlive, framing.endsWithConnection)
    }

    /// The same decision for a response whose headers are not built yet: the `Connection`
    /// value it must carry (nil: none), with what ``apply(to:version:keepAlive:isHead:)`` returns.
    static func decide(
        version: ProtocolVersion, keepAlive: Bool, isHead: Bool, hasLength: Bool
    ) -> (keepAlive: Bool, endsWithConnection: Bool, connection: String?) {
        var keepAlive = keepAlive
        var endsWithConnection = false
        // A body of unknown length in HTTP/1.0 can only end with the connection.
        if version.minor == 0 && !hasLength && !isHead { keepAlive = false }
        if isHead && !hasLength {
            keepAlive = false
            endsWithConnection = true
        }
        let connection: String? = !keepAlive ? "close" : version.minor == 0 ? "keep-alive" : nil
        return (keepAlive, endsWithConnection, connection)
    }
}
