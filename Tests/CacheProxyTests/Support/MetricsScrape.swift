import Foundation
import Testing
import TestSupport

/// What `GET /metrics` answered: the text, and its samples by series (`name{labels}` as
/// written, `name` alone without labels).
struct MetricsScrape {
    let text: String
    let samples: [String: Double]

    static func fetch(_ harness: ProxyHarness) async throws -> MetricsScrape {
        let response = try await harness.fetch("http://127.0.0.1:\(harness.port)/metrics")
        try #require(response.status == 200)
        #expect(response.headers.first(name: "content-type") == "text/plain; version=0.0.4; charset=utf-8")
        let text = String(decoding: response.body, as: UTF8.self)
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            samples[String(line[..<space])] = value
        }
        return MetricsScrape(text: text, samples: samples)
    }

    /// The sample of `series`; nil when the scrape has no such series (a missing series is
    /// never taken for a zero).
    subscript(_ series: String) -> Double? { samples[series] }

    /// The sample of `series`, which the scrape must have.
    func value(_ series: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Double {
        try #require(samples[series], "the scrape has no series \(series)", sourceLocation: sourceLocation)
    }

    /// `promtool check metrics` on the text: its exit status and what it printed. promtool is
    /// Debian's `prometheus` package, which `scripts/ensure-deps.sh test` installs.
    func promtoolCheck() throws -> (status: Int32, output: String) {
        let promtool = ["/usr/bin/promtool", "/usr/local/bin/promtool"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let path = try #require(promtool, "promtool is missing: install Debian's prometheus package (scripts/ensure-deps.sh test)")
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["check", "metrics"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: printed, as: UTF8.self))
    }
}
