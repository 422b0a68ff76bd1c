import CacheProxy
import CacheProxyServer
import CacheStore
import SparseFile
import Testing
import TestSupport

@Suite("A configuration names its origin client: the CacheProxy module links none")
struct OriginClientChoiceTests {
    @Test("A proxy and an offline downloader without an origin client are refused at once, naming both choices")
    func noOriginClientIsRefused() throws {
        let directory = TemporaryDirectory("proxy-no-origin-client")
        let store = try CacheStore.open(at: directory.path, configuration: .init(fileOptions: SparseFileOptions(durability: .none)))
        defer { try? store.close() }
        let unchosen = CacheProxyConfiguration()
        #expect(unchosen.originClient == nil)
        let proxyError = #expect(throws: CacheProxyError.self) { try CacheProxy(store: store, configuration: unchosen) }
        #expect(proxyError?.code == .invalidConfiguration)
        #expect(proxyError?.message.contains(".urlSession") == true)
        #expect(proxyError?.message.contains(".asyncHTTPClient") == true)
        let downloaderError = #expect(throws: CacheProxyError.self) { try OfflineDownloader(store: store, configuration: unchosen) }
        #expect(downloaderError?.code == .invalidConfiguration)
        #expect(throws: Never.self) { try OfflineDownloader(store: store, configuration: .server) }
    }

    @Test("The server configuration is every default with AsyncHTTPClient and Prometheus metrics")
    func serverConfiguration() {
        let server = CacheProxyConfiguration.server
        #expect(server.originClient?.name == "asyncHTTPClient")
        #expect(server.originClient?.checksPeers == true)
        #expect(server.metricsFormat?.contentType.hasPrefix("text/plain; version=0.0.4") == true)
        let plain = CacheProxyConfiguration()
        #expect(plain.metricsFormat == nil)
        #expect(server.port == plain.port && server.threads == plain.threads && server.limits.maximumHeaderBytes == plain.limits.maximumHeaderBytes)
    }
}
