import CacheProxyParsing

/// Reads arbitrary bytes as an HTTP/1.1 request, as the proxy's codec does: the head with
/// `HTTP1RequestHeadParser`, then a chunked body with `ChunkedBodyDecoder`. Neither may trap,
/// and what they read must be consistent:
/// - a head ends with CRLF CRLF inside the bytes; the head alone reads the same; shorter
///   prefixes ask for more or are refused, never read as another head;
/// - a head written back from what was read (method, target, version, fields) reads back the
///   same, framing included;
/// - a plain head that `RawRequestHead` (the hit path's reader) reads is read with the same
///   method, target, version and length, or refused for its method only (the hit path takes any
///   token and leaves the verdict to this parser);
/// - a chunked body decodes to the same data and end whether its bytes come at once or in two
///   pieces cut anywhere.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP1Request(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let parser = HTTP1RequestHeadParser(limits: .init(maximumFieldSize: 4096, maximumHeadBytes: 8192, maximumFieldCount: 16))
    let result = parser.parse(bytes)
    checkAgreementWithTheHitPath(bytes, result)
    guard case .head(let head, let length) = result else { return 0 }
    precondition(length >= 4 && length <= count, "a head of \(length) bytes in \(count)")
    precondition(Array(bytes[(length - 4)..<length]) == [13, 10, 13, 10], "a head that does not end with CRLF CRLF")
    precondition(parser.parse(UnsafeRawBufferPointer(rebasing: bytes[..<length])) == result, "the head alone reads otherwise")
    for cut in [length - 1, length / 2, 1] where cut < length {
        switch parser.parse(UnsafeRawBufferPointer(rebasing: bytes[..<cut])) {
        case .needMore, .invalid: break
        case .head: preconditionFailure("a prefix of \(cut) bytes read as a head")
        }
    }
    checkRoundTrip(head, parser: parser)
    if head.framing == .chunked {
        checkChunkedBody(UnsafeRawBufferPointer(rebasing: bytes[length...]), limits: parser.limits)
    }
    return 0
}

private func checkRoundTrip(_ head: HTTP1RequestHeadParser.Head, parser: HTTP1RequestHeadParser) {
    var text = "\(head.method) \(head.target) HTTP/1.\(head.minorVersion)\r\n"
    for field in head.fields { text += "\(field.name): \(field.value)\r\n" }
    text += "\r\n"
    let written = Array(text.utf8)
    let reread = written.withUnsafeBytes { parser.parse($0) }
    precondition(reread == .head(head, length: written.count), "a head written back reads otherwise: \(reread)")
}

private func checkAgreementWithTheHitPath(_ bytes: UnsafeRawBufferPointer, _ result: HTTP1RequestHeadParser.Result) {
    guard case .head(let raw, let rawLength) = RawRequestHead.read(bytes, limit: 4096, maximumFields: 16) else { return }
    switch result {
    case .head(let head, let length):
        precondition(head.method == raw.method && head.target == raw.target && head.minorVersion == raw.minorVersion,
                     "the hit path reads another request line")
        precondition(length == rawLength, "the hit path reads a head of \(rawLength) bytes, the parser \(length)")
    case .invalid(let failure):
        precondition(failure.reason == .unknownMethod, "a plain head the hit path reads is refused: \(failure)")
    case .needMore:
        preconditionFailure("a plain head the hit path reads is incomplete")
    }
}

private func checkChunkedBody(_ bytes: UnsafeRawBufferPointer, limits: HTTP1RequestHeadParser.Limits) {
    let whole = decodeChunks(bytes, cut: bytes.count, limits: limits)
    let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    let split = decodeChunks(bytes, cut: cut, limits: limits)
    precondition(whole == split, "a chunked body cut at \(cut) decodes otherwise")
}

/// The data, and the bytes used by the end (nil: no end) or the failure's reason, with the
/// bytes delivered in two pieces: up to `cut`, then the rest.
private func decodeChunks(_ bytes: UnsafeRawBufferPointer, cut: Int, limits: HTTP1RequestHeadParser.Limits)
    -> (data: [UInt8], end: Int?, failure: HTTP1ParseFailure.Reason?)
{
    var decoder = ChunkedBodyDecoder(limits: limits)
    var data: [UInt8] = []
    var consumed = 0
    for available in [cut, bytes.count] {
        steps: while consumed < available {
            switch decoder.decode(UnsafeRawBufferPointer(rebasing: bytes[consumed..<available])) {
            case .data(let range, let used):
                precondition(range.lowerBound >= 0 && range.upperBound <= used && used <= available - consumed, "data outside the bytes")
                data += bytes[(consumed + range.lowerBound)..<(consumed + range.upperBound)]
                consumed += used
            case .needMore(let used):
                precondition(used <= available - consumed, "consumed past the bytes")
                consumed += used
                break steps
            case .end(let used):
                precondition(used <= available - consumed, "consumed past the bytes")
                return (data, consumed + used, nil)
            case .invalid(let failure):
                return (data, nil, failure.reason)
            }
        }
    }
    return (data, nil, nil)
}
