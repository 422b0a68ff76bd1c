import AsyncHTTPClient
public import CacheProxy
public import CacheProxyParsing
import NIOCore

/// Fetches one small resource whole, outside any proxy and store: what `sparsecache hls parse`
/// and `hls lint` read when they are given a URL instead of a file. Failures are worded as the
/// proxy words an origin's (a host that does not resolve, a refused port, a status).
public enum WholeResourceFetch {
    /// The body of `url` when it answers 2xx (after redirects), at most `limit` bytes.
    ///
    /// - Throws: ``CacheProxyError`` `.originFailed` naming the URL and the reason, or
    ///   `.limitReached` when the body is longer than `limit`.
    public static func bytes(of url: OriginURL, limit: Int, timeouts: CacheProxyConfiguration.Timeouts = .init())
        async throws(CacheProxyError) -> [UInt8] {
        let request = HTTPClientRequest(url: url.string)
        let deadline = timeouts.originConnect + timeouts.originResponseHead + timeouts.originRead
        var collected: [UInt8] = []
        let status: UInt
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(deadline.components.seconds))
            status = response.status.code
            for try await chunk in response.body {
                guard collected.count + chunk.readableBytes <= limit else {
                    throw CacheProxyError(.limitReached, "\(url.string) is longer than \(limit) bytes")
                }
                collected.append(contentsOf: chunk.readableBytesView)
            }
        } catch let error as CacheProxyError {
            throw error
        } catch {
            throw CacheProxyError(.originFailed, "cannot fetch \(url.string): " + OriginFailureText.reason(error, origin: url, timeouts: timeouts))
        }
        guard (200..<300).contains(status) else {
            throw CacheProxyError(.originFailed, "cannot fetch \(url.string): the origin answered \(status)")
        }
        return collected
    }
}
