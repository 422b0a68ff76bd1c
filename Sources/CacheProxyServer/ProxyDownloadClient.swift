public import CacheProxy
public import CacheProxyParsing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import NIOHTTP1

/// Hands downloads to a proxy that runs in another process (the one holding the store, which
/// records its address: ``CacheStore/CacheStore/holder(of:)``) and follows them: what
/// `sparsecache fetch` does when a `sparsecache serve` has the cache directory.
public struct ProxyDownloadClient: Sendable {
    /// The proxy's base URL, `http://HOST:PORT`.
    public let baseURL: String
    /// The proxy's control token, when it was started with one.
    public let controlToken: String?

    public init(baseURL: String, controlToken: String? = nil) {
        self.baseURL = baseURL
        self.controlToken = controlToken
    }

    /// Starts a download (`POST /downloads`).
    public func start(_ request: DownloadRequest) async throws(CacheProxyError) -> DownloadStatus {
        try await send(.POST, "/downloads", body: Self.body(of: request))
    }

    /// The download's state now (`GET /downloads/ID`).
    public func status(_ id: String) async throws(CacheProxyError) -> DownloadStatus {
        try await send(.GET, "/downloads/\(id)")
    }

    /// Cancels it (`DELETE /downloads/ID`); what it stored stays.
    @discardableResult
    public func cancel(_ id: String) async throws(CacheProxyError) -> DownloadStatus {
        try await send(.DELETE, "/downloads/\(id)")
    }

    private func send(_ method: HTTPMethod, _ path: String, body: [UInt8]? = nil) async throws(CacheProxyError) -> DownloadStatus {
        try await ProxyControlConnection(baseURL: baseURL, controlToken: controlToken)
            .send(method, path, body: body, refused: "the download", answer: "a download's state")
    }

    /// The JSON body of `POST /downloads` for `request`.
    static func body(of request: DownloadRequest) -> [UInt8] {
        ProxyControlConnection.json(Body(request))
    }

    /// The JSON a `POST /downloads` takes.
    private struct Body: Encodable {
        let request: DownloadRequest

        init(_ request: DownloadRequest) { self.request = request }

        private enum CodingKeys: String, CodingKey { case url, variant, allVariants, pin, headers }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(request.url.string, forKey: .url)
            // The one spelling of a quality in JSON: a number for a bandwidth, a string otherwise.
            try container.encode(request.variant.quality, forKey: .variant)
            try container.encode(request.allVariants, forKey: .allVariants)
            try container.encode(request.pin, forKey: .pin)
            if !request.headers.isEmpty {
                let fields = Dictionary(request.headers.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
                try container.encode(fields, forKey: .headers)
            }
        }
    }
}
