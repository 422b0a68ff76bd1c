import NIOCore

extension ChannelHandlerContext {
    /// Writes `last`, the final part of a response, and flushes. A response that ends its
    /// connection closes it once everything written before has left, never sooner (closing at
    /// once would drop what the channel still holds for the client).
    func writeLastAndFlush(_ last: NIOAny, keepAlive: Bool) {
        guard !keepAlive else {
            writeAndFlush(last, promise: nil)
            return
        }
        let channel = self.channel
        writeAndFlush(last).whenComplete { _ in channel.close(promise: nil) }
    }
}
