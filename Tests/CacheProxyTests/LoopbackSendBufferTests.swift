import CacheProxy
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A player on the same machine gets a fixed, small send buffer (the bytes it reads next are then
/// still in the CPU's caches); with none configured the kernel's own sizing is left alone.
@Suite("The send buffer of connections from the same machine", .timeLimit(.minutes(1)))
struct LoopbackSendBufferTests {
    /// The send buffer of the proxy's end of the connection from `client`: this process's socket
    /// bound to `port` whose peer is the client's port.
    private func serverSendBuffer(port: Int, client: RawConnection) -> Int? {
        let peerPort = client.localPort
        // Every descriptor number this process may use (beside 400 other tests it held numbers
        // past 4096); names that are not sockets fail both calls.
        var limit = rlimit()
        let highest = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? min(limit.rlim_cur, 1 << 20) : 1 << 16
        for descriptor in Int32(0)..<Int32(highest) {
            guard self.port(of: descriptor, getsockname) == port, self.port(of: descriptor, getpeername) == peerPort else { continue }
            var size: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &size, &length) == 0 else { return nil }
            return Int(size)
        }
        return nil
    }

    private func port(of descriptor: Int32, _ name: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32) -> Int? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { name(descriptor, $0, &length) } }
        guard named == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The proxy's send buffer for one loopback connection that asked for `/status`.
    private func sendBuffer(configured: Int?) async throws -> Int? {
        try await sendBuffer { $0.loopbackSendBuffer = configured }
    }

    private func sendBuffer(_ configure: (inout CacheProxyConfiguration) -> Void) async throws -> Int? {
        var size: Int?
        try await ProxyHarness.run(configure: configure) { harness in
            let connection = try RawConnection(port: harness.port)
            connection.send("GET /status HTTP/1.1\r\nHost: \(harness.host)\r\n\r\n")
            #expect(await connection.readResponse(timeout: .seconds(10))?.status == 200)
            size = serverSendBuffer(port: harness.port, client: connection)
        }
        return size
    }

    @Test("A client on loopback gets the configured send buffer (Linux reports it doubled)")
    func configuredBufferApplied() async throws {
        let size = try #require(try await sendBuffer(configured: 200_000), "the proxy's socket is found")
        #expect((200_000...400_000).contains(size), "\(size)")
    }

    @Test("By default a client on loopback gets a 256 KiB send buffer (Linux reports it doubled, within net.core.wmem_max)")
    func defaultBufferIs256KiB() async throws {
        #expect(CacheProxyConfiguration().loopbackSendBuffer == 256 * 1024)
        let maximum = try #require(Int(try String(contentsOfFile: "/proc/sys/net/core/wmem_max", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        let size = try #require(try await sendBuffer { _ in }, "the proxy's socket is found")
        #expect(size == 2 * min(256 * 1024, maximum), "\(size)")
    }

    @Test("Without a configured size the kernel sizes the buffer")
    func kernelSizesWithoutConfiguration() async throws {
        let size = try #require(try await sendBuffer(configured: nil), "the proxy's socket is found")
        // A new connection's buffer as the kernel starts it (net.ipv4.tcp_wmem's default), far
        // from either the configured size or its double.
        #expect(!(200_000...400_000).contains(size), "\(size)")
        #expect(try await sendBuffer(configured: 50_000).map { (50_000...100_000).contains($0) } == true)
    }
}
