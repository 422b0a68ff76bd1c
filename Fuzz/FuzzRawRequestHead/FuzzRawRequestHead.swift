import CacheProxyParsing

/// Reads arbitrary bytes as a raw request head, the proxy's fast path for cache hits. It may
/// not trap, and what it reads must be consistent: a head ends with CRLF CRLF within the bytes,
/// its target and method are visible ASCII, and every shorter prefix of the bytes asks for more
/// (or is refused), never reads as another head.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRawRequestHead(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let reading = RawRequestHead.read(bytes, limit: 4096, maximumFields: 16)
    guard case .head(let head, let length) = reading else { return 0 }
    precondition(length >= 4 && length <= count, "a head of \(length) bytes in \(count)")
    precondition(Array(bytes[(length - 4)..<length]) == [13, 10, 13, 10], "a head that does not end with CRLF CRLF")
    precondition(!head.target.isEmpty && head.target.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "a target that is not visible ASCII")
    precondition(!head.method.isEmpty && head.minorVersion <= 1)
    // The head alone reads the same; any prefix of it is incomplete or refused.
    precondition(RawRequestHead.read(UnsafeRawBufferPointer(rebasing: bytes[..<length]), limit: 4096, maximumFields: 16) == reading)
    for cut in [length - 1, length / 2, 1] where cut < length {
        let prefix = RawRequestHead.read(UnsafeRawBufferPointer(rebasing: bytes[..<cut]), limit: 4096, maximumFields: 16)
        precondition(prefix == .needMore || prefix == .notPlain, "a prefix of \(cut) bytes read as a head")
    }
    return 0
}
