import SparseFile

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
        for shard in Directory.names(in: directory.entriesPath) {
            let shardPath = directory.entriesPath + "/" + shard
            guard FileStatus(path: shardPath, calls: directory.calls)?.isDirectory == true, shard.utf8.count == 2 else {
                scan.strays.append(shard)
                continue
            }
            for name in Directory.names(in: shardPath) {
                let relative = shard + "/" + name
                guard let status = FileStatus(path: shardPath + "/" + name, calls: directory.calls), status.isRegularFile else {
                    scan.strays.append(relative)
                    continue
                }
                if name.hasSuffix(".scf") && name.hasPrefix(shard) {
                    scan.files.append(File(fileName: relative, size: status.size, modified: status.modified))
                } else if name.contains(".scf.new-") || name.contains(".scf.compact-") {
                    scan.leftovers.append(relative)
                } else {
                    scan.strays.append(relative)
                }
            }
        }
        return scan
    }
}
