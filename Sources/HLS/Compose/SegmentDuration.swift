/// An EXTINF duration read exactly from its decimal text: whole nanoseconds (digits past the
/// ninth are dropped) and the whole seconds it rounds to, halves up, as the parser checks it
/// against EXT-X-TARGETDURATION. Both saturate at 2^64-1; a negative duration reads as 0.
struct SegmentDuration {
    var nanoseconds: UInt64
    var roundedSeconds: UInt64

    static let nanosecondsPerSecond: UInt64 = 1_000_000_000

    /// `text` is what ``HLSDecimal`` accepts (an optional minus, digits, at most one dot); other
    /// bytes end the number.
    init(_ text: some Sequence<UInt8>) {
        var seconds: UInt64 = 0
        var fraction: UInt64 = 0
        var fractionDigits = 0
        var inFraction = false
        var roundUp = false
        var saturated = false
        var isNegative = false
        var isFirst = true
        for byte in text {
            defer { isFirst = false }
            if isFirst && byte == ASCII.minus {
                isNegative = true
                continue
            }
            if byte == ASCII.dot && !inFraction {
                inFraction = true
                continue
            }
            guard ASCII.isDigit(byte) else { break }
            let digit = UInt64(byte - ASCII.zero)
            if inFraction {
                if fractionDigits == 0 { roundUp = digit >= 5 }
                if fractionDigits < 9 {
                    fraction = fraction * 10 + digit
                    fractionDigits += 1
                }
            } else if !saturated {
                let (times10, overflow1) = seconds.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(digit)
                if overflow1 || overflow2 { saturated = true } else { seconds = sum }
            }
        }
        if isNegative {
            self.init(nanoseconds: 0, roundedSeconds: 0)
            return
        }
        for _ in fractionDigits..<9 { fraction *= 10 }
        if saturated { seconds = .max }
        let (scaled, overflow1) = seconds.multipliedReportingOverflow(by: Self.nanosecondsPerSecond)
        let (total, overflow2) = scaled.addingReportingOverflow(fraction)
        let (rounded, overflow3) = seconds.addingReportingOverflow(roundUp ? 1 : 0)
        self.init(nanoseconds: overflow1 || overflow2 ? .max : total, roundedSeconds: overflow3 ? .max : rounded)
    }

    init(nanoseconds: UInt64, roundedSeconds: UInt64) {
        self.nanoseconds = nanoseconds
        self.roundedSeconds = roundedSeconds
    }
}
