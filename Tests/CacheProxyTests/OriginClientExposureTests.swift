@testable import CacheProxy
import CacheProxyServer
import CacheStore
import SparseFile
import Testing
import TestSupport

@Suite("A proxy beyond loopback takes only an origin client that checks where its connections lead")
struct OriginClientExposureTests {
    /// A kind whose clients do not check peers (as URLSession's cannot); the client itself is
    /// never made, since the refusal comes first.
    private static let blind = OriginClientKind(name: "blind", checksPeers: false) { OriginClientKind.asyncHTTPClient.makeClient($0) }

    @Test("A client that cannot check its connections' peers is refused on a shared address, accepted on loopback")
    func blindClientOnlyOnLoopback() throws {
        let directory = TemporaryDirectory("proxy-origin-client")
        let store = try CacheStore.open(at: directory.path, configuration: .init(fileOptions: SparseFileOptions(durability: .none)))
        defer { try? store.close() }
        var configuration = CacheProxyConfiguration.server
        configuration.originClient = Self.blind
        configuration.host = "0.0.0.0"
        configuration.allowsNonLoopback = true
        #expect(throws: CacheProxyError(.invalidConfiguration, "")) { try CacheProxy(store: store, configuration: configuration) }
        configuration.originClient = .asyncHTTPClient
        #expect(throws: Never.self) { try CacheProxy(store: store, configuration: configuration) }
        configuration.originClient = Self.blind
        configuration.host = "127.0.0.1"
        #expect(throws: Never.self) { try CacheProxy(store: store, configuration: configuration) }
    }
}
