public import Foundation
import Synchronization

/// A child process started with `posix_spawn`, offering the part of Foundation's `Process` that
/// the tests use, under the same names.
///
/// Why not `Process`: on Linux its `run()` lists /proc/self/fd to close the descriptors a child
/// must not inherit, and copies each entry's whole 256-byte `d_name` where glibc's record is
/// shorter (swift-corelibs-foundation pull request 5472, after Swift 6.3.1). A test process holds
/// hundreds of sockets; when such a record ended glibc's buffer before an unmapped page, the
/// copy crashed the whole test run (`memmove`, a bad pointer), about one full proxy run in three.
/// Here the child closes them itself (`posix_spawn_file_actions_addclosefrom_np`), reading nothing.
public final class ChildProcess: Sendable {
    /// How the process ended, as `Process.TerminationReason` says it.
    public enum TerminationReason: Sendable {
        case exit
        case uncaughtSignal
    }

    /// What `run()` starts. Standard streams take a `Pipe` or a `FileHandle`, as `Process`'s do;
    /// nil inherits the test process's own.
    private struct Configuration: @unchecked Sendable {
        var executableURL: URL?
        var arguments: [String] = []
        var environment: [String: String]?
        var standardInput: Any?
        var standardOutput: Any?
        var standardError: Any?
        var terminationHandler: (@Sendable (ChildProcess) -> Void)?
    }

    private struct State {
        var identifier: pid_t = 0
        /// The raw `waitpid` status once the process ended.
        var waitStatus: Int32?
    }

    private let configuration = Mutex(Configuration())
    private let state = Mutex(State())
    /// Signalled once when the process ends; each waiter passes it on to the next.
    private let ended = DispatchSemaphore(value: 0)

    public init() {}

    public var executableURL: URL? {
        get { configuration.withLock { $0.executableURL } }
        set { configuration.withLock { $0.executableURL = newValue } }
    }

    public var arguments: [String]? {
        get { configuration.withLock { $0.arguments } }
        set { configuration.withLock { $0.arguments = newValue ?? [] } }
    }

    /// The child's whole environment; nil gives it the test process's own.
    public var environment: [String: String]? {
        get { configuration.withLock { $0.environment } }
        set { configuration.withLock { $0.environment = newValue } }
    }

    public var standardInput: Any? {
        get { configuration.withLock { $0.standardInput } }
        set { configuration.withLock { $0.standardInput = newValue } }
    }

    public var standardOutput: Any? {
        get { configuration.withLock { $0.standardOutput } }
        set { configuration.withLock { $0.standardOutput = newValue } }
    }

    public var standardError: Any? {
        get { configuration.withLock { $0.standardError } }
        set { configuration.withLock { $0.standardError = newValue } }
    }

    /// Called once on a thread of its own when the process ends.
    public var terminationHandler: (@Sendable (ChildProcess) -> Void)? {
        get { configuration.withLock { $0.terminationHandler } }
        set { configuration.withLock { $0.terminationHandler = newValue } }
    }

    public var processIdentifier: Int32 { state.withLock { $0.identifier } }

    public var isRunning: Bool { state.withLock { $0.identifier > 0 && $0.waitStatus == nil } }

    /// The exit status, or the signal that ended the process; valid once it has ended.
    public var terminationStatus: Int32 {
        let status = endedStatus()
        return Self.signal(of: status) == 0 ? (status >> 8) & 0xff : Self.signal(of: status)
    }

    public var terminationReason: TerminationReason {
        Self.signal(of: endedStatus()) == 0 ? .exit : .uncaughtSignal
    }

    /// Starts the process; throws when it cannot be started (the executable missing, say).
    public func run() throws {
        let configuration = configuration.withLock { $0 }
        guard let path = configuration.executableURL?.path else { throw ChildProcessError("no executable") }
        let streams = try [configuration.standardInput, configuration.standardOutput, configuration.standardError]
            .enumerated().map { try ChildStream($0.element, descriptor: Int32($0.offset)) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for stream in streams { try stream.add(to: &actions) }
        try Self.closeInheritedDescriptors(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A fresh process: its own process group (as Process gives it), no signal ignored or
        // blocked because the test process ignores or blocks it (NIO ignores SIGPIPE).
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let environment = configuration.environment.map { $0.map { "\($0.key)=\($0.value)" } }
            ?? ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        var identifier: pid_t = 0
        let status = Self.withCStrings([path] + configuration.arguments) { argv in
            Self.withCStrings(environment) { envp in
                posix_spawn(&identifier, path, &actions, &attributes, argv, envp)
            }
        }
        guard status == 0 else { throw ChildProcessError("posix_spawn \(path): \(String(cString: strerror(status)))") }
        // The child holds its ends of the pipes now; the parent's copies would hide their end.
        for stream in streams { stream.closeParentEnd() }
        let child = identifier
        state.withLock { $0.identifier = child }
        Thread.detachNewThread { [self] in reap(child) }
    }

    /// Blocks until the process has ended.
    public func waitUntilExit() {
        ended.wait()
        ended.signal()
    }

    /// Sends SIGTERM, as `Process.terminate()` does.
    public func terminate() { send(SIGTERM) }

    /// Sends SIGINT, as `Process.interrupt()` does.
    public func interrupt() { send(SIGINT) }

    private func send(_ signal: Int32) {
        // Never a signal to a number the process no longer holds.
        state.withLock { state in
            if state.identifier > 0, state.waitStatus == nil { kill(state.identifier, signal) }
        }
    }

    private func reap(_ identifier: pid_t) {
        var status: Int32 = 0
        while waitpid(identifier, &status, 0) == -1, errno == EINTR {}
        state.withLock { $0.waitStatus = status }
        ended.signal()
        configuration.withLock { $0.terminationHandler }?(self)
    }

    private func endedStatus() -> Int32 {
        guard let status = state.withLock({ $0.waitStatus }) else {
            preconditionFailure("the process has not ended: wait for it before reading how it ended")
        }
        return status
    }

    private static func signal(of status: Int32) -> Int32 { status & 0x7f }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc 2.34 has the action, but its header declares it for _GNU_SOURCE builds only.
    private static let closeFrom: CloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }

    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) throws {
        guard let closeFrom else { throw ChildProcessError("this libc has no posix_spawn_file_actions_addclosefrom_np") }
        let status = closeFrom(&actions, 3)
        guard status == 0 else { throw ChildProcessError("addclosefrom: \(String(cString: strerror(status)))") }
    }

    /// Calls `body` with a NULL-terminated array of C strings that live as long as the call.
    private static func withCStrings<Result>(
        _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result
    ) -> Result {
        let copies = strings.map { strdup($0) } + [nil]
        defer { for copy in copies { free(copy) } }
        return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

/// A child process could not be started.
public struct ChildProcessError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
