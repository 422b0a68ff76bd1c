import CacheProxyParsing
import NIOCore

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
                    guard case .head(let request) = part else { continue }
                    let head = request.head
                    // Only a POST's body matters, up to the limit its route declares; other
                    // bodies are skipped up to their end.
                    let limit = head.method == .POST ? bodyLimit(of: request.route) : 0
                    var body = allocator.buffer(capacity: 0)
                    var tooLarge = false
                    var ended = false
                    while !ended, let next = try await requests.next() {
                        switch next {
                        case .body(var chunk) where !tooLarge:
                            tooLarge = body.readableBytes + chunk.readableBytes > limit && limit > 0
                            if limit > 0 && !tooLarge { body.writeBuffer(&chunk) }
                        case .end: ended = true
                        default: break
                        }
                    }
                    guard ended else { return }
                    let writer = ResponseWriter(outbound: outbound, allocator: allocator, request: head)
                    let complete = await router.respond(to: request, body: tooLarge ? nil : body, writer: writer)
                    guard complete, writer.keepAlive else {
                        // Closing drops what the channel still holds for the client: a complete
                        // response is sent out whole first (a half-close waits for the pending
                        // writes, or fails when the stall handler gives up on the client).
                        if complete { try? await connection.channel.close(mode: .output) }
                        return
                    }
                }
            }
        } catch {
            context.logger.trace("connection ended", metadata: ["error": "\(error)"])
        }
    }

    /// The most bytes of a `POST` body read for `route` (0: none), as its entry in the route
    /// table declares under the proxy's configured limits.
    private func bodyLimit(of route: RequestRoute) -> Int {
        let limits = context.configuration.limits
        return route.traits.body.maximumBytes(prefetch: limits.prefetch, sessions: limits.sessions)
    }
}
