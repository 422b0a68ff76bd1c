import AsyncHTTPClient
import CacheProxy
import CacheProxyParsing
import CacheStore
import Foundation
import Logging
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Where credentials come from (issue 32) beyond what CredentialsTests covers: downloads, the
/// command line (`serve --origin-header` with `@FILE`, `--forward-header`, `--store-no-store`,
/// `fetch --header`), and that no log line, metric or JSON answer ever shows a value.
@Suite("Credentials: downloads, the command line, and outputs without secrets", .timeLimit(.minutes(2)))
struct CredentialsSourcesTests {
    static let token = "Bearer sources-token-5772"
    static let cookie = "session=sources-cookie-1618"

    /// Publishes a presentation whose every playlist and segment answers 403 unless a request
    /// carries `fields`; returns its paths.
    @discardableResult
    static func publishLocked(_ root: String, on origin: TestOrigin, fields: [String: String]) -> [String] {
        let presentation = TestPresentation.publish(root, on: origin, segments: 2)
        var paths = [presentation.masterPath]
        for variant in TestPresentation.variants.map(\.name) {
            paths.append(presentation.mediaPath(variant))
            paths += (0..<2).map { presentation.path(variant, segment: $0) }
        }
        for path in paths { origin.update(path) { $0.requiredFields = fields } }
        return paths
    }

    @Test("A download's fields go with every request it makes, and its state never shows them")
    func downloadsCarryTheirFields() async throws {
        try await ProxyHarness.run { harness in
            let fields = ["authorization": Self.token, "cookie": Self.cookie]
            Self.publishLocked("dl", on: harness.origin, fields: fields)
            let client = SessionClient(harness: harness)
            let body = #"{"url": "\#(harness.origin.url("/dl/master.m3u8"))", "variant": "lowest", "headers": {"Authorization": "\#(Self.token)", "Cookie": "\#(Self.cookie)"}}"#
            let started = try await client.send(.POST, "/downloads", body: body)
            #expect(started.status == 202)
            let id = try #require(SessionClient.object(started.body)?["id"] as? String)
            let done = try await DownloadServingTests.waitForState(client, id, in: ["done", "failed"])
            #expect(done["state"] as? String == "done", "\(done)")
            let requests = harness.origin.requests.filter { $0.path.hasPrefix("/dl/") }
            #expect(requests.contains { $0.path == "/dl/low/s1.ts" })
            #expect(requests.allSatisfy { $0.fields["authorization"] == Self.token && $0.fields["cookie"] == Self.cookie })
            for answer in [started.body, try await client.send(.GET, "/downloads/\(id)").body, try await client.send(.GET, "/downloads").body] {
                let text = String(decoding: answer, as: UTF8.self)
                #expect(!text.contains("sources-token") && !text.contains("sources-cookie"), "\(text)")
            }
        }
    }

    @Test("Precedence per field: the player's forwarded fields over the session's, the session's over the app's")
    func precedence() async throws {
        let appFields = try OriginHeaderFields([("Authorization", "Bearer app"), ("Cookie", "app=1"), ("X-App", "a")])
        try await ProxyHarness.run(configure: {
            $0.originHeaders = ["127.0.0.1": appFields]
            $0.forwardedHeaders = ["Cookie"]
        }) { harness in
            TestPresentation.publish("p", on: harness.origin, segments: 2)
            let client = SessionClient(harness: harness)
            let opened = try await client.open(#"{"url": "\#(harness.origin.url("/p/low/index.m3u8"))", "headers": {"Authorization": "Bearer session", "Cookie": "session=1"}}"#)
            let segment = try #require(SessionClient.uris(in: try await client.get(opened.playlist).body).first)
            #expect(try await client.get(segment, headers: [("Cookie", "player=1")]).status == 200)
            let playlist = try #require(harness.origin.requests(for: "/p/low/index.m3u8").last)
            #expect((playlist.fields["authorization"], playlist.fields["cookie"], playlist.fields["x-app"]) == ("Bearer session", "session=1", "a"))
            let fetched = try #require(harness.origin.requests(for: "/p/low/s0.ts").last)
            #expect((fetched.fields["authorization"], fetched.fields["cookie"], fetched.fields["x-app"]) == ("Bearer session", "player=1", "a"))
        }
    }

    @Test("No log line, metric, dashboard or JSON answer shows a field's value, wherever it came from")
    func noSecretInAnyOutput() async throws {
        let log = CapturedLog()
        let origin = try await TestOrigin.start()
        let fields = ["authorization": Self.token, "cookie": Self.cookie]
        Self.publishLocked("s", on: origin, fields: fields)
        var answers: [[UInt8]] = []
        let appFields = try OriginHeaderFields([("Authorization", Self.token)])
        try await ProxyHarness.run(origin: origin, configure: {
            $0.originHeaders = ["127.0.0.1": appFields]
            $0.forwardedHeaders = ["Cookie"]
        }, logger: log.logger(level: .trace)) { harness in
            let client = SessionClient(harness: harness)
            // The player's cookie, forwarded; the app's token.
            let played = try await harness.fetch(harness.proxyURL(forOrigin: origin.url("/s/low/s0.ts")), headers: [("Cookie", Self.cookie)])
            #expect(played.status == 200)
            // A session's fields.
            let opened = try await client.open(#"{"url": "\#(origin.url("/s/master.m3u8"))", "quality": "lowest", "headers": {"Cookie": "\#(Self.cookie)"}}"#)
            let master = try await client.get(opened.playlist)
            let mediaURL = try #require(SessionClient.uris(in: master.body).first { $0.contains(".m3u8") })
            let segment = try #require(SessionClient.uris(in: try await client.get(mediaURL).body).first)
            #expect(try await client.get(segment).status == 200)
            // A prefetch's fields.
            let prefetch = try await client.send(.POST, "/prefetch", body: #"{"urls": [{"url": "\#(origin.url("/s/mid/s0.ts"))", "headers": {"Cookie": "\#(Self.cookie)"}}], "bytes": 20000}"#)
            #expect(prefetch.status == 202 || prefetch.status == 200)
            #expect(await SessionClient.eventually(timeout: .seconds(30)) {
                harness.store.entry(for: harness.store.key(for: origin.url("/s/mid/s0.ts")))?.cachedBytes == 20_000
            })
            for path in ["/status", "/sessions", "/sessions/\(opened.id)", "/prefetch", "/downloads", "/metrics", "/"] {
                answers.append(try await client.send(.GET, path).body)
            }
            answers.append(prefetch.body)
            answers.append(Array(try JSONSerialization.data(withJSONObject: opened.json)))
        }
        #expect(origin.requests.filter { $0.path.hasPrefix("/s/") }.allSatisfy { $0.fields["cookie"] == Self.cookie },
                "every origin request carried the cookie (else the checks below would prove little)")
        let lines = log.all.map { entry in ([entry.message] + entry.metadata.map { "\($0.key)=\($0.value)" }).joined(separator: " ") }
        #expect(lines.count > 5 && !log.accessLines.isEmpty, "the log was captured")
        for line in lines + answers.map({ String(decoding: $0, as: UTF8.self) }) {
            #expect(!line.contains("sources-token") && !line.contains("sources-cookie"), "\(line.prefix(300))")
        }
    }

    // MARK: The command line

    /// The port a `serve` prints in its `listening on` line, once it has.
    private static func listeningPort(_ outputFile: String) -> Int? {
        guard let text = try? String(contentsOfFile: outputFile, encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on http://127.0.0.1:") }) else { return nil }
        return Int(line.split(separator: ":").last ?? "")
    }

    /// A GET of `url`, read whole.
    private static func get(_ client: HTTPClient, _ url: String, headers: [(String, String)] = []) async throws -> ProxyHarness.Response {
        var request = HTTPClientRequest(url: url)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        return ProxyHarness.Response(status: Int(response.status.code), headers: response.headers, body: Array(body.readableBytesView))
    }

    @Test("serve --origin-header (on the command line and from @FILE), --forward-header and --store-no-store")
    func serveOptions() async throws {
        let origin = try await TestOrigin.start()
        var locked = TestOrigin.Resource(TestBytes(seed: 71).bytes(0, 40_000))
        locked.requiredFields = ["authorization": Self.token, "cookie": Self.cookie, "x-player": "p1"]
        origin.set("/locked.bin", locked)
        var unstorable = TestOrigin.Resource(TestBytes(seed: 72).bytes(0, 10_000))
        unstorable.cacheControl = "no-store"
        origin.set("/no-store.bin", unstorable)
        let cache = TemporaryDirectory("serve-credentials")
        let scratch = TemporaryDirectory("serve-credentials-output")
        try "# the cookie stays off the command line\n\n127.0.0.1: Cookie: \(Self.cookie)\n".write(toFile: scratch.file("headers"), atomically: true, encoding: .utf8)
        let server = try CommandLineTool.launch([
            "serve", "--port", "0", "--cache-dir", cache.path, "--log-level", "error",
            "--origin-header", "127.0.0.1: Authorization: \(Self.token)", "--origin-header", "@" + scratch.file("headers"),
            "--forward-header", "X-Player", "--store-no-store",
        ], outputFile: scratch.file("stdout"))
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await waitUntil("serve listens") { Self.listeningPort(scratch.file("stdout")) != nil || !server.isRunning }
            let port = try #require(Self.listeningPort(scratch.file("stdout")), "serve did not start")
            let url = "http://127.0.0.1:\(port)/proxy?url=" + percentEncoded(origin.url("/locked.bin"))
            #expect(try await Self.get(client, url).status == 403, "without the player's field the origin refuses")
            let played = try await Self.get(client, url, headers: [("X-Player", "p1")])
            #expect(played.status == 200)
            #expect(played.body == TestBytes(seed: 71).bytes(0, 40_000))
            let granted = try #require(origin.requests(for: "/locked.bin").last)
            #expect(granted.fields["authorization"] == Self.token && granted.fields["cookie"] == Self.cookie)
            #expect(try await Self.get(client, "http://127.0.0.1:\(port)/proxy?url=" + percentEncoded(origin.url("/no-store.bin"))).status == 200)
            kill(server.processIdentifier, SIGTERM)
            try await waitUntil("serve exits") { !server.isRunning }
        } catch {
            if server.isRunning { kill(server.processIdentifier, SIGKILL) }
            try? await client.shutdown()
            await origin.stop()
            throw error
        }
        try? await client.shutdown()
        await origin.stop()
        let store = try CacheStore.open(at: cache.path, readOnly: true)
        #expect(Set(store.entries.map(\.key)) == [store.key(for: origin.url("/locked.bin")), store.key(for: origin.url("/no-store.bin"))],
                "--store-no-store kept the no-store answer")
    }

    @Test("fetch --header sends its fields (one given, one from @FILE) with every request of the download")
    func fetchHeaders() async throws {
        let origin = try await TestOrigin.start()
        let paths = Self.publishLocked("f", on: origin, fields: ["authorization": Self.token, "cookie": Self.cookie])
        let cache = TemporaryDirectory("fetch-credentials")
        let scratch = TemporaryDirectory("fetch-credentials-output")
        try "Cookie: \(Self.cookie)\n".write(toFile: scratch.file("headers"), atomically: true, encoding: .utf8)
        let fetcher = try CommandLineTool.launch([
            "fetch", origin.url("/f/master.m3u8"), "--variant", "lowest", "--cache-dir", cache.path,
            "--header", "Authorization: \(Self.token)", "--header", "@" + scratch.file("headers"),
        ], outputFile: scratch.file("stdout"))
        do {
            try await waitUntil("fetch ends", timeout: .seconds(60)) { !fetcher.isRunning }
        } catch {
            if fetcher.isRunning { kill(fetcher.processIdentifier, SIGKILL) }
            await origin.stop()
            throw error
        }
        await origin.stop()
        #expect(fetcher.terminationStatus == 0)
        let output = (try? String(contentsOfFile: scratch.file("stdout"), encoding: .utf8)) ?? ""
        #expect(!output.contains("sources-token") && !output.contains("sources-cookie"))
        let requests = origin.requests
        #expect(requests.contains { $0.path == "/f/low/s1.ts" })
        #expect(requests.allSatisfy { $0.fields["authorization"] == Self.token && $0.fields["cookie"] == Self.cookie })
        let store = try CacheStore.open(at: cache.path, readOnly: true)
        #expect(store.entry(for: store.key(for: origin.url(paths[2])))?.cachedBytes == 20_000, "\(paths[2]) stored whole")
    }
}
