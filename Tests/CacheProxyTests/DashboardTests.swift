import Foundation
import NIOHTTP1
import Testing
import TestSupport

/// `GET /`, the dashboard page, and `GET /entries`, the paged list of what the cache holds.
/// (scripts/e2e-dashboard.sh renders the page in headless Chromium.)
@Suite("The dashboard and /entries", .timeLimit(.minutes(1)))
struct DashboardTests {
    @Test("GET / is a self-contained HTML page that reads /status, /entries and /downloads")
    func thePage() async throws {
        try await ProxyHarness.run { harness in
            let response = try await harness.fetch("http://127.0.0.1:\(harness.port)/")
            #expect(response.status == 200)
            #expect(response.headers.first(name: "Content-Type") == "text/html; charset=utf-8")
            let page = String(decoding: response.body, as: UTF8.self)
            #expect(page.hasPrefix("<!DOCTYPE html>"))
            for route in ["\"/status\"", "\"/entries?offset=\"", "\"/downloads\""] { #expect(page.contains(route)) }
            #expect(!page.contains("src=\"http") && !page.contains("href=\"http"), "no external assets")
            #expect(!page.contains("innerHTML"), "values are written as text")
            let head = try await harness.fetch("http://127.0.0.1:\(harness.port)/", method: .HEAD)
            #expect(head.status == 200 && head.body.isEmpty)
        }
    }

    @Test("GET /entries lists the cache's entries, most recently used first, a page at a time")
    func entriesArePaged() async throws {
        try await ProxyHarness.run { harness in
            let bodies = (0..<5).map { TestBytes(seed: UInt64(40 + $0)).bytes(0, 1000 * ($0 + 1)) }
            for (index, body) in bodies.enumerated() {
                harness.origin.set("/v\(index).ts", .init(body))
                #expect(try await harness.get("/v\(index).ts").status == 200)
            }
            _ = try await harness.get("/v1.ts", headers: [("Range", "bytes=0-9")])
            try harness.store.setPinned(true, for: harness.store.key(for: harness.origin.url("/v3.ts")))
            let base = "http://127.0.0.1:\(harness.port)/entries"
            let all = try Self.object(try await harness.fetch(base))
            #expect(all["total"] as? Int == 5 && all["offset"] as? Int == 0 && all["limit"] as? Int == 100)
            let entries = try #require(all["entries"] as? [[String: Any]])
            #expect(entries.first?["url"] as? String == harness.origin.url("/v1.ts"), "the last one used comes first")
            let third = try #require(entries.first { $0["url"] as? String == harness.origin.url("/v3.ts") })
            #expect(third["cachedBytes"] as? Int == 4000 && third["contentLength"] as? Int == 4000)
            #expect(third["coverage"] as? Double == 1 && third["complete"] as? Bool == true && third["pinned"] as? Bool == true)
            #expect((third["lastAccess"] as? String)?.hasSuffix("Z") == true)
            let page = try Self.object(try await harness.fetch(base + "?offset=2&limit=2"))
            #expect((page["entries"] as? [[String: Any]])?.compactMap { $0["url"] as? String }
                == entries[2..<4].compactMap { $0["url"] as? String })
            let past = try Self.object(try await harness.fetch(base + "?offset=9"))
            #expect((past["entries"] as? [Any])?.isEmpty == true && past["total"] as? Int == 5)
        }
    }

    @Test("Bad /entries parameters are 400, other methods on / are 405", arguments: [
        ("/entries?limit=0", HTTPMethod.GET, 400), ("/entries?limit=1001", .GET, 400), ("/entries?offset=-1", .GET, 400),
        ("/entries?page=2", .GET, 400), ("/", .POST, 405), ("/entries", .PUT, 405),
    ])
    func refusals(path: String, method: HTTPMethod, status: Int) async throws {
        try await ProxyHarness.run { harness in
            // A state-changing method with a JSON body passes the request guard (a bare POST is
            // 415 there), so what answers is the route.
            let headers = method == .GET ? [] : [("Content-Type", "application/json")]
            let response = try await harness.fetch("http://127.0.0.1:\(harness.port)" + path, method: method, headers: headers)
            #expect(response.status == status)
        }
    }

    private static func object(_ response: ProxyHarness.Response) throws -> [String: Any] {
        try #require(response.status == 200)
        return try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }
}
