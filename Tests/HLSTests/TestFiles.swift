import Foundation
import HLS

/// Where the tests find their playlists: fixtures committed beside them, and the shared
/// real-world corpus, which lives outside the repository at `../shared/corpus/hls`.
enum TestFiles {
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let fixtures = repositoryRoot.appendingPathComponent("Tests/HLSTests/Fixtures")

    static let corpus = repositoryRoot.appendingPathComponent("../shared/corpus/hls").standardizedFileURL

    static var corpusIsPresent: Bool {
        FileManager.default.fileExists(atPath: corpus.appendingPathComponent("SOURCES.tsv").path)
    }

    /// Every `.m3u8` of the shared corpus (empty when it is absent).
    static var corpusPlaylists: [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: corpus.path) else { return [] }
        return names.filter { $0.hasSuffix(".m3u8") }.sorted()
    }

    /// The corpus's `kind` column and note for each file.
    static var corpusLabels: [String: (kind: String, note: String)] {
        guard let text = try? String(contentsOf: corpus.appendingPathComponent("SOURCES.tsv"), encoding: .utf8)
        else { return [:] }
        var labels: [String: (String, String)] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if columns.count >= 6 { labels[columns[0]] = (columns[4], columns[5]) }
        }
        return labels
    }

    /// Every committed fixture, as a path relative to `Fixtures/`.
    static var fixturePlaylists: [String] {
        ["handwritten", "ffmpeg"].flatMap { folder -> [String] in
            let names = (try? FileManager.default.contentsOfDirectory(
                atPath: fixtures.appendingPathComponent(folder).path)) ?? []
            return names.filter { $0.hasSuffix(".m3u8") }.sorted().map { "\(folder)/\($0)" }
        }
    }

    static func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    static func corpusFile(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: corpus.appendingPathComponent(name)))
    }
}

extension HLSPlaylist {
    /// Parses text for a test, failing the test on error.
    static func parsed(_ text: String, options: HLSParserOptions = HLSParserOptions()) throws(HLSParseError) -> HLSPlaylist {
        try HLSPlaylist(parsing: text, options: options)
    }
}
