import ArgumentParser
import Foundation
import SparseFile
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `sparsecache verify [PATH... | [DIR] KEY...]`: checks every header and data checksum. Exit 0
/// when all is sound, 4 when corruption is found (the bad ranges are named), 2 for a file that
/// is not a cache file (or a usage error). Directories are searched for cache files; a store's
/// entries are named by their keys (URLs).
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check every header and data checksum of cache files, stores or store entries.",
        usage: "sparsecache verify [--cache-dir <dir>] [<path> ... | [<dir>] <key> ...] [--quiet]",
        discussion: """
            A target is a cache file, a store directory (every entry, named by its key), another directory (searched \
            for cache files), or an entry of a store named by its key, a URL: `verify URL` looks in --cache-dir's \
            store or the per-user one, `verify DIR URL...` in DIR. Without a target, the per-user store. \
            Exit status: 0 sound, 4 corruption found, 2 not a cache file or usage error.
            """
    )

    @Argument(help: ArgumentHelp("Cache files, store directories, directories to search, or keys (URLs) of store entries.",
                                 valueName: "target"))
    var paths: [String] = []

    @OptionGroup var cacheDirectory: CacheDirectoryOption

    @Flag(help: "Print only problems.")
    var quiet = false

    func run() throws(CommandFailure) {
        var worst = CommandFailure.Code(rawValue: 0)
        var checkedFiles = 0
        let (targets, searched) = try expandedTargets()
        var searchedWithCacheFiles = Set<String>()
        for target in targets {
            let outcome = verify(target.path, label: target.label, explicitlyNamed: target.explicit)
            if outcome == .usage && worst != .corrupt { worst = .usage }
            if outcome == .corrupt { worst = .corrupt }
            if outcome != .init(rawValue: -1) {
                checkedFiles += 1
                if let directory = target.searched { searchedWithCacheFiles.insert(directory) }
            }
        }
        // A folder that is neither a store nor holds a cache file is a mistake, not "0 files checked".
        let mistaken = searched.filter { !searchedWithCacheFiles.contains($0) }
        for directory in mistaken {
            writeToStandardError("sparsecache: \(directory) is a directory but not a store, and holds no cache files; "
                + "give a cache file, a store directory or [DIR] KEY\n")
            if worst != .corrupt { worst = .usage }
        }
        if !quiet && checkedFiles != 1 && !(checkedFiles == 0 && !mistaken.isEmpty) {
            writeToStandardOutput("\(checkedFiles) files checked\n")
        }
        // Each problem was already reported on its own line.
        if worst.rawValue != 0 { throw CommandFailure(code: worst, message: "") }
    }

    /// Every file to check, with the name to report it by (its key when it is a store entry) and
    /// the searched directory it was found in; and the directories searched.
    private func expandedTargets() throws(CommandFailure) -> ([VerifyTarget], [String]) {
        var targets: [VerifyTarget] = []
        var searched: [String] = []
        for target in CacheFileTarget.resolve(paths, cacheDirectory: cacheDirectory) {
            switch target {
            case .file(let path):
                targets.append(VerifyTarget(path: path, label: path, explicit: true))
            case .store(let directory):
                targets += try StoreEntryLocation.find(in: directory, keys: nil).map { VerifyTarget(path: $0.file, label: $0.key, explicit: true) }
            case .entry(let store, let key):
                targets += try StoreEntryLocation.find(in: store, keys: [key]).map { VerifyTarget(path: $0.file, label: $0.key, explicit: true) }
            case .directory(let path):
                searched.append(path)
                let files = (FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []).sorted()
                for relative in files {
                    let full = path + "/" + relative
                    var childIsDirectory: ObjCBool = false
                    if FileManager.default.fileExists(atPath: full, isDirectory: &childIsDirectory), !childIsDirectory.boolValue {
                        targets.append(VerifyTarget(path: full, label: full, explicit: false, searched: path))
                    }
                }
            }
        }
        return (targets, searched)
    }

    /// Verifies one file and prints its verdict; returns the exit code it calls for, or -1 for
    /// a file found by searching a directory that is not a cache file (skipped).
    private func verify(_ path: String, label: String, explicitlyNamed: Bool) -> CommandFailure.Code {
        let report: VerificationReport
        do {
            let file = try SparseFile.open(at: path)
            let progress = ProgressLine(label: "verifying \(label)", total: file.cachedByteCount)
            report = try file.verify(progress: { checked, total in progress.update(checked, total) })
            progress.finish()
        } catch {
            if error.code == .notACacheFile && !explicitlyNamed { return .init(rawValue: -1) }
            let failure = error.commandFailure
            writeToStandardError("sparsecache: \(failure.message)\n")
            return failure.code
        }
        if report.isSound {
            if !quiet { writeToStandardOutput("ok       \(label) (\(report.checkedBytes) bytes verified)\n") }
            return .init(rawValue: 0)
        }
        var problems: [String] = []
        if !report.corruptRanges.isEmpty {
            problems.append("corrupt ranges " + report.corruptRanges.map(\.description).joined(separator: ", "))
        }
        for slot in report.slots where slot.isDamaged {
            problems.append("header slot \(slot.index): \(slot.problem ?? "invalid")")
        }
        // An entry is named by its key; its file follows, for `repair`.
        writeToStandardOutput("CORRUPT  \(label): \(problems.joined(separator: "; "))\(label == path ? "" : " (file \(path))")\n")
        return .corrupt
    }
}

/// A file `verify` checks: its path, the name it is reported by, whether it was named (not found
/// by searching), and the directory searched when it was found.
struct VerifyTarget {
    var path: String
    var label: String
    var explicit: Bool
    var searched: String?
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
