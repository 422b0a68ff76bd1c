import ArgumentParser
import DASH

/// `sparsecache dash bench FILE [--rounds R] [--iterations N]`: in-process parse throughput, and
/// what the parse found, for scripts/bench-dash.sh.
struct DASHBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Parse an MPD in-process and print MB/s.",
        discussion: """
            MB/s is input megabytes (10^6 bytes) per second of the fastest of R rounds of N parses (tokenizing, \
            the rule checks and the element tables: everything `DASHManifest(parsing:)` does). Every parse is \
            checked to find the same Representations. The first line counts what the parse found: \
            Representations, and the S elements of the first SegmentTimeline.
            """
    )

    @Argument(help: "The MPD file.")
    var file: String

    @Option(help: "Timed rounds; the fastest is reported.")
    var rounds: Int = 20

    @Option(help: "Parses per round.")
    var iterations: Int = 10

    func validate() throws {
        guard iterations > 0, rounds > 0 else { throw ValidationError("--rounds and --iterations must be positive") }
    }

    func run() throws {
        let bytes = try PlaylistFile.contents(of: file)
        let manifest = try ManifestFile.parse(file)
        let representations = manifest.representations
        var entries = 0
        if let first = representations.first, case .template(let template)? = first.segmentInformation {
            entries = template.timeline?.entries.count ?? 0
        }
        var failures = 0
        let clock = ContinuousClock()
        var best = Duration.seconds(Int64.max)
        for _ in 0..<rounds {
            let elapsed = clock.measure {
                for _ in 0..<iterations {
                    guard let parsed = try? DASHManifest(parsing: bytes),
                          parsed.warnings.count == manifest.warnings.count else {
                        failures += 1
                        continue
                    }
                }
            }
            best = min(best, elapsed)
        }
        guard failures == 0 else {
            throw CommandFailure(code: .failure, message: "\(file): \(failures) timed parses failed")
        }
        let seconds = Double(best.components.seconds) + Double(best.components.attoseconds) / 1e18
        let rate = Double(bytes.count) * Double(iterations) / max(seconds, 1e-9) / 1e6
        writeToStandardOutput("file \(file): \(bytes.count) bytes, \(rounds) rounds of \(iterations) parses\n")
        writeToStandardOutput("counts representations=\(representations.count) entries=\(entries) warnings=\(manifest.warnings.count)\n")
        let tenths = String(Int((rate * 10).rounded()))
        writeToStandardOutput("parse \(tenths.dropLast()).\(tenths.suffix(1)) MB/s\n")
    }
}
