#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import SparseFile

/// The files of a store directory:
///
/// ```
/// DIR/settings        max-size=… (kept by `sparsecache create`)
/// DIR/lock            flock'ed by the one process that writes; holds its pid
/// DIR/control         where that process can be reached, when it said (one line)
/// DIR/index           the saved index (IndexSnapshot)
/// DIR/entries/ab/ab….scf   one sparse file per entry, named by a hash of its key
/// ```
///
/// Every call goes through the store's ``SystemCalls``.
struct StoreDirectory: Sendable {
    let root: String
    let calls: SystemCalls

    var entriesPath: String { root + "/entries" }
    var lockPath: String { root + "/lock" }
    var settingsPath: String { root + "/settings" }
    var indexPath: String { root + "/index" }
    var controlPath: String { root + "/control" }

    func path(ofEntry fileName: String) -> String { entriesPath + "/" + fileName }

    /// Creates the directory and its `entries` folder when missing.
    func create() throws(CacheStoreError) {
        for path in [root, entriesPath] {
            do { try Directory.make(path, calls: calls) } catch { throw .file(error) }
        }
    }

    /// Takes the writer lock and writes this process's pid into the lock file; the returned
    /// descriptor holds the lock until it is released.
    func acquireWriterLock() throws(CacheStoreError) -> FileDescriptor {
        let descriptor: FileDescriptor
        do { descriptor = try FileDescriptor.open(lockPath, flags: O_RDWR | O_CREAT, calls: calls) } catch { throw .file(error) }
        do throws(SparseFileError) {
            try descriptor.lockForWriting()
        } catch where error.code == .lockedByAnotherWriter {
            let pid = Self.processIdentifier(in: (try? descriptor.readAll(limit: 64)) ?? [])
            throw CacheStoreError(.locked, "\(root): the store is open for writing by another process\(pid.map { " (pid \($0))" } ?? "")")
        } catch {
            throw .file(error)
        }
        // The pid only informs; a disk too full to take it must not keep the store from opening.
        try? descriptor.truncate(to: 0)
        try? descriptor.write(Array("\(getpid())\n".utf8), at: 0)
        return descriptor
    }

    /// The pid a lock file names; nil unless it holds a positive number (a damaged file's `-1` or
    /// `0` names no process).
    static func processIdentifier(in lockFile: [UInt8]) -> Int32? {
        guard let pid = Int32(String(decoding: lockFile, as: UTF8.self).trimmingWhitespace()), pid > 0 else { return nil }
        return pid
    }

    // MARK: Settings

    func readMaximumSize() -> UInt64? {
        guard let bytes = readBytes(settingsPath, limit: 1 << 16) else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("max-size=") {
            return UInt64(line.dropFirst("max-size=".count))
        }
        return nil
    }

    func writeMaximumSize(_ size: UInt64) throws(CacheStoreError) {
        try writeAtomically(Array("max-size=\(size)\n".utf8), to: settingsPath, synchronize: true)
    }

    // MARK: Whole-file helpers

    /// The whole file at `path`, or nil when it is missing, unreadable or larger than `limit`.
    func readBytes(_ path: String, limit: Int = 1 << 30) -> [UInt8]? {
        try? FileDescriptor.open(path, flags: O_RDONLY, calls: calls).readAll(limit: limit)
    }

    /// Replaces `path` with `bytes` through a temporary file and a rename.
    func writeAtomically(_ bytes: [UInt8], to path: String, synchronize: Bool) throws(CacheStoreError) {
        do { try Directory.replace(path, with: bytes, synchronize: synchronize, calls: calls) } catch { throw .file(error) }
    }

    /// Removes a file the store no longer needs; one that is already gone is fine.
    func remove(_ path: String) {
        try? Directory.remove(path, calls: calls)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        String(self.drop(while: { $0.isWhitespace }).reversed().drop(while: { $0.isWhitespace }).reversed())
    }
}
