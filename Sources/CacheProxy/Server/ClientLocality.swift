import CCPULocality
import NIOCore

/// Whether a connection's client last ran on the CPU that serves it
/// (``CacheProxyConfiguration/MappedFiles/crossCoreSendfileLimit``).
///
/// A hit written from a mapping is copied into the socket by the serving thread and out of it
/// by the client: on the same core the bytes pass through its cache; across cores the client
/// pulls every line the server just wrote from the other core, which on this kind of machine
/// costs more than `sendfile`, whose pages neither side writes (Docs/BENCHMARKS.md,
/// "Connections steered to their client's CPU").
enum ClientLocality {
    /// True when the client sent its last bytes from the CPU the calling thread runs on, false
    /// when from another, nil when the system does not say (then nothing changes).
    static func sharesCPU(with channel: any Channel) -> Bool? {
        let current = sparsecache_current_cpu()
        guard current >= 0, let options = channel.syncOptions,
              let incoming = try? options.getOption(ChannelOptions.socketOption(.init(rawValue: SPARSECACHE_SO_INCOMING_CPU)))
        else { return nil }
        return incoming == current
    }
}
