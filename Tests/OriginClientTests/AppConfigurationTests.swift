import CacheProxy
import CacheProxyURLSession
import Testing

@Suite("The app configuration: every default, origins through URLSession")
struct AppConfigurationTests {
    @Test("CacheProxyConfiguration.app names the URLSession client and keeps no metrics, its other values the defaults")
    func appConfiguration() {
        let app = CacheProxyConfiguration.app
        let plain = CacheProxyConfiguration()
        #expect(app.originClient?.name == OriginClientKind.urlSession.name)
        #expect(app.originClient?.checksPeers == false)
        #expect(app.metricsFormat == nil)
        #expect(app.host == plain.host && app.port == plain.port && app.threads == plain.threads)
    }
}
