#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure that ends the command with a one-line message on stderr and a documented exit code.
struct CommandFailure: Error {
    /// Exit codes shared by every subcommand. Scripts depend on them: never renumber.
    struct Code: RawRepresentable, Equatable, Sendable {
        var rawValue: Int32

        /// Generic failure (I/O error, bad input that is not a usage error).
        static let failure = Code(rawValue: 1)
        /// Usage error, or a file that is not a cache file.
        static let usage = Code(rawValue: 2)
        /// Some requested bytes are not cached.
        static let missing = Code(rawValue: 3)
        /// Verification found corruption.
        static let corrupt = Code(rawValue: 4)
    }

    var code: Code
    var message: String

    func printAndExit() -> Never {
        if !message.isEmpty { writeToStandardError("sparsecache: \(message)\n") }
        exit(code.rawValue)
    }
}
