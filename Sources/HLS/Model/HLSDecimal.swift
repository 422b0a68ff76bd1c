/// A decimal number as the playlist wrote it (`10`, `9.009`, `-2.5`), kept as text so that no
/// precision is lost and a canonical playlist writes it back unchanged.
public struct HLSDecimal: Hashable, Sendable, CustomStringConvertible {
    /// The number as written: an optional minus, digits and an optional fraction.
    public let text: String

    /// Creates a decimal from text that `isValid` accepts; nil otherwise.
    public init?(_ text: String) {
        guard Self.isValid(text) else { return nil }
        self.text = text
    }

    init(validated text: String) {
        self.text = text
    }

    static let zero = HLSDecimal(validated: "0")

    /// The value as a `Double` (a duration of `9.009` seconds is 9.009 to within a `Double`'s precision).
    public var value: Double {
        Double(jsonText) ?? 0
    }

    public var description: String { text }

    /// The number in JSON's grammar: no leading zeros, no bare dot, at least one digit each side.
    public var jsonText: String {
        var utf8 = Array(text.utf8)
        var sign: [UInt8] = []
        if utf8.first == ASCII.minus {
            sign = [ASCII.minus]
            utf8.removeFirst()
        }
        let dot = utf8.firstIndex(of: ASCII.dot) ?? utf8.count
        var integer = Array(utf8[..<dot].drop { $0 == ASCII.zero })
        if integer.isEmpty { integer = [ASCII.zero] }
        let fraction = dot < utf8.count ? Array(utf8[(dot + 1)...]) : []
        var output = sign + integer
        if !fraction.isEmpty {
            output.append(ASCII.dot)
            output += fraction
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// True for an optional minus, then digits with at most one dot and at least one digit.
    public static func isValid(_ text: String) -> Bool {
        var digits = 0
        var dots = 0
        for (index, byte) in text.utf8.enumerated() {
            if ASCII.isDigit(byte) {
                digits += 1
            } else if byte == ASCII.dot {
                dots += 1
            } else if !(byte == ASCII.minus && index == 0) {
                return false
            }
        }
        return digits > 0 && dots <= 1
    }
}
