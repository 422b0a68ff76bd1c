import ArgumentParser

/// A size such as `500MB` (decimal units), `1GiB` (binary units), `1.5GiB`, or plain bytes.
struct SizeArgument: ExpressibleByArgument {
    var bytes: UInt64

    private static let units: [(suffix: String, factor: Double)] = [
        ("kib", 1024), ("mib", 1024 * 1024), ("gib", 1024 * 1024 * 1024), ("tib", 1024 * 1024 * 1024 * 1024),
        ("kb", 1e3), ("mb", 1e6), ("gb", 1e9), ("tb", 1e12),
        ("k", 1024), ("m", 1024 * 1024), ("g", 1024 * 1024 * 1024), ("t", 1024 * 1024 * 1024 * 1024),
        ("b", 1),
    ]

    init?(argument: String) {
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

    static var defaultCompletionKind: CompletionKind { .default }
}
