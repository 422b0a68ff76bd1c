import CacheProxyParsing
import NIOCore

/// `POST /downloads` starts a download into the cache and answers 202 with its state;
/// `GET /downloads` lists them, `GET /downloads/ID` reports one, `DELETE /downloads/ID` cancels
/// it (what it stored stays).
struct DownloadResponder {
    let environment: FetchEnvironment
    let downloads: DownloadManager

    func respondToCollection(_ request: RequestHead, body: ByteBuffer?, writer: ResponseWriter) async throws {
        switch request.method {
        case .POST:
            let download = try ControlRequest.parse(body, limit: DownloadRequest.maximumBodyBytes, what: "a download request") {
                bytes throws(ParseError) in try DownloadRequest(parsing: bytes)
            }
            try environment.checkAllowed([download.url])
            guard let status = downloads.start(download, environment: environment) else {
                throw ProxyFailure(status: 503, "the proxy is shutting down")
            }
            try await StatusResponder.sendJSON(status, status: .accepted, writer: writer)
        case .GET, .HEAD:
            try await StatusResponder.sendJSON(downloads.all, status: .ok, writer: writer)
        default:
            throw ProxyFailure(status: 405, "/downloads takes POST and GET", headers: ["Allow": "POST, GET, HEAD"])
        }
    }

    func respondToDownload(_ id: String, request: RequestHead, writer: ResponseWriter) async throws {
        let status: DownloadStatus?
        switch request.method {
        case .GET, .HEAD: status = downloads.status(id)
        case .DELETE: status = downloads.cancel(id)
        default: throw ProxyFailure(status: 405, "/downloads/ID takes GET and DELETE", headers: ["Allow": "GET, HEAD, DELETE"])
        }
        guard let status else { throw ProxyFailure(status: 404, "no download \(id)") }
        try await StatusResponder.sendJSON(status, status: .ok, writer: writer)
    }
}
