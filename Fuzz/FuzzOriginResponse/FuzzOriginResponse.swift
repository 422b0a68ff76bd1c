import CacheProxyParsing

// An origin's response head as the proxy reads it (CacheProxy's OriginResponseHead and
// RangedResponse.check): the fields (`OriginResponseFields`), then the verdict on it as the
// answer to a ranged GET (`RangedAnswer`).
//
// Input: a first line `STATUS START` (the status code and the first byte the request asked
// for; either may be missing), then one header field per line, `name: value` (split at the
// first colon, spaces after it dropped, as the HTTP parser hands them over).
//
// What must hold: nothing traps; a head is refused only for a malformed Content-Range; a chunked
// body has no Content-Length, any other's is the field's number and reads back; a Content-Range
// read writes back to itself; the resource length is the 206's or 416's complete length or the
// 200's Content-Length; an accepted 206 body starts at or before the byte asked for, holds it,
// ends inside the resource and at a 64-bit offset; a 200 body starts at 0 and promises its
// Content-Length; a 416 is the end of the resource; any other status is passed on as itself.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOriginResponse(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let lines = Array(UnsafeBufferPointer(start: start, count: count)).split(separator: 0x0A, omittingEmptySubsequences: false)
    let numbers = (lines.first ?? []).split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) }
    let status = numbers.first.flatMap { Int($0) } ?? 206
    let asked = numbers.dropFirst().first.flatMap { UInt64($0) } ?? 0
    var fields: [(name: String, value: String)] = []
    for line in lines.dropFirst() {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
        let value = line[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
        fields.append((String(decoding: line[..<colon], as: UTF8.self), String(decoding: value, as: UTF8.self)))
    }
    let head: OriginResponseFields
    do {
        head = try OriginResponseFields(status: status, fields: fields)
    } catch {
        let contentRange = fields.first { $0.name.lowercased() == "content-range" }?.value
        precondition(contentRange.map { (try? ContentRange(parsing: $0)) == nil } ?? false,
                     "a head refused for something other than a bad Content-Range: \(error)")
        return 0
    }
    checkLengths(head, fields)
    for offset in [asked, 0, 1, UInt64.max - 1, UInt64.max] + bounds(head.contentRange) {
        checkVerdict(head, start: offset)
    }
    return 0
}

private func checkLengths(_ head: OriginResponseFields, _ fields: [(name: String, value: String)]) {
    let chunked = fields.filter { $0.name.lowercased() == "transfer-encoding" }
        .flatMap { $0.value.split(separator: ",") }
        .contains { $0.trimmingCharacters(in: " \t").lowercased() == "chunked" }
    if chunked {
        precondition(head.contentLength == nil, "a chunked body with a Content-Length")
    } else if let length = head.contentLength {
        let field = fields.first { $0.name.lowercased() == "content-length" }?.value ?? ""
        precondition(UInt64(field.trimmingCharacters(in: " \t")) == length, "Content-Length \(length) read from \(field)")
        let again = try? OriginResponseFields(status: head.status, fields: [("Content-Length", "\(length)")])
        precondition(again?.contentLength == length, "Content-Length \(length) does not read back")
    }
    if let contentRange = head.contentRange {
        let range = contentRange.range.map { "\($0.lowerBound)-\($0.upperBound)" } ?? "*"
        let text = "bytes \(range)/\(contentRange.completeLength.map(String.init) ?? "*")"
        precondition((try? ContentRange(parsing: text)) == contentRange, "Content-Range \(text) does not read back")
        if let range = contentRange.range, let length = contentRange.completeLength {
            precondition(range.upperBound < length, "Content-Range \(text) past the resource")
        }
    }
    let expected: UInt64? = switch head.status {
    case 206, 416: head.contentRange?.completeLength
    case 200: head.contentLength
    default: nil
    }
    precondition(head.resourceLength == expected, "resource length \(String(describing: head.resourceLength)) for a \(head.status)")
}

private func checkVerdict(_ head: OriginResponseFields, start: UInt64) {
    let answer = RangedAnswer(status: head.status, contentRange: head.contentRange, contentLength: head.contentLength,
                              start: start)
    switch (head.status, answer) {
    case (206, .bytes(let bodyStart, let promisedEnd)):
        let range = head.contentRange?.range
        precondition(bodyStart == range?.lowerBound && bodyStart <= start, "a 206 body from \(bodyStart) for byte \(start)")
        guard let promisedEnd else { preconditionFailure("a 206 body without an end") }
        precondition(start < promisedEnd && bodyStart < promisedEnd, "a 206 body \(bodyStart)..<\(promisedEnd) for byte \(start)")
        if let length = head.contentRange?.completeLength {
            precondition(promisedEnd <= length, "a 206 body ending at \(promisedEnd), past the resource's \(length) bytes")
        }
    case (206, .otherBytes):
        if let range = head.contentRange?.range {
            precondition(!range.contains(start) || range.upperBound == UInt64.max, "a 206 for \(range) refused for byte \(start)")
        }
    case (200, .bytes(let bodyStart, let promisedEnd)):
        precondition(bodyStart == 0 && promisedEnd == head.contentLength, "a 200 body \(bodyStart)..<\(String(describing: promisedEnd))")
    case (416, .pastEnd):
        break
    case (let status, .status(let passed)):
        precondition(status == passed && ![200, 206, 416].contains(status), "status \(status) passed on as \(passed)")
    default:
        preconditionFailure("status \(head.status) judged \(answer)")
    }
}

/// The offsets next to the edges of a Content-Range, where off-by-one errors live.
private func bounds(_ contentRange: ContentRange?) -> [UInt64] {
    guard let range = contentRange?.range else { return [] }
    return [range.lowerBound, range.upperBound, range.lowerBound &- 1, range.upperBound &+ 1]
}

extension StringProtocol {
    /// Without leading and trailing characters of `set`.
    fileprivate func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
