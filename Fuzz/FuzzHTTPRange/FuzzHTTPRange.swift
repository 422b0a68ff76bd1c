import CacheProxyParsing

/// Parses arbitrary bytes as a `Range` request header and as a `Content-Range` response header.
/// Neither may trap; every range a parsed header resolves to must lie inside the resource.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRange(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    if let request = try? RangeRequest(parsing: bytes) {
        let specifiers: [RangeSpecifier]
        switch request {
        case .single(let specifier): specifiers = [specifier]
        case .multiple(let list): specifiers = list
        }
        for specifier in specifiers {
            for length: UInt64 in [0, 1, 2, 100, 1 << 32, UInt64.max - 1, UInt64.max] {
                guard let range = specifier.resolve(length: length) else { continue }
                precondition(!range.isEmpty && range.upperBound <= length, "resolved range \(range) outside \(length)")
            }
        }
    }
    if let contentRange = try? ContentRange(parsing: bytes) {
        if let range = contentRange.range, let length = contentRange.completeLength {
            precondition(range.upperBound < length, "Content-Range past its length")
        }
        precondition(contentRange.range != nil || contentRange.completeLength != nil)
    }
    return 0
}
