public import Foundation

/// A Python interpreter that imports a given module, for differential oracles written in Python:
/// the benchmark venv's (`.build-bench/venv`, which scripts/bench-*.sh create), else `python3` on
/// the PATH. Tests that need one use `.enabled(if: PythonModule(...).interpreter != nil, reason)`.
public struct PythonModule: Sendable {
    /// The interpreter's command: the executable and the arguments before the script's own.
    public let interpreter: [String]?

    /// Looks for a Python that imports `module`; `repositoryRoot` holds `.build-bench`.
    public init(_ module: String, repositoryRoot: URL) {
        let venv = repositoryRoot.appendingPathComponent(".build-bench/venv/bin/python").path
        let candidates = [[venv], ["/usr/bin/env", "python3"]]
        interpreter = candidates.first { command in
            FileManager.default.isExecutableFile(atPath: command[0])
                && (try? Self.run(command + ["-c", "import \(module)"]))?.status == 0
        }
    }

    /// Runs the interpreter with `arguments`; standard error is discarded.
    public func run(_ arguments: [String]) throws -> (status: Int32, output: Data) {
        guard let interpreter else { throw CommandLineTool.Missing(description: "no Python with the module") }
        return try Self.run(interpreter + arguments)
    }

    private static func run(_ command: [String]) throws -> (status: Int32, output: Data) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
