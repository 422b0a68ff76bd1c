import ArgumentParser
import SparseFile

/// A ``Durability`` as a command-line value.
struct DurabilityArgument: ExpressibleByArgument {
    var value: Durability
    init(_ value: Durability) { self.value = value }
    init?(argument: String) {
        guard let value = Durability(rawValue: argument) else { return nil }
        self.value = value
    }
    var defaultValueDescription: String { value.rawValue }
    static var allValueStrings: [String] { Durability.allCases.map(\.rawValue) }
}
