#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Path helpers for transactional whole-file replacement.
enum Directory {
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    /// Makes a rename or link in `directory` durable.
    static func synchronize(_ directory: String) throws(SparseFileError) {
        let descriptor = try FileDescriptor.open(directory, flags: O_RDONLY | O_DIRECTORY, calls: .live)
        guard fsync(descriptor.rawValue) == 0 else { throw .system("fsync", errno: errno, path: directory) }
    }

    static func rename(_ source: String, to destination: String) throws(SparseFileError) {
        guard systemRename(source, destination) == 0 else {
            throw .system("rename to \(destination)", errno: errno, path: source)
        }
    }

    /// Links `source` at `destination`, failing with `EEXIST` instead of replacing a file.
    static func linkWithoutReplacing(_ source: String, at destination: String) throws(SparseFileError) {
        guard link(source, destination) == 0 else {
            let error = errno
            if error == EEXIST {
                throw SparseFileError(.conflict, "a file already exists", path: destination, errno: error)
            }
            throw .system("link", errno: error, path: destination)
        }
    }

    static func remove(_ path: String) { unlink(path) }

    /// A unique sibling path for a temporary file.
    static func temporarySibling(of path: String, purpose: String) -> String {
        "\(path).\(purpose)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }
}

private func systemRename(_ source: String, _ destination: String) -> Int32 {
    #if canImport(Glibc)
    Glibc.rename(source, destination)
    #else
    Darwin.rename(source, destination)
    #endif
}
