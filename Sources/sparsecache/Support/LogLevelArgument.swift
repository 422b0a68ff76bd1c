import ArgumentParser
import Logging

/// A swift-log level as a command-line value.
struct LogLevelArgument: ExpressibleByArgument {
    var value: Logger.Level
    init(_ value: Logger.Level) { self.value = value }
    init?(argument: String) {
        guard let value = Logger.Level(rawValue: argument) else { return nil }
        self.value = value
    }
    var defaultValueDescription: String { value.rawValue }
    static var allValueStrings: [String] { Logger.Level.allCases.map(\.rawValue) }
}
