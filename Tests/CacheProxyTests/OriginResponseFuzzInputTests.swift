import CacheProxyParsing
import Foundation
import Testing

/// What the origin-side fuzz targets check, as unit tests: an origin's response head read into
/// `OriginResponseFields`, judged by `RangedAnswer` (FuzzOriginResponse), and the origin guard's
/// verdict on addresses, `OriginAddressPolicy` (FuzzOriginGuard). The inputs FuzzOriginResponse
/// crashed on are kept in `Fuzz/FuzzOriginResponse/crashes/` and replayed here.
@Suite struct OriginResponseFuzzInputTests {
    static var crashInputs: [String] { KeptFuzzInputs.names(of: "FuzzOriginResponse") }

    @Test func theKeptCrashInputsAreFound() {
        #expect(Self.crashInputs.contains("content-range-to-the-last-offset"))
    }

    /// Each kept input, read as the target reads it: an accepted 206 body holds the byte asked
    /// for and ends at a 64-bit offset inside the resource.
    @Test(arguments: crashInputs)
    func anAcceptedPartialBodyHoldsTheByteAskedFor(_ name: String) throws {
        let text = String(decoding: try KeptFuzzInputs.bytes(of: "FuzzOriginResponse", name), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let numbers = (lines.first ?? "").split(separator: " ")
        let status = numbers.first.flatMap { Int($0) } ?? 206
        let start = numbers.dropFirst().first.flatMap { UInt64($0) } ?? 0
        let fields = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }))
        }
        // Kept inputs crashed past the reading of the head: one refused now would check nothing.
        let head = try OriginResponseFields(status: status, fields: fields)
        let answer = RangedAnswer(status: head.status, contentRange: head.contentRange, contentLength: head.contentLength, start: start)
        if case .bytes(let bodyStart, let promisedEnd) = answer, status == 206 {
            let end = try #require(promisedEnd)
            #expect(bodyStart <= start && start < end)
            #expect(end <= head.contentRange?.completeLength ?? UInt64.max)
        }
    }

    /// Found by FuzzOriginResponse: a 206 whose Content-Range ends at byte 2^64-1 (`bytes
    /// 0-18446744073709551615/*`, allowed when the complete length is unknown) made the proxy
    /// compute its end, one past that byte, and trap on the overflow: any origin could stop the
    /// proxy with one response. Such a body's end is no 64-bit offset: it is refused as other bytes.
    @Test(arguments: [0, 5, UInt64.max - 1, UInt64.max])
    func aPartialBodyEndingAtTheLastOffsetIsRefused(start: UInt64) {
        let range = ContentRange(range: 0...UInt64.max, completeLength: nil)
        #expect(RangedAnswer(status: 206, contentRange: range, contentLength: nil, start: start) == .otherBytes)
    }

    @Test func aPartialBodyEndingOneByteEarlierIsAccepted() {
        let range = ContentRange(range: 10...(UInt64.max - 1), completeLength: nil)
        #expect(RangedAnswer(status: 206, contentRange: range, contentLength: nil, start: 10)
            == .bytes(bodyStart: 10, promisedEnd: UInt64.max))
    }

    @Test func answersAreJudgedByStatusAndRange() throws {
        let wider = try ContentRange(parsing: "bytes 100-199/1000")
        #expect(RangedAnswer(status: 206, contentRange: wider, contentLength: 100, start: 150) == .bytes(bodyStart: 100, promisedEnd: 200))
        #expect(RangedAnswer(status: 206, contentRange: wider, contentLength: 100, start: 200) == .otherBytes)
        #expect(RangedAnswer(status: 206, contentRange: wider, contentLength: 100, start: 99) == .otherBytes)
        #expect(RangedAnswer(status: 206, contentRange: nil, contentLength: 100, start: 0) == .otherBytes)
        #expect(RangedAnswer(status: 200, contentRange: nil, contentLength: 1000, start: 150) == .bytes(bodyStart: 0, promisedEnd: 1000))
        #expect(RangedAnswer(status: 416, contentRange: nil, contentLength: nil, start: 5000) == .pastEnd)
        #expect(RangedAnswer(status: 503, contentRange: wider, contentLength: nil, start: 150) == .status(503))
    }

    @Test func fieldsAreReadByNameIgnoringCaseAndTheFirstOneCounts() throws {
        let head = try OriginResponseFields(status: 206, fields: [
            ("CONTENT-LENGTH", " 100 "), ("content-length", "7"), ("Content-Range", "bytes 0-99/1000"),
            ("etag", " \"v1\" "), ("Cache-Control", "max-age=60"), ("cache-control", "no-store"), ("Vary", "Origin"),
            ("vary", "Accept-Encoding"), ("Age", "12"), ("Content-Type", "video/mp4"), ("Last-Modified", "yesterday"),
        ])
        #expect(head.contentLength == 100)
        #expect(head.contentRange == ContentRange(range: 0...99, completeLength: 1000))
        #expect(head.resourceLength == 1000)
        #expect(head.entityTag == "\"v1\"")
        #expect(head.cacheControl.maxAge == 60 && head.cacheControl.noStore)
        #expect(head.vary.names == ["accept-encoding", "origin"])
        #expect(head.age == 12 && head.contentType == "video/mp4" && head.lastModified == "yesterday")
    }

    @Test(arguments: ["chunked", "gzip, chunked", "gzip,CHUNKED ", " chunked,"])
    func aChunkedBodyHasNoContentLength(_ encoding: String) throws {
        let head = try OriginResponseFields(status: 200, fields: [("Transfer-Encoding", encoding), ("Content-Length", "99")])
        #expect(head.contentLength == nil && head.resourceLength == nil)
    }

    @Test func aMalformedContentRangeIsRefusedWithTheValueInTheMessage() {
        let error = #expect(throws: ParseError.self) {
            try OriginResponseFields(status: 206, fields: [("Content-Range", "bytes 5-3/10")])
        }
        #expect(error?.message.hasPrefix("origin sent a bad Content-Range \"bytes 5-3/10\": ") == true)
    }

    @Test func otherMalformedFieldsReadAsAbsent() throws {
        let head = try OriginResponseFields(status: 200, fields: [("Content-Length", "12x"), ("Age", "-1")])
        #expect(head.contentLength == nil && head.age == nil && head.resourceLength == nil)
    }
}
