#if canImport(Darwin)
package import Darwin
#elseif canImport(Glibc)
package import Glibc
#endif

/// An open file descriptor that closes itself when the last reference goes away, so a reader
/// that raced with compaction keeps reading the old file until it is done with it.
/// Every call goes through ``SystemCalls``; every helper retries `EINTR` and short transfers
/// and reports failures as ``SparseFileError``.
package final class FileDescriptor: Sendable {
    package let rawValue: Int32
    package let path: String
    let calls: SystemCalls

    init(rawValue: Int32, path: String, calls: SystemCalls) {
        self.rawValue = rawValue
        self.path = path
        self.calls = calls
    }

    deinit { _ = calls.close(rawValue) }

    package static func open(
        _ path: String, flags: Int32, mode: mode_t = 0o644, calls: SystemCalls
    ) throws(SparseFileError) -> FileDescriptor {
        var descriptor: Int32
        repeat {
            descriptor = calls.open(path, flags | O_CLOEXEC, mode)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else {
            let error = errno
            if error == ENOENT { throw SparseFileError(.ioFailure, "no such file", path: path, errno: error) }
            throw .system("open", errno: error, path: path)
        }
        return FileDescriptor(rawValue: descriptor, path: path, calls: calls)
    }

    /// Reads up to `buffer.count` bytes at `offset`; returns fewer only at end of file.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(SparseFileError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var done = 0
        while done < buffer.count {
            let result = calls.pread(rawValue, base + done, buffer.count - done, Int64(offset) + Int64(done))
            if result < 0 {
                if errno == EINTR { continue }
                throw .system("read", errno: errno, path: path)
            }
            if result == 0 { break }
            done += result
        }
        return done
    }

    package func readBytes(count: Int, at offset: UInt64) throws(SparseFileError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let done = try bytes.withMutableBytes { buffer throws(SparseFileError) in
            try read(into: buffer, at: offset)
        }
        bytes.removeSubrange(done...)
        return bytes
    }

    /// The whole file, when it holds at most `limit` bytes.
    package func readAll(limit: Int) throws(SparseFileError) -> [UInt8] {
        let size = try status().size
        guard let count = Int(exactly: size), count <= limit else {
            throw SparseFileError(.limitExceeded, "the file holds \(size) bytes, more than \(limit)", path: path)
        }
        return try readBytes(count: count, at: 0)
    }

    package func write(_ buffer: UnsafeRawBufferPointer, at offset: UInt64) throws(SparseFileError) {
        guard let base = buffer.baseAddress else { return }
        var done = 0
        while done < buffer.count {
            let result = calls.pwrite(rawValue, base + done, buffer.count - done, Int64(offset) + Int64(done))
            if result < 0 {
                if errno == EINTR { continue }
                throw .system("write", errno: errno, path: path)
            }
            if result == 0 { throw .system("write", errno: EIO, path: path) }
            done += result
        }
    }

    package func write(_ bytes: [UInt8], at offset: UInt64) throws(SparseFileError) {
        try bytes.withBytes { buffer throws(SparseFileError) in try write(buffer, at: offset) }
    }

    /// Makes the file's data durable.
    package func synchronize() throws(SparseFileError) {
        var result: Int32
        repeat { result = calls.fdatasync(rawValue) } while result < 0 && errno == EINTR
        guard result == 0 else { throw .system("fdatasync", errno: errno, path: path) }
    }

    package func truncate(to length: UInt64) throws(SparseFileError) {
        var result: Int32
        repeat { result = calls.ftruncate(rawValue, Int64(length)) } while result < 0 && errno == EINTR
        guard result == 0 else { throw .system("ftruncate", errno: errno, path: path) }
    }

    package func status() throws(SparseFileError) -> FileStatus {
        var status = FileStatusBuffer()
        guard calls.fstat(rawValue, &status) == 0 else { throw .system("fstat", errno: errno, path: path) }
        return FileStatus(status)
    }

    func size() throws(SparseFileError) -> UInt64 { try status().size }

    /// A new descriptor for the same open file, which the caller owns; nil when `dup` fails.
    func duplicate() -> Int32? {
        let duplicate = calls.dup(rawValue)
        return duplicate >= 0 ? duplicate : nil
    }

    /// Takes the advisory exclusive lock that marks the single writer of a file.
    ///
    /// A lock can look taken for an instant after its holder closed it: a process that forks
    /// (to run a command) copies every descriptor until the child calls exec. So a busy lock is
    /// retried for up to 100 ms before it counts as held by another writer.
    package func lockForWriting() throws(SparseFileError) {
        for attempt in 0..<20 {
            var result: Int32
            repeat { result = calls.flock(rawValue, LOCK_EX | LOCK_NB) } while result < 0 && errno == EINTR
            if result == 0 { return }
            guard errno == EWOULDBLOCK else { throw .system("flock", errno: errno, path: path) }
            if attempt < 19 { usleep(5000) }
        }
        throw SparseFileError(.lockedByAnotherWriter, "another process has this file open for writing", path: path)
    }

    /// Whether another open file holds the writer's lock (a shared lock cannot be had). Takes
    /// and drops a shared lock when none does, so a writer starting at that instant retries.
    package func isLockedForWriting() throws(SparseFileError) -> Bool {
        var result: Int32
        repeat { result = calls.flock(rawValue, LOCK_SH | LOCK_NB) } while result < 0 && errno == EINTR
        if result == 0 {
            _ = calls.flock(rawValue, LOCK_UN)
            return false
        }
        guard errno == EWOULDBLOCK else { throw .system("flock", errno: errno, path: path) }
        return true
    }
}
