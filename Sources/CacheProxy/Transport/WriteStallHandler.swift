#if canImport(Glibc)
import Glibc
#endif
import NIOCore

/// Closes a connection whose client stops reading: when the connection stays unwritable and
/// nothing it holds leaves for the client during `timeout`, the client is gone or stalled, and
/// the response it holds up is dropped.
///
/// Progress, not writability, is what counts: a cached body goes out as one `FileRegion`, and
/// the connection stays unwritable until nearly all of it is sent, which for a large body and a
/// client that reads at playback speed can be minutes of steady progress. Progress is seen in
/// two places: the bytes the channel still holds shrink, or (on Linux) the kernel sent new data
/// on the socket lately. The second matters for slow clients: the kernel's send buffer (up to
/// 4 MiB) takes a large part of a region at once, and the channel sees nothing move until a
/// third of that buffer has drained.
final class WriteStallHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let timeout: TimeAmount
    private let counters: ProxyCounters
    private var timer: Scheduled<Void>?
    /// The bytes waiting to be written when the timer was armed.
    private var bufferedAtArming = 0

    init(timeout: TimeAmount, counters: ProxyCounters) {
        self.timeout = timeout
        self.counters = counters
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            disarm()
        } else if timer == nil {
            arm(context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    private func arm(context: ChannelHandlerContext) {
        bufferedAtArming = Self.bufferedBytes(context)
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: timeout) {
            let (handler, context) = loopBound.value
            handler.timer = nil
            guard !context.channel.isWritable else { return }
            if Self.bufferedBytes(context) < handler.bufferedAtArming || handler.kernelSentDataLately(context) {
                handler.arm(context: context)
            } else {
                handler.counters.recordStalledClientDropped()
                context.close(promise: nil)
            }
        }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }

    /// What the channel holds for the client; it shrinks as the socket takes bytes, including
    /// those of a file region partly sent.
    private static func bufferedBytes(_ context: ChannelHandlerContext) -> Int {
        (try? context.channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0
    }

    /// Whether the kernel sent new bytes on the socket within the timeout. Window probes to a
    /// client that reads nothing carry no new data, so they do not count.
    private func kernelSentDataLately(_ context: ChannelHandlerContext) -> Bool {
        #if os(Linux)
        guard let provider = context.channel as? any SocketOptionProvider else { return false }
        var sentLately = false
        // On its event loop the channel answers at once, so the future is already complete.
        provider.getTCPInfo().assumeIsolated().whenSuccess { info in
            sentLately = Int64(info.tcpi_last_data_sent) * 1_000_000 < self.timeout.nanoseconds
        }
        return sentLately
        #else
        return false
        #endif
    }
}
