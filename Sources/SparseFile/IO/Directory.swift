#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Operations on names in directories, through ``SystemCalls``: transactional creation and
/// replacement of files, and the directory syncs that make them durable.
package enum Directory {
    package static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    /// Makes the creations, renames and removals of names in `directory` durable.
    package static func synchronize(_ directory: String, calls: SystemCalls) throws(SparseFileError) {
        let descriptor = try FileDescriptor.open(directory, flags: O_RDONLY | O_DIRECTORY, calls: calls)
        var result: Int32
        repeat { result = calls.fsync(descriptor.rawValue) } while result < 0 && errno == EINTR
        guard result == 0 else { throw .system("fsync", errno: errno, path: directory) }
    }

    package static func rename(_ source: String, to destination: String, calls: SystemCalls) throws(SparseFileError) {
        guard calls.rename(source, destination) == 0 else {
            throw .system("rename to \(destination)", errno: errno, path: source)
        }
    }

    /// Links `source` at `destination`, failing with `EEXIST` instead of replacing a file.
    static func linkWithoutReplacing(_ source: String, at destination: String, calls: SystemCalls) throws(SparseFileError) {
        guard calls.link(source, destination) == 0 else {
            let error = errno
            if error == EEXIST {
                throw SparseFileError(.conflict, "a file already exists", path: destination, errno: error)
            }
            throw .system("link", errno: error, path: destination)
        }
    }

    /// Removes a name; a missing one is not an error.
    package static func remove(_ path: String, calls: SystemCalls) throws(SparseFileError) {
        guard calls.unlink(path) == 0 || errno == ENOENT else { throw .system("unlink", errno: errno, path: path) }
    }

    /// Creates a directory; one that exists already is not an error.
    package static func make(_ path: String, calls: SystemCalls) throws(SparseFileError) {
        guard calls.mkdir(path, 0o755) == 0 || errno == EEXIST else { throw .system("mkdir", errno: errno, path: path) }
    }

    /// A unique sibling path for a temporary file.
    package static func temporarySibling(of path: String, purpose: String) -> String {
        "\(path).\(purpose)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// Replaces the file at `path` with `bytes`: a temporary file, then a rename, so a crash
    /// leaves the old file or the new one. With `synchronize`, the new file's data is durable
    /// before the rename and the rename is durable when this returns.
    package static func replace(_ path: String, with bytes: [UInt8], synchronize: Bool, calls: SystemCalls) throws(SparseFileError) {
        let temporary = temporarySibling(of: path, purpose: "tmp")
        do throws(SparseFileError) {
            let descriptor = try FileDescriptor.open(temporary, flags: O_WRONLY | O_CREAT | O_EXCL, calls: calls)
            try descriptor.write(bytes, at: 0)
            if synchronize { try descriptor.synchronize() }
            try rename(temporary, to: path, calls: calls)
        } catch {
            _ = calls.unlink(temporary)
            throw error
        }
        if synchronize { try Self.synchronize(parent(of: path), calls: calls) }
    }

    /// The names in `directory` (without `.` and `..`); empty when it cannot be read.
    package static func names(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
