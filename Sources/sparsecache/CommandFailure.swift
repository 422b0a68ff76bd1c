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

        /// Every exit status with its meaning, for `--help` and Docs/CLI.md.
        static let documented: [(Code, String)] = [
            (Code(rawValue: 0), "success"),
            (failure, "failure: an I/O error, an origin that cannot be reached, bad input that is not a usage error"),
            (usage, "usage error, or a file that is not a cache file"),
            (missing, "some requested bytes are not cached (file read, get)"),
            (corrupt, "verification found corruption (verify)"),
        ]
    }

    var code: Code
    var message: String

    func printAndExit() -> Never {
        if !message.isEmpty { writeToStandardError("sparsecache: \(message)\n") }
        exit(code.rawValue)
    }
}
