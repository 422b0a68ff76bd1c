import CacheProxyParsing

/// Parses arbitrary bytes as a `POST /prefetch` body. It may not trap; an accepted request has
/// between one and the limit of http(s) URLs and exactly one positive budget within its limit.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPrefetchRequest(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let limits = PrefetchRequest.Limits()
    guard let request = try? PrefetchRequest(parsing: UnsafeBufferPointer(start: start, count: count), limits: limits) else { return 0 }
    precondition(!request.urls.isEmpty && request.urls.count <= limits.maximumURLs)
    precondition(request.urls.allSatisfy { $0.string.hasPrefix("http://") || $0.string.hasPrefix("https://") })
    switch request.budget {
    case .seconds(let seconds): precondition(seconds > 0 && seconds <= limits.maximumSeconds)
    case .segments(let segments): precondition(segments > 0 && segments <= limits.maximumSegments)
    case .bytes(let bytes): precondition(bytes > 0 && bytes <= limits.maximumBytes)
    }
    precondition(request.headers.count == request.urls.count && request.headers.allSatisfy(\.isWithinLimits),
                 "one set of headers per URL, each within the limits")
    return 0
}
