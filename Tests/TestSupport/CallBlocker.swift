#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
package import SparseFile

/// System calls that stop, once armed, at the next call of one kind until released: a disk that
/// hangs at that point. Every other call goes through.
public final class CallBlocker: Sendable {
    public enum Call: Sendable {
        /// An `open` of a path that contains this text.
        case open(pathContaining: String)
        /// A data sync of any file.
        case fdatasync
        /// A `pread` of a file whose path contains this text.
        case read(pathContaining: String)
    }

    private let armed = Mutex<Call?>(nil)
    private let stopped = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)

    public init() {}

    /// Stops the next matching call.
    public func arm(_ call: Call) { armed.withLock { $0 = call } }

    /// Waits until a call has stopped; false when none did within `seconds`.
    public func waitUntilStopped(seconds: Int = 10) -> Bool {
        stopped.wait(timeout: .now() + .seconds(seconds)) == .success
    }

    /// Waits, without holding a thread of the cooperative pool, until a call has stopped; false
    /// when none did within `seconds`. For async tests, whose tasks need that pool to make the
    /// call at all.
    public func stopped(withinSeconds seconds: Int = 10) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if stopped.wait(timeout: .now()) == .success { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return stopped.wait(timeout: .now()) == .success
    }

    /// Lets the stopped call go on.
    public func release() { released.signal() }

    /// Stops here when `matches` the armed call (which is then disarmed).
    private func stopIfArmed(_ matches: (Call) -> Bool) {
        let stop = armed.withLock { call in
            guard let armed = call, matches(armed) else { return false }
            call = nil
            return true
        }
        guard stop else { return }
        stopped.signal()
        released.wait()
    }

    package var calls: SystemCalls {
        var calls = SystemCalls.live
        calls.open = { [self] path, flags, mode in
            stopIfArmed { if case .open(let text) = $0 { path.contains(text) } else { false } }
            return SystemCalls.live.open(path, flags, mode)
        }
        calls.fdatasync = { [self] descriptor in
            stopIfArmed { if case .fdatasync = $0 { true } else { false } }
            return SystemCalls.live.fdatasync(descriptor)
        }
        calls.pread = { [self] descriptor, buffer, count, offset in
            stopIfArmed { if case .read(let text) = $0 { Self.path(of: descriptor).contains(text) } else { false } }
            return SystemCalls.live.pread(descriptor, buffer, count, offset)
        }
        return calls
    }

    /// The path of an open file descriptor ("" when it cannot be told).
    package static func path(of descriptor: Int32) -> String {
        #if os(Linux)
        var target = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/fd/\(descriptor)", &target, target.count - 1)
        guard count > 0 else { return "" }
        return String(decoding: target[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
        return ""
        #endif
    }
}
