import CacheStore
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What `serve` and `fetch` say when something goes wrong: one line, what went wrong in the
/// user's words, the value involved and what to do; never a Swift type name, a source path, a
/// system call or a doubled prefix.
@Suite("serve and fetch: one-line messages a newcomer can act on", .timeLimit(.minutes(1)))
struct MessageTests {
    let directory = TemporaryDirectory("messages")

    /// The one line on standard error, checked against the rule every message follows.
    func oneLine(_ result: CommandLineTool.Result, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let lines = result.standardError.split(separator: "\n")
        try #require(lines.count == 1, "one line: \(result.standardError)", sourceLocation: sourceLocation)
        let line = String(lines[0])
        #expect(line.hasPrefix("sparsecache: ") && !line.hasPrefix("sparsecache: sparsecache:"), sourceLocation: sourceLocation)
        for word in ["Error(", "errno", ".swift", "bind(", "(error set)", "NIO", "IOError", "CodingKeys", "circuit breaker"] {
            #expect(!line.contains(word), "\(word) in \(line)", sourceLocation: sourceLocation)
        }
        return line
    }

    @Test("A port in use is named, with --port as the way out, and no store directory is left behind")
    func portInUse() throws {
        let holder = try ListeningSocket()
        let cache = directory.file("new-cache")
        let result = try CommandLineTool.run(["serve", "--port", "\(holder.port)", "--cache-dir", cache])
        #expect(result.status == 1)
        let line = try oneLine(result)
        #expect(line.contains("port \(holder.port) on 127.0.0.1 is in use"))
        #expect(line.contains("--port"))
        #expect(!FileManager.default.fileExists(atPath: cache), "the failed start removed the directory it made")
    }

    @Test("A cache directory that cannot be made says why and names --cache-dir", arguments: [["serve", "--port", "0"], ["fetch", "http://127.0.0.1:9/a.m3u8"]])
    func cacheDirectoryThatCannotBeMade(command: [String]) throws {
        let result = try CommandLineTool.run(command + ["--cache-dir", "/proc/sparsecache-test"])
        #expect(result.status == 1)
        let line = try oneLine(result)
        #expect(line == "sparsecache: cannot create the cache directory /proc/sparsecache-test: /proc does not take new directories; "
            + "pass a directory you can write with --cache-dir")
    }

    @Test("fetch of a host name that does not resolve says so once, with the URL once")
    func unresolvableHost() throws {
        let url = "http://sparsecache-test.invalid/show/master.m3u8"
        let result = try CommandLineTool.run(["fetch", url, "--cache-dir", directory.file("cache")])
        #expect(result.status == 1)
        let line = try oneLine(result)
        #expect(line == "sparsecache: cannot fetch \(url): the host name sparsecache-test.invalid does not resolve "
            + "(check the URL, or this machine's DNS)")
    }

    @Test("fetch from a port nothing listens on says the connection was refused")
    func refusedPort() throws {
        let port = try ListeningSocket().port  // closed again at once: nothing listens there
        let url = "http://127.0.0.1:\(port)/a.m3u8"
        let result = try CommandLineTool.run(["fetch", url, "--cache-dir", directory.file("cache"), "--attempts", "1"])
        #expect(result.status == 1)
        let line = try oneLine(result)
        #expect(line == "sparsecache: cannot fetch \(url): 127.0.0.1 refused the connection on port \(port) (is the origin server running?)")
    }

    @Test("fetch into a store another process (not a proxy) writes says what to do")
    func storeHeldByAnotherProcess() throws {
        let cache = directory.file("held")
        let holder = try CacheStore.open(at: cache)
        defer { try? holder.close() }
        let result = try CommandLineTool.run(["fetch", "http://127.0.0.1:9/a.m3u8", "--cache-dir", cache])
        #expect(result.status == 1)
        let line = try oneLine(result)
        #expect(line == "sparsecache: \(cache) is in use by process \(getpid()), which takes no downloads: "
            + "wait for it to finish, or use another --cache-dir")
    }

    @Test("serve prints where it listens, its cache and limit, the dashboard and a URL to play; stats says where live counters are")
    func startUpLines() async throws {
        let cache = directory.file("cache")
        let output = directory.file("stdout")
        let server = try CommandLineTool.launch(
            ["serve", "--port", "0", "--cache-dir", cache, "--max-size", "3GiB", "--log-level", "error"], outputFile: output)
        defer {
            kill(server.processIdentifier, SIGTERM)
            server.waitUntilExit()
        }
        var lines: [String] = []
        try await waitUntil("serve prints its start-up lines") {
            lines = (try String(contentsOfFile: output, encoding: .utf8)).split(separator: "\n").map(String.init)
            return lines.count >= 4 || !server.isRunning
        }
        try #require(lines.count >= 4, "serve printed: \(lines)")
        let port = try #require(lines[0].hasPrefix("listening on http://127.0.0.1:") ? Int(lines[0].split(separator: ":").last ?? "") : nil)
        #expect(lines[1] == "cache: \(cache), limit 3.0 GiB (0 entries, 0 B used)")
        #expect(lines[2] == "dashboard: http://127.0.0.1:\(port)/")
        #expect(lines[3].hasPrefix("play a URL through it: http://127.0.0.1:\(port)/proxy?url=https%3A%2F%2Fcdn.example.com%2Fvideo%2Fmaster.m3u8"))
        #expect(lines[3].contains("sparsecache url --port \(port) URL"))
        let stats = try CommandLineTool.run(["stats", "--cache-dir", cache]).outputText
        #expect(stats.contains("these counters are as it last saved them, about once a minute; live ones are at http://127.0.0.1:\(port)/status"))
    }
}

/// A TCP socket listening on 127.0.0.1 at a port the system picked, closed when released.
final class ListeningSocket {
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && listen(descriptor, 1) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard descriptor >= 0, bound else {
            // `port` is not set, so `deinit` does not run: the descriptor is closed here.
            if descriptor >= 0 { close(descriptor) }
            throw POSIXError(.EADDRNOTAVAIL)
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
