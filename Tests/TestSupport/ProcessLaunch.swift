public import Foundation
import Synchronization

private let launches = Mutex(())

extension Process {
    /// Launches the process, one launch at a time in the test process: Foundation's `run()`
    /// crashed in `memmove` (a bad pointer) while tests launched processes concurrently, in one
    /// full run of the proxy's tests in several.
    public func runOneAtATime() throws {
        try launches.withLock { _ in try run() }
    }
}
