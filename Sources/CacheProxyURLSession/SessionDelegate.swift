import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// The delegate of a ``PooledSession``: hands the events of its one task to the ``Transfer``
/// running on it, and declines every redirect.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct Route {
        var transfer: Transfer
        var done: @Sendable () -> Void
    }

    private let route = Mutex<Route?>(nil)

    func begin(_ transfer: Transfer, done: @escaping @Sendable () -> Void) {
        route.withLock { $0 = Route(transfer: transfer, done: done) }
    }

    /// Cancels the transfer in flight, if any.
    func cancelCurrent() {
        route.withLock { $0?.transfer }?.cancel()
    }

    private var transfer: Transfer? { route.withLock { $0?.transfer } }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        transfer?.receivedHead(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        transfer?.received(data)
    }

    /// Declines: the proxy's guard checks each hop before it follows it.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let ended = route.withLock({ route in defer { route = nil }; return route }) else { return }
        ended.transfer.completed(error: error, response: task.response)
        ended.done()
    }
}
