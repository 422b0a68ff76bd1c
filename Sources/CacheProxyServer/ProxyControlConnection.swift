import AsyncHTTPClient
import CacheProxy
import CacheProxyParsing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import NIOHTTP1

/// The control routes of a proxy running in another process, as its clients reach them
/// (``ProxyDownloadClient``, ``ProxyStoreClient``): one JSON request, one JSON answer, and the
/// proxy's refusals as one line.
struct ProxyControlConnection: Sendable {
    let baseURL: String
    let controlToken: String?

    /// Sends `body` (JSON) to `path` and decodes the answer as `Answer`.
    ///
    /// - Throws: ``CacheProxyError``: `CacheProxyError.Code.originFailed` when the proxy does
    ///   not answer or answers something else, `CacheProxyError.Code.notFound` for a 404, and
    ///   `CacheProxyError.Code.invalidRequest` for any other refusal, with the proxy's reason.
    func send<Answer: Decodable>(
        _ method: HTTPMethod, _ path: String, body: [UInt8]? = nil, refused: String, answer: String
    ) async throws(CacheProxyError) -> Answer {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        if let controlToken { request.headers.add(name: "Authorization", value: "Bearer \(controlToken)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let bytes: [UInt8]
        let status: UInt
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            var collected: [UInt8] = []
            for try await chunk in response.body {
                guard collected.count + chunk.readableBytes <= 1 << 20 else { break }
                collected.append(contentsOf: chunk.readableBytesView)
            }
            (bytes, status) = (collected, response.status.code)
        } catch {
            throw CacheProxyError(.originFailed, "the proxy at \(baseURL) does not answer")
        }
        guard (200..<300).contains(status) else {
            // Control routes answer JSON errors; a request the proxy's guard refuses, one plain line.
            let message = (try? JSONDecoder().decode(ErrorAnswer.self, from: Data(bytes)))?.error
                ?? String(decoding: bytes.prefix(200).prefix { $0 != 10 }, as: UTF8.self) + " (status \(status))"
            let hint = status == 401 ? " (give the proxy's token with --control-token)" : ""
            throw CacheProxyError(status == 404 ? .notFound : .invalidRequest, "the proxy at \(baseURL) refused \(refused): \(message)\(hint)")
        }
        do {
            return try JSONDecoder().decode(Answer.self, from: Data(bytes))
        } catch {
            throw CacheProxyError(.originFailed, "the proxy at \(baseURL) answered something that is not \(answer)")
        }
    }

    /// `value` as a JSON body.
    static func json(_ value: some Encodable) -> [UInt8] {
        (try? JSONEncoder().encode(value)).map(Array.init) ?? []
    }

    private struct ErrorAnswer: Decodable {
        var error: String
    }
}
