/// An `xs:duration` value (`PT4.0S`, `P1DT2H`, `PT0.040S`), as written and in seconds.
///
/// Years and months have no fixed length; as every DASH client does, a year counts 365 days and
/// a month 30. MPDs use days at most in practice.
public struct DASHDuration: Hashable, Sendable, CustomStringConvertible {
    /// The value as written, white space trimmed.
    public let text: String
    /// The length in seconds (negative for a negative duration).
    public let seconds: Double

    /// Nil unless `text` follows the `xs:duration` grammar: `-?P(nY)?(nM)?(nD)?(T(nH)?(nM)?(n(.n)?S)?)?`
    /// with at least one component and no empty `T` part.
    public init?(_ text: String) {
        let trimmed = XMLNumber.trimmed(text)
        var bytes = Substring(trimmed).utf8[...]
        var sign = 1.0
        if bytes.first == UInt8(ascii: "-") {
            sign = -1
            bytes = bytes.dropFirst()
        }
        guard bytes.first == UInt8(ascii: "P") else { return nil }
        bytes = bytes.dropFirst()
        var total = 0.0
        var inTime = false
        var components = 0
        var lastOrder = -1
        while let first = bytes.first {
            if first == UInt8(ascii: "T") {
                guard !inTime else { return nil }
                inTime = true
                bytes = bytes.dropFirst()
                guard !bytes.isEmpty else { return nil }
                continue
            }
            let number = bytes.prefix { ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") }
            guard !number.isEmpty, number.count <= 32, number.first != UInt8(ascii: "."),
                  number.last != UInt8(ascii: "."), let value = Double(String(decoding: number, as: UTF8.self))
            else { return nil }
            bytes = bytes.dropFirst(number.count)
            guard let designator = bytes.first else { return nil }
            bytes = bytes.dropFirst()
            let hasFraction = number.contains(UInt8(ascii: "."))
            let (order, scale): (Int, Double)
            switch (designator, inTime) {
            case (UInt8(ascii: "Y"), false): (order, scale) = (0, 365 * 86_400)
            case (UInt8(ascii: "M"), false): (order, scale) = (1, 30 * 86_400)
            case (UInt8(ascii: "D"), false): (order, scale) = (2, 86_400)
            case (UInt8(ascii: "H"), true): (order, scale) = (3, 3_600)
            case (UInt8(ascii: "M"), true): (order, scale) = (4, 60)
            case (UInt8(ascii: "S"), true): (order, scale) = (5, 1)
            default: return nil
            }
            // Components come in order, once each; only seconds may have a fraction.
            guard order > lastOrder, !hasFraction || order == 5 else { return nil }
            lastOrder = order
            components += 1
            total += value * scale
        }
        guard components > 0, total.isFinite else { return nil }
        self.text = trimmed
        self.seconds = sign * total
    }

    public var description: String { text }
}
