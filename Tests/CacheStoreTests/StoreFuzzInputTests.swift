import Foundation
import Testing
@testable import CacheStore
import SparseFile

/// The inputs the store's fuzz targets once crashed on, kept in `Fuzz/FuzzStoreIndex/crashes/`
/// and `Fuzz/FuzzStoreFiles/crashes/`: each still holds its target's property, and the fix each
/// made has a test of its own.
@Suite struct StoreFuzzInputTests {
    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz")

    /// Every file in `Fuzz/TARGET/crashes/`, as `TARGET/crashes/NAME`.
    static func crashInputs(of target: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fuzz.appendingPathComponent("\(target)/crashes").path)) ?? []
        return names.sorted().map { "\(target)/crashes/\($0)" }
    }

    static func input(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: fuzz.appendingPathComponent(path)))
    }

    @Test func theKeptCrashInputsAreFound() {
        #expect(Self.crashInputs(of: "FuzzStoreFiles").contains("FuzzStoreFiles/crashes/lock-negative-pid"))
    }

    /// FuzzStoreIndex's property, on each kept crash input and seed, as it is and as a snapshot's
    /// body with its checksum. One test over all of them: FuzzStoreIndex has no kept crash yet,
    /// and a test with no arguments reports itself skipped (which fails the test command).
    @Test func indexFuzzInputsDecodeConsistently() throws {
        let seeds = ((try? FileManager.default.contentsOfDirectory(atPath: Self.fuzz.appendingPathComponent("FuzzStoreIndex/seeds").path)) ?? [])
            .sorted().map { "FuzzStoreIndex/seeds/\($0)" }
        try #require(!seeds.isEmpty, "FuzzStoreIndex's seeds are found")
        for path in Self.crashInputs(of: "FuzzStoreIndex") + seeds {
            try indexInputDecodesConsistently(path)
        }
    }

    private func indexInputDecodesConsistently(_ path: String) throws {
        let bytes = try Self.input(path)
        var framed = IndexSnapshot.magic + bytes
        withUnsafeBytes(of: Checksum.of(framed, seed: 0x5343_494E_4458).littleEndian) { framed.append(contentsOf: $0) }
        for candidate in [bytes, framed] {
            guard let snapshot = IndexSnapshot.decode(candidate) else { continue }
            let encoded = snapshot.encoded()
            #expect(IndexSnapshot.decode(encoded) == snapshot)
            #expect(encoded.count <= candidate.count)
        }
    }

    /// FuzzStoreFiles's property on a lock file: a pid read is positive and reads back.
    @Test(arguments: crashInputs(of: "FuzzStoreFiles"))
    func lockFileCrashInputNamesNoProcessOrAPositiveOne(_ path: String) throws {
        let pid = StoreDirectory.processIdentifier(in: try Self.input(path))
        if let pid {
            #expect(pid > 0)
            #expect(StoreDirectory.processIdentifier(in: Array("\(pid)\n".utf8)) == pid)
        }
    }

    /// A damaged lock file naming `-1` or `0` names no process (found by FuzzStoreFiles: the
    /// message "open for writing by another process (pid -1)").
    @Test(arguments: ["-1\n", "0\n", "-2147483648", " 0 "])
    func lockFileWithoutAPositivePidNamesNoProcess(_ text: String) {
        #expect(StoreDirectory.processIdentifier(in: Array(text.utf8)) == nil)
    }

    @Test(arguments: [("12345\n", Int32(12345)), ("  4194304 \r\n", 4_194_304), ("1", 1)])
    func lockFileNamesItsPid(_ text: String, _ pid: Int32) {
        #expect(StoreDirectory.processIdentifier(in: Array(text.utf8)) == pid)
    }
}
