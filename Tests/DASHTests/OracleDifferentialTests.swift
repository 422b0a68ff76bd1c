import DASH
import Foundation
import Testing
import TestSupport

/// Compares the parser and segment addressing with a Python oracle: the `mpegdash` package
/// (PyPI) parses each MPD, and `Fixtures/oracle_mpegdash.py` lists the Representations and their
/// segment URLs from its model with code of its own. Over the committed fixtures and a generated
/// set: the same Representations, segment counts and URLs. Needs python3 with `mpegdash`
/// (`scripts/ensure-deps.sh test` installs it); skipped, with that reason, only without them.
@Suite struct OracleDifferentialTests {
    static let script = Fixtures.folder.appendingPathComponent("oracle_mpegdash.py").path

    /// A python3 that imports mpegdash: the bench venv's, else the one on PATH.
    static let python = PythonModule("mpegdash", repositoryRoot: Fixtures.repositoryRoot)

    static func oracle(_ arguments: [String]) throws -> Data {
        let result = try python.run([script] + arguments)
        #expect(result.status == 0, "oracle \(arguments.prefix(3)) failed")
        return result.output
    }

    @Test(.enabled(if: python.interpreter != nil, "python3 with the mpegdash package not found (pip install mpegdash; scripts/ensure-deps.sh test installs it)"))
    func fixturesAgreeWithTheOracle() throws {
        let files = Fixtures.manifests.map { Fixtures.folder.appendingPathComponent($0).path }
        let compared = try compare(files)
        #expect(compared >= 8)
    }

    @Test(.enabled(if: python.interpreter != nil, "python3 with the mpegdash package not found (pip install mpegdash; scripts/ensure-deps.sh test installs it)"))
    func generatedManifestsAgreeWithTheOracleAndRoundTrip() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dash-oracle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try Self.oracle(["generate", folder.path, "150", "36"])
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { folder.appendingPathComponent($0).path }
        #expect(files.count == 150)
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
            #expect(try DASHManifest(parsing: bytes).formatted() == bytes)
        }
        #expect(try compare(files) == 150)
    }

    /// Compares every file the oracle accepts; returns how many it compared.
    private func compare(_ files: [String]) throws -> Int {
        let output = try Self.oracle(["summarize", Fixtures.manifestURL.string] + files)
        let oracle = try #require(try JSONSerialization.jsonObject(with: output) as? [String: [String: Any]])
        var compared = 0
        for file in files {
            let expected = try #require(oracle[file], "\(file)")
            guard let representations = expected["representations"] as? [[String: Any]] else { continue }
            let manifest = try DASHManifest(parsing: [UInt8](try Data(contentsOf: URL(fileURLWithPath: file))))
            let ours = manifest.representations
            #expect(ours.map(\.id) == representations.map { $0["id"] as? String }, "\(file): Representations")
            #expect(ours.map { $0.bandwidth.map(Int.init) } == representations.map { $0["bandwidth"] as? Int }, "\(file): bandwidths")
            for (representation, theirs) in zip(ours, representations) {
                let initialization = try representation.initializationRequest(manifestURL: Fixtures.manifestURL)
                #expect(initialization?.url == theirs["init"] as? String, "\(file): initialization of \(representation.id ?? "?")")
                guard let segments = theirs["segments"] as? [String] else { continue }
                let requests = try representation.segmentRequests(manifestURL: Fixtures.manifestURL)
                #expect(requests.count == segments.count, "\(file): segment count of \(representation.id ?? "?")")
                #expect(requests.map(\.url) == segments, "\(file): segment URLs of \(representation.id ?? "?")")
            }
            compared += 1
        }
        return compared
    }
}
