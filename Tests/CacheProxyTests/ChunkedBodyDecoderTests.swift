import CacheProxyParsing
import Testing

/// Chunked request bodies, as they arrive in pieces.
@Suite("Chunked body decoder")
struct ChunkedBodyDecoderTests {
    /// The body and the bytes consumed, decoding `bytes` delivered in pieces cut at `cuts`, as the
    /// codec calls the decoder; the failure if one is found; nil body when the end never came.
    static func decode(_ bytes: [UInt8], cuts: [Int] = [], limits: HTTP1RequestHeadParser.Limits = HTTP1RequestHeadParserTests.limits)
        -> (body: [UInt8]?, consumed: Int, failure: HTTP1ParseFailure?)
    {
        var decoder = ChunkedBodyDecoder(limits: limits)
        var body: [UInt8] = []
        var consumed = 0
        for available in cuts + [bytes.count] {
            steps: while consumed < available {
                let step = Array(bytes[consumed..<available]).withUnsafeBytes { decoder.decode($0) }
                switch step {
                case .data(let range, let used):
                    body += bytes[(consumed + range.lowerBound)..<(consumed + range.upperBound)]
                    consumed += used
                case .needMore(let used):
                    consumed += used
                    break steps
                case .end(let used):
                    return (body, consumed + used, nil)
                case .invalid(let failure):
                    return (nil, consumed, failure)
                }
            }
        }
        return (nil, consumed, nil)
    }

    static let wellFormed = Array("5;name=value\r\nhello\r\nA; q=\"a;b\"\r\n, world!!!\r\n0\r\nX-Trailer: t\r\nX-Other: u\r\n\r\nNEXT".utf8)

    @Test("Chunks, extensions and trailer fields are read; the body is the chunks' data and ends before what follows")
    func readsChunks() {
        let (body, consumed, failure) = Self.decode(Self.wellFormed)
        #expect(failure == nil)
        #expect(body == Array("hello, world!!!".utf8))
        #expect(consumed == Self.wellFormed.count - 4)
    }

    @Test("The same bytes cut anywhere, once or at every byte, decode to the same body and end")
    func cutsChangeNothing() {
        for cut in 0...Self.wellFormed.count {
            let (body, consumed, _) = Self.decode(Self.wellFormed, cuts: [cut])
            #expect(body == Array("hello, world!!!".utf8) && consumed == Self.wellFormed.count - 4, "cut at \(cut)")
        }
        let (body, _, _) = Self.decode(Self.wellFormed, cuts: Array(0..<Self.wellFormed.count))
        #expect(body == Array("hello, world!!!".utf8))
    }

    @Test("Broken framing is refused", arguments: [
        "zz\r\nab\r\n0\r\n\r\n", "\r\n", "FFFFFFFFFFFFFFFFFF\r\n", "8000000000000000\r\n",
        "2\r\nabXX0\r\n\r\n", "2\nab\r\n0\r\n\r\n", "2\r\nab\r\n0\r\nX : y\r\n\r\n", "2 x\r\nab\r\n0\r\n\r\n", "2;\u{0}\r\nab\r\n0\r\n\r\n",
        "0\r\nX: a\nb\r\n\r\n",
    ])
    func refusals(_ text: String) {
        #expect(Self.decode(Array(text.utf8)).failure != nil, "\(text.debugDescription)")
    }

    @Test("A size line or trailers past the limits are refused before they end")
    func limits() {
        let small = HTTP1RequestHeadParser.Limits(maximumFieldSize: 64, maximumHeadBytes: 100, maximumFieldCount: 2)
        #expect(Self.decode(Array(("1;" + String(repeating: "e", count: 100)).utf8), limits: small).failure?.reason == .fieldTooLarge)
        #expect(Self.decode(Array("0\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n".utf8), limits: small).failure?.reason == .tooManyFields)
        let long = "0\r\n" + (0..<2).map { "A\($0): " + String(repeating: "v", count: 60) + "\r\n" }.joined() + "\r\n"
        #expect(Self.decode(Array(long.utf8), limits: small).failure?.reason == .headTooLarge)
    }

    @Test("Chunk sizes in either case and with leading zeros, and a last chunk of several zeros")
    func sizes() {
        let (body, _, failure) = Self.decode(Array("00a\r\n0123456789\r\nB\r\nabcdefghijk\r\n000\r\n\r\n".utf8))
        #expect(failure == nil)
        #expect(body == Array("0123456789abcdefghijk".utf8))
    }
}
