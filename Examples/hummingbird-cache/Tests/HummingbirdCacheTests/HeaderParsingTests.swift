@testable import HummingbirdCache
import SparseFile
import Testing

/// The two headers the proxy reads from untrusted peers: a client's `Range` and an origin's
/// `Content-Range`. Malformed values are refused or ignored, never trusted, never a trap.
@Suite struct HeaderParsingTests {
    @Test(arguments: [
        ("bytes=0-99", RequestedRange.from(first: 0, last: 99)),
        ("BYTES=5-", .from(first: 5, last: nil)),
        ("bytes=-10", .suffix(length: 10)),
        ("bytes=9-3", .whole),                     // last before first
        ("bytes=0-1,5-9", .whole),                 // several ranges: served whole
        ("items=0-9", .whole),
        ("bytes=", .whole),
        ("bytes=-", .whole),
        ("bytes=1x-2", .whole),
        ("bytes=99999999999999999999-", .whole),   // 20 digits: does not fit
        ("bytes=18446744073709551615-", .whole),
    ])
    func rangeHeaders(header: String, expected: RequestedRange) {
        #expect(RequestedRange(header: header) == expected)
    }

    @Test func rangesResolveAgainstTheLength() {
        #expect(RequestedRange.whole.resolved(length: 10) == ByteRange(from: 0, to: 10))
        #expect(RequestedRange.from(first: 2, last: 100).resolved(length: 10) == ByteRange(from: 2, to: 10))
        #expect(RequestedRange.from(first: 2, last: 5).resolved(length: 10) == ByteRange(from: 2, to: 6))
        #expect(RequestedRange.from(first: 10, last: nil).resolved(length: 10) == nil)
        #expect(RequestedRange.suffix(length: 30).resolved(length: 10) == ByteRange(from: 0, to: 10))
        #expect(RequestedRange.suffix(length: 0).resolved(length: 10) == nil)
        #expect(RequestedRange.suffix(length: 3).resolved(length: 0) == nil)
        #expect(RequestedRange.from(first: 0, last: UInt64.max - 1).resolved(length: UInt64.max) == ByteRange(from: 0, to: .max))
    }

    @Test func aSuffixFetchesTheFirstByteToLearnTheLength() {
        #expect(RequestedRange.suffix(length: 5).firstFetch == ByteRange(from: 0, to: 1))
        #expect(RequestedRange.from(first: 7, last: 9).firstFetch == ByteRange(from: 7, to: 10))
        #expect(RequestedRange.from(first: 7, last: .max - 1).firstFetch == ByteRange(from: 7, to: .max))
    }

    @Test func contentRangesAreCheckedAgainstTheirTotal() throws {
        let known = try #require(OriginContentRange(header: "bytes 0-99/1000"))
        #expect(known.range == ByteRange(from: 0, to: 100))
        #expect(known.total == 1000)
        #expect(OriginContentRange(header: "bytes 10-19/*")?.total == nil)
        #expect(OriginContentRange(header: "bytes 10-19/*") != nil)
        for hostile in ["bytes 0-99/50", "bytes 9-3/10", "bytes 0-99", "bytes */100", "bytes 0-18446744073709551615/1",
                        "items 0-9/10", "bytes 0-9/1x", "bytes -9/10", "bytes 0-9/"] {
            #expect(OriginContentRange(header: hostile) == nil, "\(hostile)")
        }
    }
}
