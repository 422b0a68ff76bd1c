import Foundation
import Testing
import TestSupport

/// The writing commands that cannot go through a running proxy (issue 37, item 2): `pin`, `rm`,
/// `clear` and `evict` hand their change to it (StoreControlTests); `put` and `create` have
/// nothing to hand, and say which proxy holds the store and what to do instead of the store's
/// bare "open for writing by another process".
@Suite("put and create beside a running proxy", .timeLimit(.minutes(2)))
struct HeldStoreTests {
    let directory = TemporaryDirectory("held-store")
    var store: String { directory.file("store") }

    @Test("put and create on a store a proxy holds name the proxy, say what to do, exit 1 and change nothing", arguments: [
        (["put", "http://o.example/a.ts", "--offset", "0"], "put changes only a store no process holds: stop the proxy first"),
        (["create", "--max-size", "200MB"], "create changes only a store no process holds: its limit is serve's --max-size; restart it with the new one"),
    ])
    func refusedBesideAProxy(command: [String], advice: String) async throws {
        let server = try ServeProcess(["--cache-dir", store], in: directory)
        defer { server.stop() }
        let port = try await server.port()
        let result = try CommandLineTool.run(command + ["--cache-dir", store], input: Data("bytes".utf8))
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("sparsecache: \(store) is held by the proxy running at http://127.0.0.1:\(port) (pid "),
                "\(result.standardError)")
        #expect(result.standardError.hasSuffix(", and \(advice)\n"), "\(result.standardError)")
        let listed = try CommandLineTool.run(["ls", "--cache-dir", store])
        #expect(!listed.outputText.contains("o.example"), "nothing was put")
        #expect(try CommandLineTool.run(["stats", "--cache-dir", store]).outputText.contains("maxSize: 1.0 GiB"), "the limit is serve's")
    }

    @Test("With no proxy running, put and create work on the same store")
    func workOnAFreeStore() throws {
        #expect(try CommandLineTool.run(["create", "--max-size", "200MB", "--cache-dir", store]).status == 0)
        let put = try CommandLineTool.run(["put", "http://o.example/a.ts", "--offset", "0", "--total-length", "5", "--cache-dir", store], input: Data("bytes".utf8))
        #expect(put.status == 0, "\(put.standardError)")
        #expect(try CommandLineTool.run(["get", "http://o.example/a.ts", "--cache-dir", store]).outputText == "bytes")
    }
}
