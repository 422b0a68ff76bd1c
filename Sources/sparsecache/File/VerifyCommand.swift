import ArgumentParser
import Foundation
import SparseFile
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `sparsecache verify PATH...`: checks every header and data checksum. Exit 0 when all is
/// sound, 4 when corruption is found (the bad ranges are named), 2 for a file that is not a
/// cache file (or a usage error). Directories are searched for cache files.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check every header and data checksum of cache files (directories are searched).",
        discussion: "Exit status: 0 sound, 4 corruption found, 2 not a cache file or usage error."
    )

    @Argument(help: "Cache files, or directories to search for cache files.")
    var paths: [String]

    @Flag(help: "Print only problems.")
    var quiet = false

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give at least one PATH") }
    }

    func run() throws(CommandFailure) {
        var worst = CommandFailure.Code(rawValue: 0)
        var checkedFiles = 0
        for target in expandedTargets() {
            let outcome = verify(target.path, explicitlyNamed: target.explicit)
            if outcome == .usage && worst != .corrupt { worst = .usage }
            if outcome == .corrupt { worst = .corrupt }
            if outcome != .init(rawValue: -1) { checkedFiles += 1 }
        }
        if !quiet && checkedFiles != 1 {
            writeToStandardOutput("\(checkedFiles) files checked\n")
        }
        // Each problem was already reported on its own line.
        if worst.rawValue != 0 { throw CommandFailure(code: worst, message: "") }
    }

    private func expandedTargets() -> [(path: String, explicit: Bool)] {
        var targets: [(String, Bool)] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                targets.append((path, true))
                continue
            }
            let files = (FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []).sorted()
            for relative in files {
                let full = path + "/" + relative
                var childIsDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: full, isDirectory: &childIsDirectory), !childIsDirectory.boolValue {
                    targets.append((full, false))
                }
            }
        }
        return targets
    }

    /// Verifies one file and prints its verdict; returns the exit code it calls for, or -1 for
    /// a file found by searching a directory that is not a cache file (skipped).
    private func verify(_ path: String, explicitlyNamed: Bool) -> CommandFailure.Code {
        let report: VerificationReport
        do {
            let file = try SparseFile.open(at: path)
            let progress = ProgressLine(label: "verifying \(path)", total: file.cachedByteCount)
            report = try file.verify(progress: { checked, total in progress.update(checked, total) })
            progress.finish()
        } catch {
            if error.code == .notACacheFile && !explicitlyNamed { return .init(rawValue: -1) }
            let failure = error.commandFailure
            writeToStandardError("sparsecache: \(failure.message)\n")
            return failure.code
        }
        if report.isSound {
            if !quiet { writeToStandardOutput("ok       \(path) (\(report.checkedBytes) bytes verified)\n") }
            return .init(rawValue: 0)
        }
        var problems: [String] = []
        if !report.corruptRanges.isEmpty {
            problems.append("corrupt ranges " + report.corruptRanges.map(\.description).joined(separator: ", "))
        }
        for slot in report.slots where slot.isDamaged {
            problems.append("header slot \(slot.index): \(slot.problem ?? "invalid")")
        }
        writeToStandardOutput("CORRUPT  \(path): \(problems.joined(separator: "; "))\n")
        return .corrupt
    }
}

/// A progress line on standard error, shown only on a terminal and only for large inputs.
struct ProgressLine {
    let label: String
    let isShown: Bool

    init(label: String, total: UInt64, threshold: UInt64 = 64 << 20) {
        self.label = label
        self.isShown = isatty(2) == 1 && total >= threshold
    }

    func update(_ done: UInt64, _ total: UInt64) {
        guard isShown, total > 0 else { return }
        let percent = done * 100 / total
        writeToStandardError("\r\(label): \(percent)% (\(done >> 20) of \(total >> 20) MiB)")
    }

    func finish() {
        if isShown { writeToStandardError("\r\u{1B}[K") }
    }
}
