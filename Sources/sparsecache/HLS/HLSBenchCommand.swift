import ArgumentParser
import HLS

/// `sparsecache hls bench FILE [--iterations N]`: in-process throughput of parse, format and rewrite.
struct HLSBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Parse, format and rewrite a playlist N times in-process and print MB/s for each.",
        discussion: """
            MB/s is input megabytes (10^6 bytes) per second, from the best of five timed rounds. glibc returns \
            large freed blocks to the kernel, so each iteration may pay page faults for memory the previous one \
            freed; scripts/bench-hls.sh sets MALLOC_TRIM_THRESHOLD_ and MALLOC_MMAP_THRESHOLD_ to keep it, as a \
            warmed-up long-running process's heap does.
            """
    )

    @Argument(help: "The playlist file.")
    var file: String

    @Option(help: "Iterations per round.")
    var iterations: Int = 100

    @Option(help: "The base URL rewritten URIs resolve against.")
    var base: String = "https://origin.example.com/path/to/index.m3u8"

    func validate() throws {
        guard iterations > 0 else { throw ValidationError("--iterations must be positive") }
    }

    func run() throws {
        let bytes = try PlaylistFile.contents(of: file)
        guard let baseURL = HLSBaseURL(base) else {
            throw CommandFailure(code: .failure, message: "--base \(base) is not an absolute URL")
        }
        let playlist: HLSPlaylist
        do {
            playlist = try HLSPlaylist(parsing: bytes)
        } catch {
            throw CommandFailure(code: .failure, message: "\(file): \(error)")
        }
        let policy = HLSProxyRewritePolicy(endpoint: HLSProxyEndpoint(port: 8080))
        var sink = 0
        let results: [(String, Double)] = [
            ("parse", measure(bytes.count) {
                sink &+= (try? HLSPlaylist(parsing: bytes))?.segments.count ?? 0
            }),
            ("format", measure(bytes.count) { sink &+= playlist.formatted().count }),
            ("canonical", measure(bytes.count) { sink &+= playlist.canonicalFormatted().count }),
            ("rewrite", measure(bytes.count) { sink &+= playlist.rewritten(base: baseURL, policy: policy).count }),
        ]
        writeToStandardOutput("file \(file): \(bytes.count) bytes, \(playlist.segments.count) segments, \(playlist.variants.count) variants, \(iterations) iterations\n")
        for (name, megabytesPerSecond) in results {
            let formatted = String(Int((megabytesPerSecond * 10).rounded()))
            writeToStandardOutput("\(name) \(formatted.dropLast()).\(formatted.suffix(1)) MB/s\n")
        }
        if sink == -1 { writeToStandardOutput("\n") }
    }

    /// Best throughput of five rounds of `iterations` runs, in MB/s of input.
    private func measure(_ inputBytes: Int, _ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        var best = Duration.seconds(Int64.max)
        for _ in 0..<5 {
            let elapsed = clock.measure {
                for _ in 0..<iterations { body() }
            }
            best = min(best, elapsed)
        }
        let seconds = Double(best.components.seconds) + Double(best.components.attoseconds) / 1e18
        return Double(inputBytes) * Double(iterations) / max(seconds, 1e-9) / 1e6
    }
}
