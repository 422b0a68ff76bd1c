import Foundation
import Synchronization
import TestSupport

/// `sparsecache serve` as a child process, as an operator runs it: its port from the
/// `listening on` line, its standard error as it is written, and its exit.
final class ServeProcess: Sendable {
    let process: ChildProcess
    let port: Int
    private let errors: ErrorBox
    private let exited: AsyncStream<Int32>

    private final class ErrorBox: Sendable {
        let output = Mutex(ErrorOutput())
    }

    /// Standard error as read so far, and the callers waiting for some text in it.
    private struct ErrorOutput {
        var text = ""
        var isClosed = false
        var waiters: [(text: String, continuation: CheckedContinuation<Bool, Never>)] = []

        /// Takes the waiters whose text has come (or all of them, once closed), with their answer.
        mutating func ready() -> [(CheckedContinuation<Bool, Never>, Bool)] {
            var ready: [(CheckedContinuation<Bool, Never>, Bool)] = []
            waiters.removeAll { waiter in
                let found = text.contains(waiter.text)
                guard found || isClosed else { return false }
                ready.append((waiter.continuation, found))
                return true
            }
            return ready
        }
    }

    /// Starts `sparsecache serve ARGUMENTS --port 0` and returns once it listens.
    init(_ arguments: [String]) throws {
        let process = ChildProcess()
        process.executableURL = CommandLineTool.executable
        process.arguments = ["serve", "--port", "0"] + arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        let errors = ErrorBox()
        error.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            let ready = errors.output.withLock { output in
                if data.isEmpty { output.isClosed = true } else { output.text += String(decoding: data, as: UTF8.self) }
                return output.ready()
            }
            for (waiter, found) in ready { waiter.resume(returning: found) }
        }
        let (exited, exitContinuation) = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { process in
            exitContinuation.yield(process.terminationReason == .exit ? process.terminationStatus : -process.terminationStatus)
            exitContinuation.finish()
        }
        try process.run()
        // The line scripts parse, printed once the proxy listens (or nothing, when it fails).
        var printed = ""
        while !printed.contains("\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            printed += String(decoding: data, as: UTF8.self)
        }
        guard let line = printed.split(separator: "\n").first, line.hasPrefix("listening on http://"),
              let port = line.split(separator: ":").last.flatMap({ Int($0) }) else {
            process.terminate()
            throw ServeProcessError(message: "serve did not start: \(printed) \(errors.output.withLock { $0.text })")
        }
        self.process = process
        self.port = port
        self.errors = errors
        self.exited = exited
    }

    /// Everything written to standard error so far.
    var standardError: String { errors.output.withLock { $0.text } }

    /// Returns once standard error holds `text` (false if the process closed it first).
    func waitForError(containing text: String) async -> Bool {
        await withCheckedContinuation { continuation in
            let ready = errors.output.withLock { output in
                output.waiters.append((text, continuation))
                return output.ready()
            }
            for (waiter, found) in ready { waiter.resume(returning: found) }
        }
    }

    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// The exit status once it exits; a negative number is the signal that ended it.
    func exitStatus() async -> Int32 {
        for await status in exited { return status }
        return process.terminationReason == .exit ? process.terminationStatus : -process.terminationStatus
    }
}

struct ServeProcessError: Error {
    var message: String
}
