import CacheProxy
import Foundation
import Synchronization
import Testing

/// Connections that arrive while the listener closes. SwiftNIO hands an accepted connection to
/// the accept loop through a stream; one accepted as the listener closes can miss the stream's
/// end and be dropped unread, and SwiftNIO traps on such a connection
/// (apple/swift-nio#2813): the whole process would stop.
@Suite("Connections that arrive as the proxy stops")
struct ListenerCloseRaceTests {
    @Test("connections opened while the proxy shuts down are closed, and the process lives", .timeLimit(.minutes(2)))
    func connectionsDuringShutdown() async throws {
        for _ in 0..<25 {
            try await ProxyHarness.run { harness in
                let port = harness.port
                let stop = Atomic<Bool>(false)
                let opened = Atomic<Int>(0)
                let finished = Atomic<Int>(0)
                // Threads, not tasks: connects must race the event loops, not wait for them. Each
                // holds at most 64 connections, so that tests running beside this one keep their
                // file descriptors.
                let threads = (0..<4).map { _ in
                    Thread {
                        var held: [RawConnection] = []
                        while !stop.load(ordering: .relaxed) && held.count < 64 {
                            if let connection = try? RawConnection(port: port) {
                                held.append(connection)
                                opened.add(1, ordering: .relaxed)
                            }
                        }
                        held.removeAll()
                        finished.add(1, ordering: .relaxed)
                    }
                }
                threads.forEach { $0.start() }
                while opened.load(ordering: .relaxed) < 8 { try await Task.sleep(for: .milliseconds(1)) }
                harness.proxy.shutdown()
                try await Task.sleep(for: .milliseconds(20))
                stop.store(true, ordering: .relaxed)
                while finished.load(ordering: .relaxed) < threads.count { try await Task.sleep(for: .milliseconds(1)) }
            }
        }
    }
}
