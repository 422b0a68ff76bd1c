import NIOCore

/// Closes the file handle of every `FileRegion` written on a connection once the region has
/// been sent, or has failed to be (the connection closed first). A region owns a duplicate
/// descriptor of its cache file, so whoever writes one hands that descriptor over here.
final class FileRegionCloser: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .fileRegion(let region) = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        let written = promise ?? context.eventLoop.makePromise()
        written.futureResult.whenComplete { _ in try? region.fileHandle.close() }
        context.write(data, promise: written)
    }
}
