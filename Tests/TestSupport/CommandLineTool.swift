public import Foundation

/// Runs the `sparsecache` executable the test run built, as scripts would: standard input comes
/// from a file, standard output and error go to files read after it exits.
public struct CommandLineTool {
    public struct Result {
        public var status: Int32
        public var standardOutput: Data
        public var standardError: String
        public var outputText: String { String(decoding: standardOutput, as: UTF8.self) }
    }

    /// The tool: `SPARSECACHE_BINARY` when set (scripts/test.sh passes the one its build made),
    /// otherwise the one beside the test bundle, which the build of the tests made (the test
    /// targets that run it depend on it).
    public static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["SPARSECACHE_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testBinary.deletingLastPathComponent().appendingPathComponent("sparsecache")
    }

    /// The tool was not where it should be: a test run that cannot run it fails, it does not skip.
    public struct Missing: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    private static func checkedExecutable() throws -> URL {
        let url = executable
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw Missing(description: "sparsecache is not built at \(url.path) (set SPARSECACHE_BINARY or build the package)")
        }
        return url
    }

    /// Starts the tool with standard input read from `inputFile`, standard output written to
    /// `outputFile` (discarded when nil) and standard error discarded.
    public static func launch(_ arguments: [String], inputFile: String = "/dev/null", outputFile: String? = nil) throws -> ChildProcess {
        let process = ChildProcess()
        process.executableURL = try checkedExecutable()
        process.arguments = arguments
        process.standardInput = FileHandle(forReadingAtPath: inputFile)
        if let outputFile {
            _ = FileManager.default.createFile(atPath: outputFile, contents: nil)
            process.standardOutput = FileHandle(forWritingAtPath: outputFile)
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
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
        let process = ChildProcess()
        process.executableURL = try checkedExecutable()
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
