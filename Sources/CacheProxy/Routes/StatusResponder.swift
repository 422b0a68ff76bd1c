#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore

/// Answers `GET /status` with ``ProxyStatus`` as JSON.
struct StatusResponder {
    let reporter: StatusReporter

    func respond(writer: ResponseWriter) async throws {
        try await Self.sendJSON(reporter.status, status: .ok, writer: writer)
    }

    /// Sends `value` as a JSON document.
    static func sendJSON(_ value: some Encodable, status: ResponseStatus, headers extra: HeaderFields = [:], writer: ResponseWriter) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let body = try encoder.encode(value)
        var headers = extra
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: String(body.count))
        headers.add(name: "Cache-Control", value: "no-store")
        try await writer.sendComplete(status: status, headers: headers, body: writer.allocator.buffer(bytes: body))
    }
}
