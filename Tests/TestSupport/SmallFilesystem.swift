import Foundation

/// A real filesystem of a few megabytes (a tmpfs mounted on a fresh directory), for tests of a
/// full disk; unmounted when the value goes away. Mounting needs root: `mount()` returns nil
/// otherwise, and the test says it skipped.
public final class SmallFilesystem: Sendable {
    public let path: String

    private init(path: String) {
        self.path = path
    }

    /// Mounts a tmpfs of `bytes` (rounded up to pages); nil when this process cannot mount.
    public static func mount(bytes: Int, label: String = "small-fs") -> SmallFilesystem? {
        let path = FileManager.default.temporaryDirectory.path + "/\(label)-\(UUID().uuidString)"
        guard (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil,
              run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", path]) else {
            try? FileManager.default.removeItem(atPath: path)
            return nil
        }
        return SmallFilesystem(path: path)
    }

    deinit {
        _ = Self.run("/bin/umount", ["-l", path])
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Free bytes on the filesystem now.
    public var freeBytes: UInt64 {
        let attributes = try? FileManager.default.attributesOfFileSystem(forPath: path)
        return (attributes?[.systemFreeSize] as? NSNumber)?.uint64Value ?? 0
    }

    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
