import CacheProxy
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// The GET of `request`; nil when its URL is not an absolute `http` or `https` one.
    init?(_ request: OriginRequest) {
        guard let url = URL(string: request.url), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host != nil
        else { return nil }
        self.init(url: url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData)
        httpMethod = "GET"
        httpShouldHandleCookies = false
        for field in request.headers where field.name.lowercased() != "host" {
            // URLSession writes `Host` from the URL.
            addValue(field.value, forHTTPHeaderField: field.name)
        }
        if value(forHTTPHeaderField: "Accept-Encoding") == nil {
            // Without it, libcurl (Linux) asks for every encoding it can decode, and decodes.
            setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        }
    }
}
