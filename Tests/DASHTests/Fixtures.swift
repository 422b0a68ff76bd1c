import DASH
import Foundation

/// The MPDs the tests read: ffmpeg-made ones (scripts/make-dash-fixtures.sh) and hand-written
/// ones, committed in `Fixtures/`.
enum Fixtures {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let folder = repositoryRoot.appendingPathComponent("Tests/DASHTests/Fixtures")

    /// Every committed MPD, as a path relative to `Fixtures/`.
    static var manifests: [String] {
        ["ffmpeg", "handwritten"].flatMap { subfolder -> [String] in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(subfolder).path)) ?? []
            return names.filter { $0.hasSuffix(".mpd") }.sorted().map { "\(subfolder)/\($0)" }
        }
    }

    /// The ffmpeg-made MPDs.
    static var ffmpegManifests: [String] { manifests.filter { $0.hasPrefix("ffmpeg/") } }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    static func manifest(_ name: String) throws -> DASHManifest {
        try DASHManifest(parsing: try bytes(name))
    }

    static let manifestURL = DASHAbsoluteURL("https://origin.example/video/manifest.mpd")!
}
