import NIOCore
import NIOHTTP1

/// Serves the requests of one client connection in order, until the client closes, a response
/// must end the connection, or the proxy stops.
struct ConnectionHandler {
    let context: ProxyContext
    let router: RequestRouter

    func serve(_ connection: ProxyServer.Connection) async {
        await withTaskExecutorPreference(EventLoopTaskExecutor(connection.channel.eventLoop)) {
            await serveOnEventLoop(connection)
        }
    }

    private func serveOnEventLoop(_ connection: ProxyServer.Connection) async {
        context.counters.connectionOpened()
        defer { context.counters.connectionClosed() }
        let allocator = connection.channel.allocator
        do {
            try await connection.executeThenClose { inbound, outbound in
                var requests = inbound.makeAsyncIterator()
                while let part = try await requests.next() {
                    guard case .head(let head) = part else { continue }
                    // GET and HEAD have no body worth reading; a body is skipped up to its end.
                    var ended = false
                    while !ended, let next = try await requests.next() {
                        if case .end = next { ended = true }
                    }
                    guard ended else { return }
                    let writer = ResponseWriter(outbound: outbound, allocator: allocator, request: head)
                    let keepOpen = await router.respond(to: head, writer: writer)
                    guard keepOpen, writer.keepAlive else { return }
                }
            }
        } catch {
            context.logger.trace("connection ended", metadata: ["error": "\(error)"])
        }
    }
}
