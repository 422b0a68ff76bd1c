import CacheProxyParsing

/// Parses arbitrary bytes as a `POST /sessions` body. It may not trap; an accepted request names
/// one presentation (or, as a virtual playlist, one to the limit), every option within its limit,
/// and every error names the field it is about when it is about one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSessionRequest(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let limits = PlaybackSessionRequest.Limits()
    let request: PlaybackSessionRequest
    do {
        request = try PlaybackSessionRequest(parsing: UnsafeBufferPointer(start: start, count: count), limits: limits)
    } catch {
        precondition(!error.message.isEmpty && !error.message.contains("\n"), "an error is one line")
        precondition(!error.message.contains("CodingKeys"), "no Swift type names in errors")
        return 0
    }
    precondition(!request.urls.isEmpty && request.urls.count <= limits.maximumURLs)
    precondition(request.isVirtual || request.urls.count == 1)
    precondition(request.urls.allSatisfy { $0.string.hasPrefix("http://") || $0.string.hasPrefix("https://") })
    for amount in [request.bufferAhead, request.startBuffer].compactMap({ $0 }) {
        switch amount {
        case .seconds(let seconds): precondition(seconds > 0 && seconds <= limits.maximumSeconds)
        case .segments(let segments): precondition(segments > 0 && segments <= limits.maximumSegments)
        }
    }
    precondition(request.idleTimeout > .zero && request.startTimeout > .zero)
    if let head = request.headSegments { precondition(head >= 1 && head <= limits.maximumSegments) }
    if let bandwidth = request.bandwidth { precondition(bandwidth >= 1) }
    if let maximum = request.maximumBandwidth { precondition(maximum >= 1) }
    precondition(request.headers.isWithinLimits, "accepted headers hold to their limits")
    return 0
}
