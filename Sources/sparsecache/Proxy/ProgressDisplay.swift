import CacheProxy
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Shows download progress on standard error: a bar redrawn in place on a terminal, a plain
/// line at most once a second otherwise (for logs and scripts).
final class ProgressDisplay: Sendable {
    private let isTerminal = isatty(2) == 1
    private let last = Mutex<(time: Double, drawn: Bool)>((0, false))

    func show(_ progress: DownloadProgress) {
        let now = progress.elapsedSeconds
        let shouldDraw = last.withLock { last -> Bool in
            let interval = isTerminal ? 0.1 : 1.0
            let complete = progress.resourcesDone == progress.resourcesTotal
            guard now - last.time >= interval || complete else { return false }
            last = (now, true)
            return true
        }
        guard shouldDraw else { return }
        let fraction = progress.resourcesTotal > 0 ? Double(progress.resourcesDone) / Double(progress.resourcesTotal) : 0
        let summary = "\(progress.resourcesDone)/\(progress.resourcesTotal) resources, "
            + "\(progress.segmentsDone)/\(progress.segmentsTotal) segments, \(Self.bytes(progress.bytesFetched)), "
            + "\(Self.bytes(UInt64(progress.bytesPerSecond)))/s, ETA \(progress.estimatedSecondsLeft.map(Self.time) ?? "--:--")"
        if isTerminal {
            let width = 30
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            writeToStandardError("\r[\(bar)] \(Int(fraction * 100))% \(summary)\u{1B}[K")
        } else {
            writeToStandardError("progress: \(Int(fraction * 100))% \(summary)\n")
        }
    }

    func finish() {
        if isTerminal && last.withLock({ $0.drawn }) { writeToStandardError("\n") }
    }

    static func bytes(_ count: UInt64) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(Int(value * 10) / 10) + "." + String(Int(value * 10) % 10) + " " + units[unit]
    }

    static func time(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        return String(total / 60) + ":" + (total % 60 < 10 ? "0" : "") + String(total % 60)
    }
}
