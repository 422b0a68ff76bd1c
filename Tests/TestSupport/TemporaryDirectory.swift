import Foundation

/// A fresh directory under the system's temporary directory, removed when the value goes away.
public final class TemporaryDirectory: Sendable {
    public let path: String

    public init(_ label: String = "sparsefile") {
        let base = FileManager.default.temporaryDirectory.path
        path = "\(base)/\(label)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    public func file(_ name: String) -> String { "\(path)/\(name)" }
}
