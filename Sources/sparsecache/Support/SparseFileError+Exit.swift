import SparseFile

extension SparseFileError {
    /// The command failure this error ends a command with: "not a cache file" and a newer
    /// format are usage-level problems (2), a header that cannot be trusted is corruption (4).
    var commandFailure: CommandFailure {
        let code: CommandFailure.Code
        switch self.code {
        case .notACacheFile, .unsupportedVersion: code = .usage
        case .corruptHeader: code = .corrupt
        default: code = .failure
        }
        return CommandFailure(code: code, message: self.code == .diskFull ? "the disk is full: \(description)" : description)
    }
}

/// Runs `body`, turning a ``SparseFileError`` into the matching one-line command failure.
func failingWithExitCode<Result>(_ body: () throws(SparseFileError) -> Result) throws(CommandFailure) -> Result {
    do {
        return try body()
    } catch {
        throw error.commandFailure
    }
}
