import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TestSupport

/// Opens and reads playback sessions over HTTP, as an app would.
struct SessionClient {
    let harness: ProxyHarness

    struct Opened {
        var id: String
        var playlist: String
        var json: [String: Any]
    }

    var base: String { "http://127.0.0.1:\(harness.port)" }

    func send(_ method: HTTPMethod, _ path: String, body: String? = nil, contentType: String = "application/json") async throws -> ProxyHarness.Response {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        if let body {
            request.body = .bytes(ByteBuffer(string: body))
            request.headers.add(name: "Content-Type", value: contentType)
        }
        let response = try await harness.client.execute(request, timeout: .seconds(30))
        var bytes: [UInt8] = []
        for try await chunk in response.body { bytes.append(contentsOf: chunk.readableBytesView) }
        return ProxyHarness.Response(status: Int(response.status.code), headers: response.headers, body: bytes)
    }

    /// Opens a session; the response must be 201 with an id and a playlist URL.
    func open(_ body: String) async throws -> Opened {
        let response = try await send(.POST, "/sessions", body: body)
        guard response.status == 201, let json = Self.object(response.body), let id = json["id"] as? String,
              let playlist = json["playlist"] as? String else {
            throw Failure("POST /sessions answered \(response.status): \(String(decoding: response.body, as: UTF8.self))")
        }
        return Opened(id: id, playlist: playlist, json: json)
    }

    func status(_ id: String) async throws -> [String: Any] {
        let response = try await send(.GET, "/sessions/\(id)")
        guard response.status == 200, let json = Self.object(response.body) else { throw Failure("GET /sessions/\(id) answered \(response.status)") }
        return json
    }

    /// GETs an absolute URL the proxy handed out.
    func get(_ url: String, headers: [(String, String)] = []) async throws -> ProxyHarness.Response {
        try await harness.fetch(url, headers: headers)
    }

    /// The URI lines and URI attributes of a playlist, in order.
    static func uris(in playlist: [UInt8]) -> [String] {
        var uris: [String] = []
        for line in String(decoding: playlist, as: UTF8.self).split(whereSeparator: \.isNewline) {
            if line.hasPrefix("#") {
                var rest = line[...]
                while let range = rest.range(of: "URI=\"") {
                    let value = rest[range.upperBound...].prefix { $0 != "\"" }
                    uris.append(String(value))
                    rest = rest[range.upperBound...].dropFirst(value.count)
                }
            } else if !line.isEmpty {
                uris.append(String(line))
            }
        }
        return uris
    }

    static func lines(_ playlist: [UInt8], prefix: String) -> [String] {
        String(decoding: playlist, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init).filter { $0.hasPrefix(prefix) }
    }

    static func object(_ body: [UInt8]) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }

    /// Waits until `condition` holds, checking every 10 ms; false after `timeout`.
    static func eventually(timeout: Duration = .seconds(10), _ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return try await condition()
    }

    /// Waits until no fetch runs or waits on the segment lane and the origin has finished with
    /// every request it got for paths starting with `prefix`, then returns how each ended. A
    /// closed session starts nothing again, so once this returns nothing more happens for it:
    /// the fact a sleep would only guess at.
    static func originSettled(_ harness: ProxyHarness, prefix: String) async throws -> [TestOrigin.Outcome] {
        var outcomes: [TestOrigin.Outcome] = []
        try await waitUntil("the segment lane is idle and the origin finished every request under \(prefix)", timeout: .seconds(20)) {
            guard let lane = harness.proxy.status?.segment, lane.active == 0, lane.waiting == 0 else { return false }
            let paths = Set(harness.origin.requests.map(\.path).filter { $0.hasPrefix(prefix) })
            let requested = harness.origin.requests.filter { $0.path.hasPrefix(prefix) }.count
            outcomes = paths.flatMap { harness.origin.outcomes(for: $0) }
            return outcomes.count == requested
        }
        return outcomes
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
