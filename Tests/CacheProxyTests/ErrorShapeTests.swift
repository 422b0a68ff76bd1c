import CacheProxy
import CacheProxyParsing
import CacheStore
import CodedErrors
import DASH
import Glibc
import HLS
import SparseFile
import Testing

/// Every error of the package has one shape (``CodedError``): a stable code, a message and where.
/// Errors compare by code alone, their text is `where: message`, and the codes scripts match on
/// keep their spelling.
@Suite("One error shape across the modules")
struct ErrorShapeTests {
    /// Checks the shape on two errors of one type that share a code but not their wording or
    /// place, and a third with another code.
    static func checkShape<E: CodedError>(_ first: E, sameCode second: E, otherCode third: E) {
        #expect(first == second && first.hashValue == second.hashValue, "compared by code alone: \(first) and \(second)")
        #expect(first != third)
        for error in [first, second, third] {
            #expect(error.description == (error.location.map { "\($0): \(error.message)" } ?? error.message))
        }
    }

    @Test("Errors of every module compare by code and read as `where: message`")
    func everyErrorHasTheShape() {
        Self.checkShape(HLSParseError(code: .notAPlaylist, message: "no #EXTM3U", line: 0),
                        sameCode: HLSParseError(code: .notAPlaylist, message: "empty", line: 4),
                        otherCode: HLSParseError(code: .limitExceeded, message: "too many lines", line: 9))
        Self.checkShape(HLSComposeError(code: .live, message: "no end", partIndex: 1),
                        sameCode: HLSComposeError(code: .live, message: "still live"),
                        otherCode: HLSComposeError(code: .empty, message: "no segments", partIndex: 0))
        let position = DASHPosition(offset: 10, line: 2, column: 5)
        Self.checkShape(DASHParseError(code: .doctype, message: "a DTD", position: position),
                        sameCode: DASHParseError(code: .doctype, message: "another DTD", position: .whole),
                        otherCode: DASHParseError(code: .entity, message: "&x;", position: position))
        Self.checkShape(DASHIndexError(code: .truncated, message: "short box", offset: 8),
                        sameCode: DASHIndexError(code: .truncated, message: "shorter", offset: 0),
                        otherCode: DASHIndexError(code: .overflow, message: "2^64", offset: 8))
        Self.checkShape(ParseError(.malformed, "not a number", field: #""quality""#),
                        sameCode: ParseError(.malformed, "bad"),
                        otherCode: ParseError(.tooLong, "long"))
        Self.checkShape(CacheStoreError(.diskFull, "the disk is full"), sameCode: CacheStoreError.diskFull, otherCode: CacheStoreError.closed)
        Self.checkShape(CacheProxyError(.notFound, "no d7"), sameCode: CacheProxyError(.notFound, "no entry"),
                        otherCode: CacheProxyError(.notRunning, "stopped"))
        Self.checkShape(DownloadError(code: .live, message: "live", failures: []), sameCode: DownloadError(code: .live, message: "a live MPD", failures: []),
                        otherCode: DownloadError(code: .fetchFailed, message: "gone", failures: []))
    }

    @Test("Where is written before the message: a line, a part, a request field, a byte, a file")
    func locationsAreWritten() {
        #expect("\(HLSParseError(code: .ruleViolation, message: "bad tag", line: 3))" == "line 3: bad tag")
        #expect("\(HLSParseError(code: .notAPlaylist, message: "empty", line: 0))" == "empty", "no place for the input as a whole")
        #expect("\(HLSComposeError(code: .live, message: "no end", partIndex: 2))" == "playlist 2: no end")
        #expect("\(ParseError(.malformed, "not a number", field: #""quality""#))" == #""quality": not a number"#)
        #expect("\(DASHIndexError(code: .truncated, message: "short box", offset: 8))" == "byte 8: short box")
        #expect("\(DASHParseError(code: .doctype, message: "a DTD", position: .whole))" == "a DTD")
        // A file error also gives the system's words for its errno.
        #expect("\(SparseFileError(.diskFull, "write failed", path: "/c/a.sc", errno: ENOSPC))" == "/c/a.sc: write failed (No space left on device)")
    }

    @Test("Codes keep the spelling scripts match on")
    func codesKeepTheirSpelling() {
        let codes: [(String, String)] = [
            (HLSParseError.Code.notAPlaylist.rawValue, "not-a-playlist"), (HLSParseError.Code.limitExceeded.rawValue, "limit-exceeded"),
            (HLSComposeError.Code.deltaUpdate.rawValue, "delta-update"), (HLSDiagnostic.Code.encoding.rawValue, "encoding"),
            (DASHParseError.Code.malformedXML.rawValue, "malformed-xml"), (DASHIndexError.Code.unsupportedVersion.rawValue, "unsupported-version"),
            (DownloadError.Code.tooManySegments.rawValue, "too-many-segments"), (ParseError.Code.tooLong.rawValue, "tooLong"),
            (SparseFileError.Code.lockedByAnotherWriter.rawValue, "lockedByAnotherWriter"), (CacheStoreError.Code.storeFull.rawValue, "storeFull"),
            (CacheProxyError.Code.addressInUse.rawValue, "addressInUse"),
        ]
        for (code, spelling) in codes { #expect(code == spelling) }
    }
}
