import CacheProxyParsing
import Testing

@Suite("Prefetch requests and MP4 box layout")
struct PrefetchParsingTests {
    @Test(arguments: [
        (#"{"urls": ["https://a/x.m3u8"], "seconds": 6}"#, PrefetchRequest.Budget.seconds(6), PrefetchRequest.VariantChoice.lowest),
        (#"{"urls": ["https://a/x.m3u8"], "segments": 2, "variant": "highest"}"#, .segments(2), .highest),
        (#"{"urls": ["https://a/x.m3u8"], "bytes": 500000, "variant": 1200000}"#, .bytes(500_000), .closest(1_200_000)),
    ])
    func validRequestsParse(json: String, budget: PrefetchRequest.Budget, variant: PrefetchRequest.VariantChoice) throws {
        let request = try PrefetchRequest(parsing: Array(json.utf8))
        #expect(request.urls.map(\.string) == ["https://a/x.m3u8"])
        #expect(request.budget == budget)
        #expect(request.variant == variant)
    }

    /// Found by FuzzSessionRequest: a member name with an escaped newline made a two-line error.
    @Test("An unknown member is named on one line, its control characters, quotes and backslashes escaped")
    func unknownMemberNamedOnOneLine() {
        let member = #""b\ndw\u0085i\"d\\th""#
        let expected = #"unknown field "b\ndw\u0085i\"d\\th""#
        let download = #expect(throws: ParseError.self) {
            try DownloadRequest(parsing: Array(#"{"url": "https://a/x.m3u8", \#(member): 1}"#.utf8))
        }
        let session = #expect(throws: ParseError.self) {
            try PlaybackSessionRequest(parsing: Array(#"{"url": "https://a/x.m3u8", \#(member): 800000}"#.utf8))
        }
        for error in [download, session] {
            #expect(error?.code == .unsupported)
            #expect(error?.message == expected, "\(String(describing: error?.message))")
        }
    }

    @Test(arguments: [
        (#"{"urls": [], "seconds": 1}"#, ParseError.Code.missing),
        (#"{"urls": ["https://a/x"]}"#, .missing),
        (#"{"urls": ["https://a/x"], "seconds": 1, "segments": 2}"#, .malformed),
        (#"{"urls": ["https://a/x"], "seconds": 0}"#, .malformed),
        (#"{"urls": ["https://a/x"], "seconds": 1e9}"#, .malformed),
        (#"{"urls": ["https://a/x"], "bytes": 1, "variant": "medium"}"#, .malformed),
        (#"{"urls": ["gopher://a/x"], "seconds": 1}"#, .unsupported),
        (#"[1, 2]"#, .malformed),
        (#"{"urls": "https://a/x", "seconds": 1}"#, .malformed),
    ])
    func invalidRequestsFailWithAReason(json: String, code: ParseError.Code) {
        #expect {
            try PrefetchRequest(parsing: Array(json.utf8))
        } throws: { error in
            (error as? ParseError)?.code == code
        }
    }

    @Test func tooManyURLsAndTooLargeBodiesAreRefused() {
        var limits = PrefetchRequest.Limits()
        limits.maximumURLs = 2
        let urls = (0..<3).map { "\"https://a/\($0)\"" }.joined(separator: ",")
        #expect(throws: ParseError.self) { try PrefetchRequest(parsing: Array(#"{"urls": [\#(urls)], "seconds": 1}"#.utf8), limits: limits) }
        limits.maximumBodyBytes = 10
        #expect(throws: ParseError.self) { try PrefetchRequest(parsing: Array(#"{"urls": ["https://a/b"], "seconds": 1}"#.utf8), limits: limits) }
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        withUnsafeBytes(of: UInt32(8 + payload.count).bigEndian, Array.init) + Array(type.utf8) + payload
    }

    @Test func aMovieBoxAtTheStartIsFoundWithItsDuration() throws {
        let mvhd = Self.box("mvhd", [0, 0, 0, 0] + [UInt8](repeating: 0, count: 8) + [0, 0, 0x03, 0xE8] + [0, 0, 0x4E, 0x20] + [UInt8](repeating: 0, count: 80))
        let moov = Self.box("moov", mvhd)
        let file = Self.box("ftyp", Array("isom".utf8)) + moov + Self.box("mdat", [1, 2, 3])
        let layout = MP4BoxLayout(scanning: file, fileLength: UInt64(file.count))
        #expect(layout.boxes.map(\.type) == ["ftyp", "moov", "mdat"])
        let found = try #require(layout.moov)
        #expect(found.offset == 12)
        #expect(MP4BoxLayout.duration(inMovieBox: moov) == 20)
        #expect(layout.nextBoxOffset == nil)
    }

    @Test func aMovieBoxAfterTheMediaDataIsLocatedPastTheBytesRead() {
        let head = Self.box("ftyp", Array("isom".utf8)) + withUnsafeBytes(of: UInt32(1_000_000).bigEndian, Array.init) + Array("mdat".utf8) + [0, 0]
        let layout = MP4BoxLayout(scanning: head, fileLength: 2_000_000)
        #expect(layout.boxes.map(\.type) == ["ftyp", "mdat"])
        #expect(layout.moov == nil)
        #expect(layout.nextBoxOffset == 12 + 1_000_000)
    }

    @Test(arguments: [
        [UInt8]([0, 0, 0, 4]) + Array("moov".utf8),  // smaller than its own header
        [0, 0, 0, 1] + Array("mdat".utf8) + [0, 0, 0, 0, 0, 0, 0, 2],  // 64-bit size below 16
        [0xFF, 0xFF, 0xFF, 0xFF] + Array("mdat".utf8),  // past the file
        [0, 0, 0, 1] + Array("mdat".utf8),  // 64-bit size cut off
    ])
    func nonsenseHeadersStopTheScan(bytes: [UInt8]) {
        let layout = MP4BoxLayout(scanning: bytes, fileLength: 100)
        #expect(layout.boxes.isEmpty)
        #expect(MP4BoxLayout.duration(inMovieBox: bytes) == nil)
    }
}
