@testable import CacheProxy
@testable import CacheProxyServer
import CacheProxyParsing
import Testing

/// The body `ProxyDownloadClient` posts to a running proxy spells a variant the one way JSON
/// spells a quality (`HLSQuality`'s encoder): a number for a bandwidth, a string otherwise, and
/// the proxy reads back the same choice.
@Suite("A handed download's JSON body", .timeLimit(.minutes(1)))
struct DownloadRequestBodyTests {
    @Test("Each variant choice is written as the proxy reads it", arguments: [
        (PrefetchRequest.VariantChoice.lowest, #""variant":"lowest""#),
        (.highest, #""variant":"highest""#),
        (.closest(1_200_000), #""variant":1200000"#),
        (.height(720), #""variant":"720p""#),
    ])
    func variantSpelling(choice: PrefetchRequest.VariantChoice, spelled: String) throws {
        let request = DownloadRequest(url: try OriginURL(parsing: "http://origin.test/a.m3u8"), variant: choice)
        let body = ProxyDownloadClient.body(of: request)
        #expect(String(decoding: body, as: UTF8.self).contains(spelled))
        #expect(try DownloadRequest(parsing: body).variant == choice)
    }
}
