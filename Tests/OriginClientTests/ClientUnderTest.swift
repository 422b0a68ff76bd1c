@testable import CacheProxy
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// A client of one kind, made as the proxy makes one for a lane, and the few calls the tests
/// make with it.
struct ClientUnderTest {
    let client: any OriginClient

    /// Runs `body` with a client of `kind`, shut down afterwards whatever happens.
    static func with<T>(
        _ kind: OriginClientKind, readTimeout: Duration = .seconds(30),
        checkPeer: @escaping @Sendable (SocketAddress, SocketAddress?) -> (any Error)? = { _, _ in nil },
        _ body: (ClientUnderTest) async throws -> T
    ) async throws -> T {
        let settings = OriginClientSettings(
            connectTimeout: .seconds(10), readTimeout: readTimeout, connectionsPerHost: 4,
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton, checkPeer: checkPeer)
        let client = ClientUnderTest(client: kind.makeClient(settings))
        do {
            let result = try await body(client)
            await client.client.shutdown()
            return result
        } catch {
            await client.client.shutdown()
            throw error
        }
    }

    /// A GET of `url` whose head must come within `deadline`.
    func get(_ url: String, range: String? = nil, deadline: Duration = .seconds(30)) async throws -> OriginResponse {
        var headers: HeaderFields = ["User-Agent": "SparseCache", "Accept-Encoding": "identity"]
        if let range { headers.add(name: "Range", value: range) }
        return try await client.send(OriginRequest(url: url, headers: headers, deadline: .now() + TimeAmount(deadline)))
    }
}

extension OriginBody {
    /// Every byte of the body.
    func collect() async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await chunk in self { bytes.append(contentsOf: chunk.readableBytesView) }
        return bytes
    }
}

/// Runs `body` with a fresh origin, stopped afterwards whatever happens.
func withOrigin<T>(tls: NIOSSLContext? = nil, _ body: (ContractOrigin) async throws -> T) async throws -> T {
    let origin = try await ContractOrigin.start(tls: tls)
    do {
        let result = try await body(origin)
        await origin.stop()
        return result
    } catch {
        await origin.stop()
        throw error
    }
}
