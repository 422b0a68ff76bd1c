#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CCPULocality
import NIOCore

/// Listening sockets sharing one port (`SO_REUSEPORT`), one per event loop, with a program that
/// hands each new connection to the socket of the CPU its client ran on when it connected.
///
/// Why: on loopback the kernel copies a response into the socket on the server's thread and
/// out of it on the client's. When one event loop serves connections of several client
/// threads (the one listening socket handing connections out in turn), half of those copies
/// cross cores, through memory the other core just wrote; measured with 16 connections from
/// two client threads, a 64 KiB range hit then costs the proxy 38-54 µs of CPU instead of
/// 20-25 µs. A loop that serves the connections of one client thread ends up on that thread's
/// core, and the bytes stay in its cache (Docs/BENCHMARKS.md, "Connections steered to their
/// client's CPU"). The CPU is the one the client connected from, which is where it stays only
/// when its threads have settled: opt-in (``CacheProxyConfiguration/steersConnectionsByCPU``).
/// Linux only; elsewhere the proxy keeps one listening socket.
enum SteeredListeningSockets {
    /// Whether this system can steer connections by CPU.
    static var isSupported: Bool {
        #if os(Linux)
        true
        #else
        false
        #endif
    }

    /// `count` sockets listening on `host`:`port` (port 0 picks one free port for all), the
    /// first connection of a client running on CPU c going to socket c % count. The caller owns
    /// the descriptors.
    ///
    /// A port that another socket already listens on is refused with `EADDRINUSE`, as a plain
    /// bind would, even when that socket allows sharing (another proxy started with the same
    /// port): sharing stays among this proxy's own sockets.
    ///
    /// - Throws: `IOError` with the failing call's errno (`SocketAddressError` for a host that
    ///   does not resolve); nothing stays open then.
    static func make(count: Int, host: String, port: Int, backlog: Int32) throws -> [CInt] {
        let requested = try SocketAddress.makeAddressResolvingHost(host, port: port)
        if port != 0 { try refuseTakenPort(requested) }
        var sockets: [CInt] = []
        do {
            var address = requested
            for _ in 0..<count {
                let socket = try listeningSocket(address, backlog: backlog)
                sockets.append(socket)
                // The first socket's port, for the rest (the same as `port` unless it was 0).
                if sockets.count == 1 { address.port = try localPort(of: socket) }
            }
            guard sparsecache_steer_connections_by_cpu(sockets[0], UInt32(count)) == 0 else {
                throw IOError(errnoCode: errno, reason: "attaching the steering program")
            }
            return sockets
        } catch {
            for socket in sockets { close(socket) }
            throw error
        }
    }

    /// Throws `EADDRINUSE` when some socket listens on `address`: binding it without
    /// `SO_REUSEPORT` conflicts with every listener there, sharing or not.
    private static func refuseTakenPort(_ address: SocketAddress) throws {
        let probe = try makeSocket(for: address, sharing: false)
        defer { close(probe) }
        try bind(probe, to: address)
    }

    private static func listeningSocket(_ address: SocketAddress, backlog: Int32) throws -> CInt {
        let socket = try makeSocket(for: address, sharing: true)
        do {
            try bind(socket, to: address)
            guard listen(socket, backlog) == 0 else { throw IOError(errnoCode: errno, reason: "listen") }
            return socket
        } catch {
            close(socket)
            throw error
        }
    }

    private static func makeSocket(for address: SocketAddress, sharing: Bool) throws -> CInt {
        let family = address.protocol.rawValue
        #if canImport(Glibc)
        let socket = Glibc.socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let socket = Darwin.socket(family, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw IOError(errnoCode: errno, reason: "socket") }
        var one: CInt = 1
        let size = socklen_t(MemoryLayout<CInt>.size)
        // As the single listener has it: a restarted proxy binds while old connections linger.
        guard setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &one, size) == 0,
              !sharing || setsockopt(socket, SOL_SOCKET, SO_REUSEPORT, &one, size) == 0
        else {
            let code = errno
            close(socket)
            throw IOError(errnoCode: code, reason: "setsockopt")
        }
        return socket
    }

    private static func bind(_ socket: CInt, to address: SocketAddress) throws {
        let result = address.withSockAddr { pointer, size in
            #if canImport(Glibc)
            Glibc.bind(socket, pointer, socklen_t(size))
            #else
            Darwin.bind(socket, pointer, socklen_t(size))
            #endif
        }
        guard result == 0 else { throw IOError(errnoCode: errno, reason: "bind") }
    }

    private static func localPort(of socket: CInt) throws -> Int {
        var storage = sockaddr_storage()
        var size = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &size) }
        }
        guard result == 0 else { throw IOError(errnoCode: errno, reason: "getsockname") }
        // sin_port and sin6_port lie at the same offset.
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(in_port_t(bigEndian: $0.pointee.sin_port)) }
        }
    }
}
