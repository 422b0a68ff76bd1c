import Logging
import Synchronization

/// A swift-log handler that keeps what it is given, for tests that read a proxy's log.
final class CapturedLog: Sendable {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let entries = Mutex<[Entry]>([])

    /// A logger writing here, at `level` and above.
    func logger(level: Logger.Level = .info) -> Logger {
        var logger = Logger(label: "test.proxy") { _ in Handler(log: self) }
        logger.logLevel = level
        return logger
    }

    var all: [Entry] { entries.withLock { $0 } }

    /// The messages of the access log (they start with `method=`).
    var accessLines: [String] { all.filter { $0.level == .info && $0.message.hasPrefix("method=") }.map(\.message) }

    fileprivate func append(_ entry: Entry) {
        entries.withLock { $0.append(entry) }
    }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            log.append(Entry(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" }))
        }
    }
}
