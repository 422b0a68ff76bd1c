import ArgumentParser

/// A size such as `500MB`, `2GiB`, `1.5g` or plain bytes, read by one rule everywhere: a unit
/// that ends in `B` without an `i` is decimal (`KB`, `MB`, `GB`, `TB` = 10^3, 10^6, 10^9,
/// 10^12), every other unit is binary (`K`/`KiB`, `M`/`MiB`, `G`/`GiB`, `T`/`TiB` = 2^10, 2^20,
/// 2^30, 2^40), letters in any case, and a number alone counts bytes.
struct SizeArgument: ExpressibleByArgument {
    var bytes: UInt64

    /// The rule, for the help of every option that takes a size.
    static let rule = "bytes, or a number with a unit in any case: KB, MB, GB, TB are powers of 1000; K, M, G, T, KiB, MiB, GiB, TiB powers of 1024 (Gb, Mb: bits, refused)"

    /// The smallest size limit a store takes: anything less is almost always a missing unit.
    static let minimumLimit: UInt64 = 1 << 20

    private static let units: [(suffix: String, factor: Double)] = [
        ("kib", 1024), ("mib", 1024 * 1024), ("gib", 1024 * 1024 * 1024), ("tib", 1024 * 1024 * 1024 * 1024),
        ("kb", 1e3), ("mb", 1e6), ("gb", 1e9), ("tb", 1e12),
        ("k", 1024), ("m", 1024 * 1024), ("g", 1024 * 1024 * 1024), ("t", 1024 * 1024 * 1024 * 1024),
        ("b", 1),
    ]

    init(bytes: UInt64) { self.bytes = bytes }

    init?(argument: String) {
        guard (try? Self.refuseMisreadings(argument)) != nil else { return nil }
        let text = argument.lowercased().filter { !$0.isWhitespace }
        if let exact = UInt64(text) {
            bytes = exact
            return
        }
        guard let unit = Self.units.first(where: { text.hasSuffix($0.suffix) }),
              let number = Double(text.dropLast(unit.suffix.count)), number >= 0, number.isFinite else { return nil }
        let value = (number * unit.factor).rounded()
        guard value < 1.8e19 else { return nil }
        bytes = UInt64(value)
    }

    /// Refuses, saying why, what must not be read as a size at all: a minus sign, or a unit
    /// written as bits (`Gb`, `Mbit`: a lowercase `b` after a capital), which would otherwise be
    /// read as bytes, 8 times the size meant.
    static func refuseMisreadings(_ argument: String) throws(ValidationError) {
        let text = argument.filter { !$0.isWhitespace }
        if text.hasPrefix("-") {
            throw ValidationError("a size cannot be negative; write e.g. 500MB or 2GiB")
        }
        let unit = text.drop { $0.isNumber || $0 == "." }
        if unit.contains(where: \.isUppercase), unit.hasSuffix("b") || unit.lowercased().hasSuffix("bit") {
            let number = text.prefix { $0.isNumber || $0 == "." }
            let prefix = unit.first.map { String($0).uppercased() } ?? ""
            throw ValidationError("\(text) reads as bits (a lowercase b); sizes are bytes: write \(number)\(prefix)B, or \(number)\(prefix)iB")
        }
    }

    /// A size with a message for each way it can be wrong, for `@Option(transform:)`, whose
    /// errors argument-parser prints after the option and the value.
    static func checked(_ argument: String, example: String) throws(ValidationError) -> SizeArgument {
        try refuseMisreadings(argument)
        guard let size = SizeArgument(argument: argument) else { throw ValidationError("not a size; write e.g. \(example)") }
        return size
    }

    /// A store's size limit: a size of at least ``minimumLimit``. For `@Option(transform:)`,
    /// whose errors argument-parser prints after the option and the value.
    static func limit(_ argument: String) throws -> SizeArgument {
        let size = try checked(argument, example: "500MB or 2GiB")
        guard size.bytes >= minimumLimit else {
            let plainNumber = UInt64(argument) != nil && size.bytes > 0
            throw ValidationError("a cache needs at least 1 MiB; " + (plainNumber
                ? "a number alone counts bytes: did you mean \(argument)MiB or \(argument)GiB?" : "write e.g. 500MB or 2GiB"))
        }
        return size
    }

    /// Any size, 0 included. For `@Option(transform:)`.
    static func any(_ argument: String) throws -> SizeArgument {
        try checked(argument, example: "32MiB, or 0")
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
