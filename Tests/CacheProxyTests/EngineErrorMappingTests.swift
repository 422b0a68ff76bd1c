@testable import CacheProxy
import CacheProxyParsing
import CacheStore
import Foundation
import Testing
import TestSupport

/// The engine throws its own errors; the routes alone choose their HTTP statuses
/// (ProxyFailure+EngineErrors.swift) and the Swift API alone their `CacheProxyError` codes
/// (CacheProxyError+EngineErrors.swift), each from what failed, so that a status changed for
/// HTTP changes no Swift error.
@Suite("Engine errors: statuses in the routes, codes at the Swift API", .timeLimit(.minutes(2)))
struct EngineErrorMappingTests {
    private static let origin = (try? OriginURL(parsing: "http://origin.test/a.m3u8"))

    private static func upstream(_ code: UpstreamError.Code) -> UpstreamError {
        UpstreamError(code, "origin.test said so")
    }

    private static func loadFailed(_ error: any Error, field: String = "url") throws -> SessionOpenError {
        .loadFailed(field: field, origin: try #require(origin), PlaylistLoadError(error))
    }

    @Test("An upstream error's status: an origin's 4xx passed on (not 416), a refused hop 403, the rest 502", arguments: [
        (UpstreamError.Code.status(404), 404), (.status(403), 403), (.status(429), 429), (.status(416), 502), (.status(500), 502),
        (.refused, 403), (.unreachable, 502), (.invalidResponse, 502), (.truncated, 502), (.tooLarge, 502),
    ])
    func upstreamStatus(code: UpstreamError.Code, status: Int) {
        #expect(ProxyFailure(Self.upstream(code)).status == status)
    }

    @Test("An unreachable origin says that nothing was cached; other failures keep the upstream's words")
    func upstreamMessage() {
        #expect(ProxyFailure(Self.upstream(.unreachable)).message == "origin unreachable and not cached: origin.test said so")
        #expect(ProxyFailure(Self.upstream(.status(404))).message == "origin.test said so")
    }

    @Test("A playlist load error is sorted by what failed, and an interrupted load is answered with nothing")
    func playlistLoad() {
        guard case .tooLarge = PlaylistLoadError(Self.upstream(.tooLarge)) else { Issue.record("tooLarge"); return }
        guard case .refused = PlaylistLoadError(Self.upstream(.refused)) else { Issue.record("refused"); return }
        guard case .originFailed = PlaylistLoadError(Self.upstream(.status(404))) else { Issue.record("originFailed"); return }
        guard case .interrupted = PlaylistLoadError(CancellationError()) else { Issue.record("interrupted"); return }
        #expect(ProxyFailure(PlaylistLoadError(Self.upstream(.status(404))))?.status == 404)
        #expect(ProxyFailure(PlaylistLoadError(Self.upstream(.tooLarge)))?.status == 502)
        #expect(ProxyFailure(PlaylistLoadError(Self.upstream(.refused)))?.status == 403)
        #expect(ProxyFailure(PlaylistLoadError(CancellationError())) == nil)
    }

    @Test("Bytes that cannot be had: the store's or the proxy's state 503, the origin's failure its own, bytes that never came 502")
    func byteDelivery() {
        let storeError = CacheStoreError(.fillFailed, "the fill failed")
        #expect(ProxyFailure(ByteDeliveryError.storeRefused(storeError)).status == 503)
        #expect(ProxyFailure(ByteDeliveryError.shuttingDown).status == 503)
        #expect(ProxyFailure(ByteDeliveryError.shuttingDown).message == "the proxy is shutting down")
        #expect(ProxyFailure(ByteDeliveryError.originFailed(Self.upstream(.status(410)))).status == 410)
        let notFetched = ProxyFailure(ByteDeliveryError.notFetched(offset: 7, storeError))
        #expect(notFetched.status == 502 && notFetched.message.hasPrefix("byte 7 could not be fetched: "))
    }

    @Test("A range past the end is 416 with the length in Content-Range")
    func unsatisfiableRange() {
        let failure = ProxyFailure(UnsatisfiableRange(length: 1234))
        #expect(failure.status == 416)
        #expect(failure.headers["Content-Range"] == ["bytes */1234"])
        #expect(failure.message == "range not satisfiable for a length of 1234")
    }

    @Test("A session that cannot open: its HTTP status and words")
    func sessionStatus() throws {
        let field = ProxyFailure(SessionOpenError.invalidField("quality", "needs a quality"))
        #expect(field.status == 400 && field.field == "\"quality\"" && field.message == "needs a quality")
        #expect(ProxyFailure(SessionOpenError.notAllowed(host: "evil.test")).status == 403)
        #expect(ProxyFailure(SessionOpenError.notAllowed(host: "evil.test")).field == nil)
        let missing = ProxyFailure(try Self.loadFailed(Self.upstream(.status(404)), field: "urls[1]"))
        #expect(missing.status == 404 && missing.message == "\"urls[1]\": origin.test said so")
        let interrupted = ProxyFailure(try Self.loadFailed(CancellationError()))
        #expect(interrupted.status == 502 && interrupted.message == "\"url\": http://origin.test/a.m3u8 could not be loaded")
        #expect(ProxyFailure(SessionOpenError.cannotServeDASH(base: "http://h/p")).status == 502)
        #expect(ProxyFailure(SessionOpenError.tooManySessions(limit: 3)).status == 429)
        #expect(ProxyFailure(SessionOpenError.shuttingDown).status == 503)
    }

    @Test("A session that cannot open: its Swift error code follows what failed, not the status (an origin's 403 or 429 is the origin's failure)")
    func sessionCode() throws {
        let cases: [(SessionOpenError, CacheProxyError.Code)] = [
            (.invalidField("url", "not a playlist"), .invalidRequest),
            (.notAllowed(host: "evil.test"), .invalidRequest),
            (try Self.loadFailed(Self.upstream(.refused)), .invalidRequest),
            (try Self.loadFailed(Self.upstream(.status(403))), .originFailed),
            (try Self.loadFailed(Self.upstream(.status(429))), .originFailed),
            (try Self.loadFailed(Self.upstream(.status(400))), .originFailed),
            (try Self.loadFailed(Self.upstream(.status(404))), .originFailed),
            (try Self.loadFailed(Self.upstream(.unreachable)), .originFailed),
            (try Self.loadFailed(CancellationError()), .originFailed),
            (.cannotServeDASH(base: "http://h/p"), .originFailed),
            (.tooManySessions(limit: 3), .limitReached),
            (.shuttingDown, .alreadyStopped),
        ]
        for (error, code) in cases {
            let mapped = CacheProxyError(error)
            #expect(mapped.code == code, "\(error)")
            // The Swift error says what the HTTP answer says.
            #expect(mapped.message == ProxyFailure(error).message)
        }
    }

    @Test("From Swift, a session whose playlist the origin refuses (403) is the origin's failure; over HTTP it stays a 403")
    func originRefusalEndToEnd() async throws {
        try await ProxyHarness.run { harness in
            var refused = TestOrigin.Resource(Array("#EXTM3U\n".utf8), contentType: "application/vnd.apple.mpegurl")
            refused.faults.status = 403
            harness.origin.set("/refused.m3u8", refused)
            let url = harness.origin.url("/refused.m3u8")
            let error = await #expect(throws: CacheProxyError.self) {
                try await harness.proxy.openSession(PlaybackSessionRequest(url: OriginURL(parsing: url)))
            }
            #expect(error?.code == .originFailed)
            #expect(error?.message.hasPrefix("\"url\": ") == true)
            let answer = try await SessionClient(harness: harness).send(.POST, "/sessions", body: #"{"url": "\#(url)"}"#)
            #expect(answer.status == 403)
        }
    }
}
