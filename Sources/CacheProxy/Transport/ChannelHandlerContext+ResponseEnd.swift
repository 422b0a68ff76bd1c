import NIOCore

extension ChannelHandlerContext {
    /// Writes `last`, the final part of a response, and flushes. A response that ends its
    /// connection closes it once everything written before has left, never sooner (closing at
    /// once would drop what the channel still holds for the client). `pending`, the response's
    /// access log record, is appended once it is written.
    func writeLastAndFlush(_ last: NIOAny, keepAlive: Bool, logging pending: AccessLog.Pending? = nil) {
        guard !keepAlive || pending != nil else {
            writeAndFlush(last, promise: nil)
            return
        }
        let channel = self.channel
        let written = writeAndFlush(last)
        let flushed = ContinuousClock.now
        written.whenComplete { _ in
            pending?.written(firstByte: flushed)
            if !keepAlive { channel.close(promise: nil) }
        }
    }
}
