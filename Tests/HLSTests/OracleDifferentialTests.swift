import Foundation
import HLS
import Testing
import TestSupport

/// Compares the parser with the corpus's differential oracle (globocom's Python `m3u8`) on the
/// playlists where ORACLE_NOTES.md says the oracle is right, after its normalizations: phantom
/// segments without a URI dropped (A, B), byte ranges compared as length and explicit offset
/// (D), a missing media sequence read as 0 (L), only the last key compared (G). Needs a python3
/// with `m3u8` (`pip install m3u8`; `scripts/ensure-deps.sh test` installs it into
/// `.build-bench/venv`, which scripts/bench-hls.sh also uses): skipped without the corpus, and
/// failing, not skipped, when the corpus is there but the package is not.
@Suite struct OracleDifferentialTests {
    static let python: String? = {
        let venv = TestFiles.repositoryRoot.appendingPathComponent(".build-bench/venv/bin/python").path
        for candidate in [venv, "/usr/bin/env"] where FileManager.default.isExecutableFile(atPath: candidate) {
            let arguments = candidate == venv ? ["-c", "import m3u8"] : ["python3", "-c", "import m3u8"]
            if (try? run(candidate, arguments))?.status == 0 { return candidate }
        }
        return nil
    }()

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: Data) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test(.enabled(if: TestFiles.corpusIsPresent, "shared corpus not found at ../shared/corpus/hls"))
    func agreesWithTheOracleWhereItIsRight() throws {
        let python = try #require(Self.python, """
            the oracle needs python3 with the m3u8 package: pip install m3u8 \
            (scripts/ensure-deps.sh test installs it into .build-bench/venv)
            """)
        let skipText = try String(contentsOf: TestFiles.corpus.appendingPathComponent("ORACLE_SKIP.txt"), encoding: .utf8)
        let skipped = Set(skipText.split(separator: "\n").compactMap { $0.split(separator: "\t").first.map(String.init) })
        let files = TestFiles.corpusPlaylists.filter { !skipped.contains($0) }
        #expect(files.count > 100)
        let driver = TestFiles.fixtures.appendingPathComponent("oracle_batch.py").path
        let arguments = (python.hasSuffix("env") ? ["python3"] : []) + [driver, TestFiles.corpus.path] + files
        let result = try Self.run(python, arguments)
        #expect(result.status == 0)
        let oracle = try #require(try JSONSerialization.jsonObject(with: result.output) as? [String: [String: Any]])
        for file in files {
            let expected = try #require(oracle[file], "\(file)")
            guard expected["error"] == nil else { continue }
            let playlist = try HLSPlaylist(parsing: try TestFiles.corpusFile(file))
            compare(playlist, with: expected, file: file)
        }
    }

    private func compare(_ playlist: HLSPlaylist, with expected: [String: Any], file: String) {
        #expect(playlist.kind.rawValue == expected["kind"] as? String, "\(file): kind")
        #expect(playlist.version.map(Int.init) == expected["version"] as? Int, "\(file): version")
        if playlist.kind == .media {
            #expect(playlist.targetDuration.map { Double($0) } == (expected["target_duration"] as? NSNumber)?.doubleValue,
                    "\(file): target duration")
            #expect(playlist.mediaSequence == (expected["media_sequence"] as? NSNumber)?.uint64Value ?? 0,
                    "\(file): media sequence")
            #expect(playlist.endList == (expected["endlist"] as? Bool), "\(file): endlist")
            #expect(playlist.playlistType?.rawValue.lowercased() == (expected["playlist_type"] as? String)?.lowercased(),
                    "\(file): playlist type")
            compareSegments(playlist, expected["segments"] as? [[String: Any]] ?? [], file: file)
        } else {
            compareVariants(playlist.variants, expected["variants"] as? [[String: Any]] ?? [], file: file)
            compareVariants(playlist.iFrameVariants, expected["iframe_variants"] as? [[String: Any]] ?? [], file: file)
            let media = expected["media"] as? [[String: Any]] ?? []
            #expect(playlist.renditions.map(\.groupID) == media.map { $0["group_id"] as? String ?? "" }, "\(file): media")
            #expect(playlist.renditions.map(\.uri) == media.map { $0["uri"] as? String }, "\(file): media URIs")
            #expect(playlist.renditions.map(\.name) == media.map { $0["name"] as? String ?? "" }, "\(file): media names")
        }
    }

    private func compareSegments(_ playlist: HLSPlaylist, _ expected: [[String: Any]], file: String) {
        let real = expected.filter { $0["uri"] is String }
        #expect(playlist.segments.count == real.count, "\(file): segment count")
        for (segment, theirs) in zip(playlist.segments, real) {
            #expect(segment.uri == theirs["uri"] as? String, "\(file): uri")
            let duration = (theirs["duration"] as? NSNumber)?.doubleValue ?? -1
            #expect(abs(segment.duration.value - duration) < 1e-9, "\(file): duration of \(segment.uri)")
            #expect((segment.title ?? "") == (theirs["title"] as? String ?? ""), "\(file): title of \(segment.uri)")
            #expect(segment.discontinuity == (theirs["discontinuity"] as? Bool), "\(file): discontinuity")
            if let range = theirs["byterange"] as? String {
                let parts = range.split(separator: "@").compactMap { UInt64($0) }
                #expect(segment.byteRange?.length == parts.first, "\(file): byte range length")
                if parts.count == 2 { #expect(segment.byteRange?.offset == parts[1], "\(file): byte range offset") }
            } else {
                #expect(segment.byteRange == nil, "\(file): byte range")
            }
            let key = theirs["key"] as? [String: Any]
            let theirMethod = key?["method"] as? String
            if theirMethod == nil || theirMethod == "NONE" {
                #expect(segment.keys.isEmpty, "\(file): keys of \(segment.uri)")
            } else {
                #expect(segment.keys.last?.method == theirMethod, "\(file): key method")
                #expect(segment.keys.last?.uri == key?["uri"] as? String, "\(file): key URI")
            }
            let map = theirs["map"] as? [String: Any]
            #expect(segment.map?.uri == map?["uri"] as? String, "\(file): map")
        }
    }

    private func compareVariants(_ variants: [HLSVariant], _ expected: [[String: Any]], file: String) {
        #expect(variants.count == expected.count, "\(file): variant count")
        for (variant, theirs) in zip(variants, expected) {
            #expect(variant.uri == theirs["uri"] as? String, "\(file): variant URI")
            #expect(variant.bandwidth.map(Int.init) == theirs["bandwidth"] as? Int, "\(file): bandwidth")
            #expect(variant.averageBandwidth.map(Int.init) == theirs["average_bandwidth"] as? Int, "\(file): average bandwidth")
            #expect(variant.codecs == theirs["codecs"] as? String, "\(file): codecs")
            #expect(variant.resolution?.description == theirs["resolution"] as? String, "\(file): resolution")
        }
    }
}
