import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the command and maps every failure to the documented exit codes: usage errors exit 2
/// (argument-parser's default of 64 is not what scripts expect), command failures exit with the
/// code they carry, and nothing ever prints a stack trace.
@main
enum EntryPoint {
    static func main() async {
        let command: any ParsableCommand
        do {
            command = try SparseCacheCommand.parseAsRoot()
        } catch {
            exitForParseError(error)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var syncCommand = command
                try syncCommand.run()
            }
        } catch let failure as CommandFailure {
            failure.printAndExit()
        } catch {
            let code = SparseCacheCommand.exitCode(for: error)
            if code == .success || error is ExitCode {
                // Help and version requests arrive here as "clean exits" that print themselves.
                SparseCacheCommand.exit(withError: error)
            }
            CommandFailure(code: .failure, message: SparseCacheCommand.message(for: error)).printAndExit()
        }
    }

    private static func exitForParseError(_ error: any Error) -> Never {
        let code = SparseCacheCommand.exitCode(for: error)
        if code == .success {
            SparseCacheCommand.exit(withError: error)
        }
        writeToStandardError(SparseCacheCommand.fullMessage(for: error) + "\n")
        exit(CommandFailure.Code.usage.rawValue)
    }
}
