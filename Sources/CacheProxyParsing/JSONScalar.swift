/// A JSON string or number: the value of a member that takes either (a variant or quality is
/// `"lowest"`, `"720p"` or a bandwidth).
enum JSONScalar: Decodable, Sendable, Hashable {
    case text(String)
    case number(Double)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .text(text)
        } else {
            self = .number(try container.decode(Double.self))
        }
    }
}

/// A JSON number that must be whole (`2`, `2.0`, `2e3`), for counts and sizes: decoded as a
/// double, since `JSONDecoder` reports `1.5` for an integer as a body that is not JSON at all,
/// and refused, at its member, when it has a fraction or lies beyond ±2^53 (where doubles skip
/// integers).
struct JSONWholeNumber: Decodable, Sendable, Hashable {
    var value: Int

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let number = try container.decode(Double.self)
        guard number.rounded() == number, abs(number) <= 9_007_199_254_740_992, let value = Int(exactly: number) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a whole number")
        }
        self.value = value
    }
}
