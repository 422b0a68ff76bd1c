import NIOCore
import Synchronization

/// The proxy's listening sockets: one per event loop, each new connection going to the loop of
/// the CPU its client connected from (``SteeredListeningSockets``), or a single one handing
/// connections to the loops in turn where that is not available or not wanted.
final class ProxyListeners: Sendable {
    let all: [ProxyServer.Listener]
    /// Whether connections are steered by their client's CPU.
    let steered: Bool
    /// Connections each listener accepted, in the order of ``all``.
    private let accepted: Mutex<[Int]>

    init(_ listeners: [ProxyServer.Listener], steered: Bool) {
        all = listeners
        self.steered = steered
        accepted = Mutex(Array(repeating: 0, count: listeners.count))
    }

    /// The port they listen on.
    var port: Int? { all.first?.channel.localAddress?.port }

    /// Connections each listener accepted so far.
    var acceptedCounts: [Int] { accepted.withLock { $0 } }

    func countAccepted(by index: Int) {
        accepted.withLock { $0[index] += 1 }
    }

    /// Stops accepting on every socket.
    func close() {
        for listener in all { listener.channel.close(promise: nil) }
    }
}
