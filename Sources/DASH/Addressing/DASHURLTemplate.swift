/// A segment template (`SegmentTemplate@media`, `@initialization`, `@index`), split into its
/// literal text and its `$...$` identifiers (ISO/IEC 23009-1 section 5.3.9.4.4).
///
/// Identifiers: `$RepresentationID$`, `$Number$`, `$Time$`, `$Bandwidth$`, `$SubNumber$`, each
/// but the first with an optional format tag `%0<width>d` (also `i`, `u`, `x`, `X`, `o`, as
/// dash.js accepts), and `$$` for a literal `$`.
public struct DASHURLTemplate: Hashable, Sendable {
    /// The identifiers a template can hold.
    public enum Identifier: String, Hashable, Sendable {
        case representationID = "RepresentationID"
        case number = "Number"
        case time = "Time"
        case bandwidth = "Bandwidth"
        case subNumber = "SubNumber"
    }

    enum Part: Hashable, Sendable {
        case literal(String)
        case identifier(Identifier, width: Int, radix: Int, uppercase: Bool)
    }

    /// Widths above this are refused: no real template pads a number to more digits, and the
    /// expansion must stay small.
    static let maximumWidth = 64

    let parts: [Part]
    /// The template as written.
    public let text: String

    /// Why a template is malformed.
    public struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Splits `text`; throws for an unterminated `$`, an unknown identifier, or a bad format tag.
    public init(_ text: String) throws(SyntaxError) {
        self.text = text
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            literal += rest[..<dollar]
            let afterDollar = rest.index(after: dollar)
            guard let close = rest[afterDollar...].firstIndex(of: "$") else {
                throw SyntaxError(message: "\"$\" without its closing \"$\" in \"\(text)\"")
            }
            let body = rest[afterDollar..<close]
            rest = rest[rest.index(after: close)...]
            if body.isEmpty {
                literal += "$"
                continue
            }
            if !literal.isEmpty {
                parts.append(.literal(literal))
                literal = ""
            }
            parts.append(try Self.identifier(body))
        }
        literal += rest
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    private static func identifier(_ body: Substring) throws(SyntaxError) -> Part {
        let name: Substring
        var format: Substring = ""
        if let percent = body.firstIndex(of: "%") {
            name = body[..<percent]
            format = body[body.index(after: percent)...]
        } else {
            name = body
        }
        guard let identifier = Identifier(rawValue: String(name)) else {
            throw SyntaxError(message: "unknown template identifier \"$\(body)$\"")
        }
        guard !format.isEmpty else { return .identifier(identifier, width: 1, radix: 10, uppercase: false) }
        guard identifier != .representationID else {
            throw SyntaxError(message: "$RepresentationID$ takes no format tag")
        }
        // %0<width><conversion>; the 0 is required by the standard but often left out.
        var digits = format.dropLast()
        if digits.first == "0" { digits = digits.dropFirst() }
        let conversion = format.last ?? "d"
        guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), digits.count <= 3 else {
            throw SyntaxError(message: "malformed format tag \"%\(format)\" in \"$\(body)$\"")
        }
        let width = digits.isEmpty ? 1 : Int(digits) ?? 1
        guard width <= maximumWidth else {
            throw SyntaxError(message: "format width \(width) is above \(maximumWidth) in \"$\(body)$\"")
        }
        switch conversion {
        case "d", "i", "u": return .identifier(identifier, width: width, radix: 10, uppercase: false)
        case "x": return .identifier(identifier, width: width, radix: 16, uppercase: false)
        case "X": return .identifier(identifier, width: width, radix: 16, uppercase: true)
        case "o": return .identifier(identifier, width: width, radix: 8, uppercase: false)
        default: throw SyntaxError(message: "format tag \"%\(format)\" does not end in d, i, u, x, X or o")
        }
    }

    /// The identifiers in order of appearance (`$$` is not one).
    public var identifiers: [Identifier] {
        parts.compactMap { part in
            if case .identifier(let identifier, _, _, _) = part { return identifier }
            return nil
        }
    }

    /// The template with each identifier replaced by its value. An identifier without a value
    /// (nil) is left as written, `$$` becomes `$`.
    public func expanded(representationID: String?, number: UInt64? = nil, time: UInt64? = nil,
                         bandwidth: UInt64? = nil, subNumber: UInt64? = nil) -> String {
        var output = ""
        for part in parts {
            switch part {
            case .literal(let text):
                output += text
            case .identifier(let identifier, let width, let radix, let uppercase):
                let value: UInt64?
                switch identifier {
                case .representationID:
                    if let representationID { output += representationID } else { output += "$RepresentationID$" }
                    continue
                case .number: value = number
                case .time: value = time
                case .bandwidth: value = bandwidth
                case .subNumber: value = subNumber
                }
                guard let value else {
                    output += "$\(identifier.rawValue)$"
                    continue
                }
                let digits = String(value, radix: radix, uppercase: uppercase)
                if digits.count < width { output += String(repeating: "0", count: width - digits.count) }
                output += digits
            }
        }
        return output
    }
}
