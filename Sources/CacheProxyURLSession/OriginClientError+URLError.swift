import CacheProxy
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension OriginClientError {
    /// `URLSession`'s errors as the kinds the proxy words.
    ///
    /// - Parameter afterHead: whether the head had arrived: a timeout then is the body's silence,
    ///   before it the answer's lateness.
    static func translating(_ error: any Error, afterHead: Bool) -> any Error {
        if error is CancellationError || error is OriginClientError { return error }
        guard let urlError = error as? URLError else { return OriginClientError(.other, detail: String(reflecting: error)) }
        let detail = "URLError \(urlError.code.rawValue): \(urlError.localizedDescription)"
        switch urlError.code {
        case .cancelled:
            return CancellationError()
        case .cannotFindHost, .dnsLookupFailed:
            return OriginClientError(.unresolvable, detail: detail)
        case .cannotConnectToHost:
            return OriginClientError(.connectionRefused, detail: detail)
        case .notConnectedToInternet, .internationalRoamingOff, .dataNotAllowed, .callIsActive:
            return OriginClientError(.unreachable, detail: detail)
        case .timedOut:
            return OriginClientError(afterHead ? .readTimeout : .responseTimeout, detail: detail)
        case .networkConnectionLost, .badServerResponse, .zeroByteResource, .cannotParseResponse:
            return OriginClientError(.connectionClosed, detail: detail)
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted, .serverCertificateHasUnknownRoot,
             .serverCertificateNotYetValid, .clientCertificateRejected, .clientCertificateRequired:
            return OriginClientError(.tlsFailed, detail: detail)
        case .unknown:
            return OriginClientError(kind(ofLibcurlMessage: urlError.localizedDescription), detail: detail)
        default:
            return OriginClientError(.other, detail: detail)
        }
    }

    /// What a libcurl failure was, from its message: swift-corelibs-foundation reports most of
    /// libcurl's errors (TLS, a cut body, no route) as `URLError.unknown` with libcurl's text.
    static func kind(ofLibcurlMessage message: String) -> Kind {
        let lowercased = message.lowercased()
        func mentions(_ words: String...) -> Bool { words.contains { lowercased.contains($0) } }
        if message.contains("SSL") || message.contains("TLS") || mentions("certificate", "handshake") { return .tlsFailed }
        if mentions("no route to host", "network is unreachable", "host is unreachable") { return .unreachable }
        if mentions("connection refused") { return .connectionRefused }
        if mentions("could not resolve", "couldn't resolve") { return .unresolvable }
        if mentions("transfer closed", "connection reset", "empty reply", "recv failure", "connection died") { return .connectionClosed }
        return .other
    }
}
