import CacheStore
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The rough edges of issue 37 a newcomer hits in the second hour: `--version`, `url` finding
/// the running proxy, `evict --to` held above its target by pins, sizes in bits or negative or
/// beyond the disk, a cache folder that cannot be written, `ls` columns, singular counts.
@Suite("The command line's rough edges", .timeLimit(.minutes(2)))
struct RoughEdgeTests {
    let directory = TemporaryDirectory("rough-edges")
    var store: String { directory.file("store") }

    @Test("--version prints the version and exits 0")
    func version() throws {
        let result = try CommandLineTool.run(["--version"])
        #expect(result.status == 0)
        #expect(result.outputText == "sparsecache 1.0\n")
    }

    @Test("url, without --port or --host, prints the URL of the proxy running on the cache directory")
    func urlFindsTheRunningProxy() async throws {
        let origin = "https://cdn.example.com/show/master.m3u8"
        let idle = try CommandLineTool.run(["url", origin, "--cache-dir", store])
        #expect(idle.outputText == "http://127.0.0.1:9000/proxy?url=https%3A%2F%2Fcdn.example.com%2Fshow%2Fmaster.m3u8\n", "none runs: 9000")
        let server = try ServeProcess(["--cache-dir", store], in: directory)
        defer { server.stop() }
        let port = try await server.port()
        let running = try CommandLineTool.run(["url", origin, "--cache-dir", store])
        #expect(running.status == 0)
        #expect(running.outputText == "http://127.0.0.1:\(port)/proxy?url=https%3A%2F%2Fcdn.example.com%2Fshow%2Fmaster.m3u8\n")
        let explicit = try CommandLineTool.run(["url", origin, "--cache-dir", store, "--port", "9100"])
        #expect(explicit.outputText.hasPrefix("http://127.0.0.1:9100/proxy?url="), "--port wins")
    }

    @Test("evict --to says when pinned entries keep the store above the target, and exits 1")
    func evictHeldUpByPins() throws {
        let bytes = Data(TestBytes(seed: 5).bytes(0, 50_000))
        for key in ["a", "b", "c"] {
            #expect(try CommandLineTool.run(["put", store, key, "--offset", "0"], input: bytes).status == 0)
        }
        #expect(try CommandLineTool.run(["pin", store, "b"]).status == 0)
        let result = try CommandLineTool.run(["evict", store, "--to", "0"])
        #expect(result.status == 1)
        #expect(result.outputText.hasPrefix("evicted 2 entries"))
        #expect(result.standardError.contains("above 0 B: 1 pinned entry keeps"), "\(result.standardError)")
        #expect(result.standardError.contains("sparsecache unpin KEY"))
        #expect(try CommandLineTool.run(["evict", store, "--to", "1MiB"]).status == 0, "a target the pins fit under is met")
    }

    @Test("A size in bits is refused with the byte spellings", arguments: ["2Gb", "500Mb", "1Gbit", "3Gib"])
    func bits(size: String) throws {
        let result = try CommandLineTool.run(["create", store, "--max-size", size])
        #expect(result.status == 2)
        #expect(result.standardError.contains("reads as bits"), "\(size): \(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: store + "/entries"))
    }

    @Test("A negative size says negative", arguments: [["--max-size=-5G"], ["--max-size", "-5G"]])
    func negative(option: [String]) throws {
        let result = try CommandLineTool.run(["create", store] + option)
        #expect(result.status == 2)
        #expect(result.standardError.contains("cannot be negative"), "\(option): \(result.standardError)")
    }

    @Test("A limit above the volume's free space is taken with a warning")
    func aboveTheFreeSpace() throws {
        let result = try CommandLineTool.run(["create", store, "--max-size", "1000TiB"])
        #expect(result.status == 0)
        #expect(result.standardError.hasPrefix("sparsecache: warning: --max-size 1000.0 TiB is more than \(store) can hold: its volume has "),
                "\(result.standardError)")
        #expect(result.standardError.hasSuffix("the cache stops growing when the volume runs short of space, before that limit\n"))
        let modest = try CommandLineTool.run(["create", directory.file("modest"), "--max-size", "2MiB"])
        #expect(modest.status == 0 && modest.standardError.isEmpty)
    }

    @Test("serve and fetch on a cache folder this user may not write say so as for a folder that cannot be made",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") || getuid() != 0, "needs setpriv to drop root"),
          arguments: [["serve", "--port", "0"], ["fetch", "http://127.0.0.1:9/a.m3u8"]])
    func unwritableFolder(command: [String]) throws {
        // Root writes anywhere: the command runs as nobody (the folder is root's, mode 755).
        let base = "/tmp/sparsecache-unwritable-\(UUID().uuidString)"
        let folder = base + "/cache"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: base)
        defer { try? FileManager.default.removeItem(atPath: base) }
        if getuid() != 0 { try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder) }
        let arguments = command + ["--cache-dir", folder]
        let result = getuid() == 0 ? try runAsNobody(arguments) : try CommandLineTool.run(arguments).statusAndError
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("sparsecache: cannot use the cache directory \(folder): you may not write in it (owned by "),
                "\(result.standardError)")
        #expect(result.standardError.hasSuffix("; pass a directory you can write with --cache-dir\n"))
        #expect(result.standardError.split(separator: "\n").count == 1)
    }

    /// Runs the tool as the user nobody (setpriv drops root's privileges first).
    func runAsNobody(_ arguments: [String]) throws -> (status: Int32, standardError: String) {
        let errorFile = directory.file("nobody-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=nobody", "--regid=nogroup", "--clear-groups", CommandLineTool.executable.path] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: errorFile)
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? "")
    }

    @Test("serve --control-token: the banner says how to open the dashboard, which opens without a header; the data needs the token")
    func controlTokenDashboard() async throws {
        let server = try ServeProcess(["--cache-dir", store, "--control-token", "s3cret-token"], in: directory)
        defer { server.stop() }
        let lines = try await server.lines()
        let port = try await server.port()
        #expect(lines[2] == "dashboard: http://127.0.0.1:\(port)/#token=TOKEN (TOKEN: the --control-token; the browser never sends what follows #)")
        #expect(!lines.joined().contains("s3cret-token"), "the token itself is not printed")
        let page = try LocalHTTP.get(port: port, path: "/")
        #expect(page.status == 200 && String(decoding: page.body, as: UTF8.self).contains("#token="))
        #expect(try LocalHTTP.get(port: port, path: "/status").status == 401)
        #expect(try LocalHTTP.get(port: port, path: "/?url=x").status == 401, "only the page itself")
        #expect(try LocalHTTP.get(port: port, path: "/status", headers: ["Authorization: Bearer s3cret-token"]).status == 200)
    }

    @Test("ls lines its columns up under the header, whatever the values' widths")
    func listingColumns() throws {
        #expect(try CommandLineTool.run(["put", store, "https://cdn.example/a-rather-long-name/segment-000001.ts", "--offset", "0",
                                         "--total-length", "3145728"], input: Data(TestBytes(seed: 2).bytes(0, 5000))).status == 0)
        #expect(try CommandLineTool.run(["put", store, "k", "--offset", "0"], input: Data(TestBytes(seed: 2).bytes(0, 10))).status == 0)
        #expect(try CommandLineTool.run(["pin", store, "k"]).status == 0)
        for flags in [[], ["--bytes"]] {
            let lines = try CommandLineTool.run(["ls", store] + flags).outputText.split(separator: "\n").map(String.init)
            try #require(lines.count == 3)
            for title in ["LAST ACCESS", "PIN", "EXPIRES", "KEY"] {
                let column = try #require(lines[0].range(of: title)).lowerBound.utf16Offset(in: lines[0])
                for line in lines.dropFirst() {
                    let index = line.index(line.startIndex, offsetBy: column)
                    #expect(line[line.index(before: index)] == " " && line[index] != " ", "\(title) starts at column \(column): \(lines)")
                }
            }
            // Sizes end where their heading ends.
            let end = try #require(lines[0].range(of: "LENGTH")).upperBound.utf16Offset(in: lines[0])
            for line in lines.dropFirst() {
                #expect(line[line.index(line.startIndex, offsetBy: end - 1)] != " ", "\(lines)")
            }
        }
    }

    @Test("fetch of one file says 1 resource, not 1 resources")
    func singularCounts() throws {
        let origin = try LocalHTTPOrigin(files: ["/clip.mp4": TestBytes(seed: 9).bytes(0, 20_000)], contentType: "video/mp4")
        let result = try CommandLineTool.run(["fetch", origin.url("/clip.mp4"), "--cache-dir", store])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputText == "fetched \(origin.url("/clip.mp4")): 1 resource, 0 segments, 20000 bytes from the origin\n")
    }
}

extension CommandLineTool.Result {
    var statusAndError: (status: Int32, standardError: String) { (status, standardError) }
}

/// `sparsecache serve --port 0` started for a test, with its standard output in a file.
final class ServeProcess {
    let process: ChildProcess
    let output: String

    init(_ arguments: [String], in directory: TemporaryDirectory) throws {
        output = directory.file("serve-\(UUID().uuidString).out")
        process = try CommandLineTool.launch(["serve", "--port", "0", "--log-level", "error"] + arguments, outputFile: output)
    }

    /// The lines it printed once it listens (at least four: the address and the banner).
    func lines() async throws -> [String] {
        var lines: [String] = []
        try await waitUntil("serve prints its start-up lines") {
            lines = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            return lines.count >= 4 || !process.isRunning
        }
        try #require(lines.count >= 4, "serve printed: \(lines)")
        return lines
    }

    func port() async throws -> Int {
        let first = try await lines()[0]
        return try #require(first.hasPrefix("listening on http://127.0.0.1:") ? Int(first.split(separator: ":").last ?? "") : nil)
    }

    func stop() {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }
}
