import NIOHTTP1

/// How a response's connection headers are set, and whether the connection outlives it.
enum ResponseFraming {
    /// Sets `Connection` on `headers` for a response to a request of `version`.
    ///
    /// - Returns: whether the connection stays open after the response, and whether the
    ///   response must end by closing it (a HEAD response of unknown length: NIO's encoder,
    ///   which is not told the request was a HEAD, would frame it as chunked and write a
    ///   terminator).
    static func apply(
        to headers: inout HTTPHeaders, version: HTTPVersion, keepAlive: Bool, isHead: Bool
    ) -> (keepAlive: Bool, endsWithConnection: Bool) {
        var keepAlive = keepAlive
        var endsWithConnection = false
        let hasLength = headers.contains(name: "Content-Length")
        // A body of unknown length in HTTP/1.0 can only end with the connection.
        if version.minor == 0 && !hasLength && !isHead { keepAlive = false }
        if isHead && !hasLength {
            keepAlive = false
            endsWithConnection = true
        }
        if !keepAlive {
            headers.replaceOrAdd(name: "Connection", value: "close")
        } else if version.minor == 0 {
            headers.replaceOrAdd(name: "Connection", value: "keep-alive")
        }
        return (keepAlive, endsWithConnection)
    }
}
