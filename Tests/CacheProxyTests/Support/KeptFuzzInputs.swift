import Foundation

/// The inputs a fuzz target once crashed on, kept in `Fuzz/<target>/crashes/` (`scripts/fuzz.sh
/// keep`), for the unit tests that replay them against the target's property.
enum KeptFuzzInputs {
    /// `Fuzz/<target>` in the repository.
    static func folder(of target: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz/\(target)")
    }

    /// The names of the kept inputs, sorted.
    static func names(of target: String) -> [String] {
        let crashes = folder(of: target).appendingPathComponent("crashes").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: crashes)) ?? []).sorted()
    }

    /// The bytes of one kept input.
    static func bytes(of target: String, _ name: String) throws -> Data {
        try Data(contentsOf: folder(of: target).appendingPathComponent("crashes/\(name)"))
    }
}
