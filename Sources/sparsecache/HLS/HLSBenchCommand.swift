import ArgumentParser
import HLS

/// `sparsecache hls bench FILE [--rounds R] [--minimum-seconds S] [--iterations N] [--operation OP]`:
/// in-process throughput of parse, format, canonical format and rewrite, and what the parse found.
struct HLSBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Parse, format and rewrite a playlist in-process and print MB/s for each.",
        discussion: """
            MB/s is input megabytes (10^6 bytes) per second of the fastest of R rounds of N iterations: on a \
            shared machine other work only ever slows a round down, so the fastest is the closest to the \
            code's own speed. With --minimum-seconds S, rounds go on past R until the operation has \
            been timed for S seconds: a host whose whole speed drops for a second or two at a time \
            (another tenant on the core) then still has a fast period among the rounds. Every \
            iteration's result is checked (a parse that fails, or finds another number of segments, \
            stops the benchmark with exit 1). The first line counts what the parse \
            found, for the caller to check. glibc returns large freed blocks to the kernel, so each \
            iteration may pay page faults for memory the previous one freed; scripts/bench-hls.sh sets \
            MALLOC_TRIM_THRESHOLD_ and MALLOC_MMAP_THRESHOLD_ to keep it, as a warmed-up long-running \
            process's heap does.
            """
    )

    enum Operation: String, CaseIterable, ExpressibleByArgument {
        /// `HLSPlaylist(parsing:)`.
        case parse
        /// `formatted()` of a parsed playlist: the lossless form.
        case format
        /// `canonicalFormatted()` of a parsed playlist.
        case canonical
        /// Parse, then `rewritten(base:policy:)`: what a proxy does with a playlist it fetched.
        case rewrite
    }

    @Argument(help: "The playlist file.")
    var file: String

    @Option(help: "Timed rounds; the fastest is reported.")
    var rounds: Int = 20

    @Option(help: "Keep timing rounds past --rounds until this many seconds have passed.")
    var minimumSeconds: Double = 0

    @Option(help: "Iterations per round.")
    var iterations: Int = 10

    @Option(help: "Run only this operation (parse, format, canonical or rewrite).")
    var operation: Operation?

    @Option(help: "The base URL rewritten URIs resolve against.")
    var base: String = "https://origin.example.com/path/to/index.m3u8"

    func validate() throws {
        guard iterations > 0 else { throw ValidationError("--iterations must be positive") }
        guard rounds > 0 else { throw ValidationError("--rounds must be positive") }
        guard minimumSeconds >= 0, minimumSeconds <= 600 else { throw ValidationError("--minimum-seconds must be 0 to 600") }
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
        let expectedSegments = playlist.segments.count
        let rewritten = try HLSPlaylist(parsing: playlist.rewritten(base: baseURL, policy: policy))
        guard rewritten.segments.count == expectedSegments, rewritten.variants.count == playlist.variants.count
        else {
            throw CommandFailure(code: .failure, message: "\(file): the rewritten playlist lost segments or variants")
        }
        var failures = 0
        var sink = 0
        var results: [(Operation, Double)] = []
        for operation in operation.map({ [$0] }) ?? Operation.allCases {
            let rate: Double
            switch operation {
            case .parse:
                rate = measure(bytes.count) {
                    let parsed = try? HLSPlaylist(parsing: bytes)
                    if parsed?.segments.count != expectedSegments { failures += 1 }
                }
            case .format:
                rate = measure(bytes.count) { sink &+= playlist.formatted().count }
            case .canonical:
                rate = measure(bytes.count) { sink &+= playlist.canonicalFormatted().count }
            case .rewrite:
                rate = measure(bytes.count) {
                    guard let parsed = try? HLSPlaylist(parsing: bytes), parsed.segments.count == expectedSegments else {
                        failures += 1
                        return
                    }
                    sink &+= parsed.rewritten(base: baseURL, policy: policy).count
                }
            }
            results.append((operation, rate))
        }
        guard failures == 0 else {
            throw CommandFailure(code: .failure, message: "\(file): \(failures) timed parses failed or found other segments")
        }
        writeToStandardOutput("file \(file): \(bytes.count) bytes, \(rounds) rounds of \(iterations) iterations\n")
        writeToStandardOutput("counts segments=\(expectedSegments) variants=\(playlist.variants.count)"
            + " iframes=\(playlist.iFrameVariants.count) renditions=\(playlist.renditions.count)"
            + " parts=\(playlist.parts.count) dateranges=\(playlist.dateRanges.count)"
            + " sessiondata=\(playlist.sessionData.count) keys=\(playlist.keys.count)"
            + " sessionkeys=\(playlist.sessionKeys.count) warnings=\(playlist.warnings.count)\n")
        for (operation, megabytesPerSecond) in results {
            let formatted = String(Int((megabytesPerSecond * 10).rounded()))
            writeToStandardOutput("\(operation.rawValue) \(formatted.dropLast()).\(formatted.suffix(1)) MB/s\n")
        }
        if sink == -1 { writeToStandardOutput("\n") }
    }

    /// Best throughput of at least `rounds` rounds of `iterations` runs, and of as many more as
    /// fit in `minimumSeconds`, in MB/s of input.
    private func measure(_ inputBytes: Int, _ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(minimumSeconds))
        var best = Duration.seconds(Int64.max)
        var round = 0
        while round < rounds || clock.now < deadline {
            let elapsed = clock.measure {
                for _ in 0..<iterations { body() }
            }
            best = min(best, elapsed)
            round += 1
        }
        let seconds = Double(best.components.seconds) + Double(best.components.attoseconds) / 1e18
        return Double(inputBytes) * Double(iterations) / max(seconds, 1e-9) / 1e6
    }
}
