import CacheStore
import NIOCore
import SparseFile

/// Owns the cache-file descriptors a connection sends bytes from with `sendfile`.
///
/// A region written by the asynchronous path owns a duplicate descriptor, closed here once
/// the region has been sent or has failed to be. The cache-hit path instead asks this handler
/// for its regions, which share one duplicate per cache file: a player asks a connection for
/// many ranges of one file, and a `dup`, a `close` and a promise per response cost more than
/// the rest of a hit. The shared descriptor is closed once the connection moves to another file
/// (after the writes still queued with it) or closes.
final class ConnectionFileHandles: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private struct Shared {
        let key: String
        let file: SparseFile
        let descriptorGeneration: UInt64
        let handle: NIOFileHandle
    }

    private var shared: Shared?
    private var context: ChannelHandlerContext?

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    /// Called when the connection closes too: nothing is written after that.
    func handlerRemoved(context: ChannelHandlerContext) {
        if let shared { try? shared.handle.close() }
        shared = nil
        self.context = nil
    }

    /// Closes the kept descriptor when `store` no longer holds its file (it was evicted or
    /// removed), so that the file's blocks are freed now rather than at the next request.
    func releaseIfRemoved(from store: CacheStore) {
        guard let shared, store.reader(for: shared.key).file !== shared.file else { return }
        retireShared()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .fileRegion(let region) = unwrapOutboundIn(data), region.fileHandle !== shared?.handle else {
            context.write(data, promise: promise)
            return
        }
        let written = promise ?? context.eventLoop.makePromise()
        written.futureResult.whenComplete { _ in try? region.fileHandle.close() }
        context.write(data, promise: written)
    }

    /// A region that sends original bytes `bytes` of `file` from the connection's shared
    /// descriptor, when they were verified in this process and lie in one run of the file; nil
    /// otherwise. The caller writes it or drops it, and never closes its handle.
    func sharedRegion(for bytes: ByteRange, of file: SparseFile, key: String) -> FileRegion? {
        if let shared, shared.file === file {
            guard let run = file.verifiedRun(for: bytes) else { return nil }
            if run.descriptorGeneration == shared.descriptorGeneration {
                return FileRegion(shared.handle, at: run.fileOffset, length: bytes.length)
            }
        }
        guard let (region, generation) = file.fileRegion(for: bytes) else { return nil }
        retireShared()
        shared = Shared(key: key, file: file, descriptorGeneration: generation, handle: region.fileHandle)
        return region
    }

    /// Closes the shared descriptor once the regions still queued with it are written: an empty
    /// write behind them completes when they have.
    private func retireShared() {
        guard let retired = shared?.handle else { return }
        shared = nil
        guard let context else {
            try? retired.close()
            return
        }
        let drained = context.eventLoop.makePromise(of: Void.self)
        drained.futureResult.whenComplete { _ in try? retired.close() }
        context.write(wrapOutboundOut(.byteBuffer(context.channel.allocator.buffer(capacity: 0))), promise: drained)
    }
}
