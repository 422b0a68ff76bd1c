public import Foundation

/// Runs the `sparsecache` executable built beside the test bundle, as scripts would: standard
/// input comes from a file, standard output and error go to files read after it exits.
public struct CommandLineTool {
    public struct Result {
        public var status: Int32
        public var standardOutput: Data
        public var standardError: String
        public var outputText: String { String(decoding: standardOutput, as: UTF8.self) }
    }

    public static var executable: URL {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testBinary.deletingLastPathComponent().appendingPathComponent("sparsecache")
    }

    /// Starts the tool with standard input read from `inputFile` and output discarded.
    public static func launch(_ arguments: [String], inputFile: String) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle(forReadingAtPath: inputFile)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs the tool to its end; `environment` is added to the test process's own.
    public static func run(_ arguments: [String], input: Data = Data(), environment: [String: String] = [:]) throws -> Result {
        let scratch = TemporaryDirectory("cli")
        let paths = (input: scratch.file("in"), output: scratch.file("out"), error: scratch.file("err"))
        try input.write(to: URL(fileURLWithPath: paths.input))
        for path in [paths.output, paths.error] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardInput = FileHandle(forReadingAtPath: paths.input)
        process.standardOutput = FileHandle(forWritingAtPath: paths.output)
        process.standardError = FileHandle(forWritingAtPath: paths.error)
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            standardOutput: try Data(contentsOf: URL(fileURLWithPath: paths.output)),
            standardError: String(decoding: try Data(contentsOf: URL(fileURLWithPath: paths.error)), as: UTF8.self))
    }
}
