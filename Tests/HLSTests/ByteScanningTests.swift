@testable import HLS
import Testing

/// The word-at-a-time and vector scans the parser's speed rests on give exactly what a byte
/// loop gives, on random input: every byte value, every position, near the end of the input.
@Suite struct ByteScanningTests {
    /// A deterministic generator, so that a failure can be replayed.
    struct Random: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Bytes drawn mostly from `common`, sometimes any byte.
    static func bytes(_ count: Int, from common: [UInt8], random: inout Random) -> [UInt8] {
        (0..<count).map { _ in
            Int.random(in: 0..<8, using: &random) == 0 ? UInt8.random(in: 0...255, using: &random)
                : common.randomElement(using: &random) ?? 0
        }
    }

    static func withBytes<T>(_ bytes: [UInt8], _ body: (UnsafePointer<UInt8>) -> T) -> T {
        bytes.withUnsafeBufferPointer { buffer in body(buffer.baseAddress!) }
    }

    @Test func tagWordsAreTheirTexts() {
        func word(_ text: String) -> UInt64 {
            Array(text.utf8).enumerated().reduce(0) { $0 | UInt64($1.element) << (UInt64($1.offset) * 8) }
        }
        #expect(TagWords.extinf == word("#EXTINF:"))
        #expect(TagWords.byteRange.0 == word("#EXT-X-B") && TagWords.byteRange.1 == word("YTERANGE"))
        #expect(TagWords.programDateTime.0 == word("#EXT-X-P") && TagWords.programDateTime.1 == word("ROGRAM-D")
                    && TagWords.programDateTime.2 == word("ATE-TIME"))
        #expect(UInt64(TagWords.ext) == word("#EXT"))
        #expect(UInt64(TagWords.part) == word("ART:"))
    }

    @Test func wordTestsFlagExactlyTheirBytes() {
        var random = Random(state: 1)
        for _ in 0..<20_000 {
            let bytes = (0..<8).map { _ in UInt8.random(in: 0...255, using: &random) }
            let word = bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (UInt64($1.offset) * 8) }
            for (index, byte) in bytes.enumerated() {
                func flag(_ flags: UInt64) -> Bool { (flags >> (UInt64(index) * 8)) & 0x80 != 0 }
                #expect(flag(SWAR.specialBytes(word)) == (byte < 0x20 || byte >= 0x7F))
                #expect(flag(SWAR.nonDigits(word)) == !(0x30...0x39).contains(byte))
                #expect(flag(SWAR.nonHexDigits(word)) == (ASCII.hexValue(byte) == nil))
            }
            let target = bytes[Int.random(in: 0..<8, using: &random)]
            let firstMatch = bytes.firstIndex(of: target) ?? 8
            #expect(SWAR.firstFlagged(SWAR.matches(word, target)) == firstMatch)
        }
    }

    @Test func scansFindTheFirstByteALoopFinds() {
        var random = Random(state: 2)
        let text = Array("#EXT-X-KEY:METHOD=AES-128,URI=\"k\"".utf8)
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...70, using: &random)
            let bytes = Self.bytes(count, from: text, random: &random)
            let start = Int.random(in: 0...count, using: &random)
            let end = Int.random(in: start...count, using: &random)
            Self.withBytes(bytes + [0]) { base in
                let special = bytes[start..<count].firstIndex { $0 < 0x20 || $0 >= 0x7F } ?? count
                #expect(SpecialByteScanner.firstSpecialByte(in: base, from: start, to: count) == special)
                let (a, b) = (text.randomElement(using: &random) ?? 0, text.randomElement(using: &random) ?? 0)
                let found = bytes[start..<end].firstIndex { $0 == a || $0 == b } ?? end
                #expect(ByteSearch.first(a, or: b, in: base, from: start, to: end, readableEnd: count) == found)
                #expect(ByteSearch.first(a, or: b, in: base, from: start, to: end) == found)
            }
        }
    }

    @Test func numbersReadAWordAtATimeEqualTheGeneralScan() {
        var random = Random(state: 3)
        let digits = Array("0123456789".utf8)
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...24, using: &random)
            var bytes = Self.bytes(count, from: digits + Array(".-@x,".utf8), random: &random)
            if Int.random(in: 0..<2, using: &random) == 0 {
                bytes = Self.bytes(count, from: digits, random: &random)
            }
            // Readable memory ends right after the span, or a few bytes later.
            let padding = Int.random(in: 0...20, using: &random)
            let buffer = bytes + Self.bytes(padding, from: digits, random: &random)
            Self.withBytes(buffer + [0]) { base in
                let span = ByteSpan(0, count)
                let readable = buffer.count
                #expect(NumberSyntax.decimalInteger(base, span, readableEnd: readable)
                            == NumberSyntax.decimalInteger(base, span), "\(bytes)")
                let fast = NumberSyntax.decimalPrefix(base, span, readableEnd: readable)
                let general = NumberSyntax.decimalPrefix(base, span)
                #expect(fast.length == general.length && fast.isNegative == general.isNegative
                            && fast.rounded == general.rounded, "\(bytes)")
                #expect(describe(NumberSyntax.byteRange(base, span, readableEnd: readable))
                            == describe(generalByteRange(base, span)), "\(bytes)")
                let resolution = NumberSyntax.resolution(base, span, readableEnd: readable)
                #expect(resolution?.width == generalResolution(bytes)?.width
                            && resolution?.height == generalResolution(bytes)?.height, "\(bytes)")
            }
        }
    }

    @Test func hexadecimalSequencesAreCheckedAsByALoop() {
        var random = Random(state: 4)
        let hex = Array("0123456789abcdefABCDEFxX".utf8)
        for _ in 0..<10_000 {
            let count = Int.random(in: 0...40, using: &random)
            var bytes = Self.bytes(count, from: hex, random: &random)
            if count >= 2 && Int.random(in: 0..<2, using: &random) == 0 { bytes[0] = 0x30; bytes[1] = 0x78 }
            let padding = Int.random(in: 0...10, using: &random)
            Self.withBytes(bytes + Array(repeating: 0x41, count: padding) + [0]) { base in
                let expected = count > 2 && bytes[0] == 0x30 && (bytes[1] == 0x78 || bytes[1] == 0x58)
                    && bytes[2...].allSatisfy { ASCII.hexValue($0) != nil }
                #expect(NumberSyntax.isHexadecimal(base, ByteSpan(0, count), readableEnd: count + padding) == expected)
            }
        }
    }

    @Test func dateTimesReadAWordAtATimeEqualTheGeneralCheck() {
        var random = Random(state: 5)
        let valid = ["2026-11-21T22:03:08.070Z", "2026-11-21t22:03:08Z", "2026-11-21T22:03:08+01:00",
                     "2026-11-21T22:03:08.5-0130", "2026-11-21T22:03:08"]
        let alphabet = Array("0123456789-:T.Zt+z ".utf8)
        for _ in 0..<20_000 {
            var bytes = Array((valid.randomElement(using: &random) ?? "").utf8)
            for _ in 0..<Int.random(in: 0...2, using: &random) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = alphabet.randomElement(using: &random) ?? 0
            }
            let padding = Int.random(in: 0...8, using: &random)
            Self.withBytes(bytes + Array(repeating: 0x30, count: padding) + [0]) { base in
                let span = ByteSpan(0, bytes.count)
                #expect(DateTimeSyntax.isDateTime(base, span, readableEnd: bytes.count + padding)
                            == DateTimeSyntax.isDateTime(base, span), "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
    }

    @Test func everyNameIsFoundAndNearMissesAreNot() {
        #expect(AttributeName.allCases.count <= 128, "parseAttributeList tracks repeated names in 128 bits")
        var random = Random(state: 6)
        for (text, atEnd) in TagName.allCases.map(\.text).flatMap({ [($0, false), ($0, true)] }) {
            let name = Array(text.utf8)
            let buffer = atEnd ? name : name + Array(":VALUE,OTHER=1".utf8)
            Self.withBytes(buffer + [0]) { base in
                #expect(TagName.named(base, ByteSpan(0, name.count), in: TagName.table, readableEnd: buffer.count)?.text == text)
                #expect(TagName.named(base, ByteSpan(0, name.count - 1), in: TagName.table, readableEnd: buffer.count) == nil)
            }
            var changed = name
            changed[Int.random(in: 0..<name.count, using: &random)] ^= 0x01
            Self.withBytes(changed + [0]) { base in
                #expect(TagName.named(base, ByteSpan(0, changed.count), in: TagName.table, readableEnd: changed.count) == nil)
            }
        }
        for name in AttributeName.allCases {
            let bytes = Array(name.text.utf8)
            Self.withBytes(bytes + Array("=1".utf8)) { base in
                #expect(AttributeName.named(base, ByteSpan(0, bytes.count), in: AttributeName.table, readableEnd: bytes.count + 2) == name)
            }
        }
    }

    /// Names are compared as 32 zero-padded bytes and their length: a name that ends in zero
    /// bytes is not the shorter name, and a name is found wherever it sits before the end.
    @Test func aNameIsItsBytesAndItsLength() {
        for name in AttributeName.allCases {
            let bytes = Array(name.text.utf8)
            Self.withBytes(bytes + [0, 0] + Array(repeating: 0x41, count: 40)) { base in
                #expect(AttributeName.named(base, ByteSpan(0, bytes.count + 1), in: AttributeName.table, readableEnd: bytes.count + 42) == nil)
                #expect(AttributeName.named(base, ByteSpan(0, bytes.count), in: AttributeName.table, readableEnd: bytes.count + 42) == name)
            }
            for padding in 0..<34 {
                Self.withBytes(Array(repeating: 0x2C, count: padding) + bytes) { base in
                    let span = ByteSpan(padding, padding + bytes.count)
                    #expect(AttributeName.named(base, span, in: AttributeName.table, readableEnd: padding + bytes.count) == name)
                }
            }
        }
    }

    private func describe(_ syntax: NumberSyntax.ByteRangeSyntax) -> String {
        switch syntax {
        case .valid(let length, let offset): "\(length)@\(offset.map(String.init) ?? "-")"
        case .malformed: "malformed"
        }
    }

    /// `n[@o]` with the general integer scan.
    private func generalByteRange(_ base: UnsafePointer<UInt8>, _ span: ByteSpan) -> NumberSyntax.ByteRangeSyntax {
        var at = span.lowerBound
        while at < span.upperBound && ASCII.isDigit(base[at]) { at += 1 }
        guard let length = NumberSyntax.decimalInteger(base, ByteSpan(span.lowerBound, at)) else { return .malformed }
        if at == span.upperBound { return .valid(length: length, offset: nil) }
        guard base[at] == ASCII.at, let offset = NumberSyntax.decimalInteger(base, ByteSpan(at + 1, span.upperBound))
        else { return .malformed }
        return .valid(length: length, offset: offset)
    }

    private func generalResolution(_ bytes: [UInt8]) -> (width: UInt64, height: UInt64)? {
        guard let x = bytes.firstIndex(of: ASCII.lowerX) else { return nil }
        return Self.withBytes(bytes + [0]) { base in
            guard let width = NumberSyntax.decimalInteger(base, ByteSpan(0, x)),
                  let height = NumberSyntax.decimalInteger(base, ByteSpan(x + 1, bytes.count))
            else { return nil }
            return (width, height)
        }
    }
}
