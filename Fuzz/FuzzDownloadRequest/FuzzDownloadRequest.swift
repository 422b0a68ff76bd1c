import CacheProxyParsing

/// Parses arbitrary bytes as a `POST /downloads` body. It may not trap; an accepted request names
/// an http(s) URL and a positive bandwidth when it names one; every error is one line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDownloadRequest(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let request: DownloadRequest
    do {
        request = try DownloadRequest(parsing: UnsafeBufferPointer(start: start, count: count))
    } catch {
        precondition(!error.message.isEmpty && !error.message.contains("\n"), "an error is one line")
        precondition(!error.message.contains("CodingKeys"), "no Swift type names in errors")
        return 0
    }
    precondition(request.url.string.hasPrefix("http://") || request.url.string.hasPrefix("https://"))
    if case .closest(let bandwidth) = request.variant { precondition(bandwidth >= 1) }
    precondition(request.headers.isWithinLimits, "accepted headers hold to their limits")
    return 0
}
