#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One listing of a store's `entries` folder: the entry files with their size and modification
/// time, leftovers of interrupted writes, and anything else that does not belong there.
struct DirectoryScan {
    struct File {
        var fileName: String
        var size: UInt64
        var modified: UInt64
    }

    var files: [File] = []
    /// Temporary files of creations or compactions a crash interrupted.
    var leftovers: [String] = []
    /// Paths (relative to `entries`) that are not entry files.
    var strays: [String] = []

    static func scan(_ directory: StoreDirectory) -> DirectoryScan {
        var scan = DirectoryScan()
        for shard in Self.names(in: directory.entriesPath) {
            let shardPath = directory.entriesPath + "/" + shard
            guard isDirectory(shardPath), shard.utf8.count == 2 else {
                scan.strays.append(shard)
                continue
            }
            for name in Self.names(in: shardPath) {
                let relative = shard + "/" + name
                var info = stat()
                guard stat(shardPath + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                    scan.strays.append(relative)
                    continue
                }
                if name.hasSuffix(".scf") && name.hasPrefix(shard) {
                    let modified = UInt64(info.st_mtim.tv_sec) * 1_000_000_000 + UInt64(info.st_mtim.tv_nsec)
                    scan.files.append(File(fileName: relative, size: UInt64(info.st_size), modified: modified))
                } else if name.contains(".scf.new-") || name.contains(".scf.compact-") {
                    scan.leftovers.append(relative)
                } else {
                    scan.strays.append(relative)
                }
            }
        }
        return scan
    }

    static func names(in path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
