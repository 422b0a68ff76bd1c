#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of a store directory:
///
/// ```
/// DIR/settings        max-size=… (kept by `sparsecache create`)
/// DIR/lock            flock'ed by the one process that writes; holds its pid
/// DIR/index           the saved index (IndexSnapshot)
/// DIR/entries/ab/ab….scf   one sparse file per entry, named by a hash of its key
/// ```
struct StoreDirectory: Sendable {
    let root: String

    var entriesPath: String { root + "/entries" }
    var lockPath: String { root + "/lock" }
    var settingsPath: String { root + "/settings" }
    var indexPath: String { root + "/index" }

    func path(ofEntry fileName: String) -> String { entriesPath + "/" + fileName }

    /// Creates the directory and its `entries` folder when missing.
    func create() throws(CacheStoreError) {
        for path in [root, entriesPath] {
            if mkdir(path, 0o755) != 0 && errno != EEXIST {
                throw CacheStoreError(.ioFailure, "\(path): cannot create directory (\(String(cString: strerror(errno))))")
            }
        }
    }

    /// Takes the writer lock; the returned descriptor holds it until closed.
    func acquireWriterLock() throws(CacheStoreError) -> Int32 {
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CacheStoreError(.ioFailure, "\(lockPath): cannot open (\(String(cString: strerror(errno))))")
        }
        // A busy lock is retried briefly: a process that forks holds a copy of every descriptor
        // until its child calls exec, so a just-released lock can look taken for an instant.
        var locked = flock(descriptor, LOCK_EX | LOCK_NB) == 0
        for _ in 0..<19 where !locked && errno == EWOULDBLOCK {
            usleep(5000)
            locked = flock(descriptor, LOCK_EX | LOCK_NB) == 0
        }
        guard locked else {
            var holder = [UInt8](repeating: 0, count: 32)
            let got = pread(descriptor, &holder, holder.count, 0)
            close(descriptor)
            let pid = String(decoding: holder.prefix(max(0, got)), as: UTF8.self).trimmingWhitespace()
            throw CacheStoreError(.locked, "\(root): the store is open for writing by another process\(pid.isEmpty ? "" : " (pid \(pid))")")
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, pid, pid.count, 0)
        return descriptor
    }

    // MARK: Settings

    func readMaximumSize() -> UInt64? {
        guard let text = readSmallFile(settingsPath) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("max-size=") {
            return UInt64(line.dropFirst("max-size=".count))
        }
        return nil
    }

    func writeMaximumSize(_ size: UInt64) throws(CacheStoreError) {
        try writeAtomically(Array("max-size=\(size)\n".utf8), to: settingsPath, synchronize: true)
    }

    // MARK: Whole-file helpers

    func readSmallFile(_ path: String, limit: Int = 1 << 30) -> String? {
        readBytes(path, limit: limit).map { String(decoding: $0, as: UTF8.self) }
    }

    func readBytes(_ path: String, limit: Int = 1 << 30) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size >= 0, Int(info.st_size) <= limit else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return pread(descriptor, base + done, buffer.count - done, off_t(done))
            }
            if got < 0 && errno == EINTR { continue }
            if got <= 0 { return nil }
            done += got
        }
        return bytes
    }

    /// Replaces `path` with `bytes` through a temporary file and a rename.
    func writeAtomically(_ bytes: [UInt8], to path: String, synchronize: Bool) throws(CacheStoreError) {
        let temporary = "\(path).tmp-\(getpid())"
        let descriptor = open(temporary, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CacheStoreError(.ioFailure, "\(temporary): cannot create (\(String(cString: strerror(errno))))")
        }
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return write(descriptor, base + done, buffer.count - done)
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                let error = errno
                close(descriptor)
                unlink(temporary)
                throw CacheStoreError(error == ENOSPC ? .storeFull : .ioFailure, "\(path): cannot write (\(String(cString: strerror(error))))")
            }
            done += written
        }
        if synchronize { _ = fsync(descriptor) }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CacheStoreError(.ioFailure, "\(path): cannot rename into place (\(String(cString: strerror(errno))))")
        }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        String(self.drop(while: { $0.isWhitespace }).reversed().drop(while: { $0.isWhitespace }).reversed())
    }
}
