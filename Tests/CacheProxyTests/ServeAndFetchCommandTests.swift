import AsyncHTTPClient
import CacheStore
import Foundation
import SparseFile
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `sparsecache serve` and `sparsecache fetch` as processes, against the test origin: what they
/// leave on disk when stopped by a signal.
@Suite("The serve and fetch commands, stopped by signals", .timeLimit(.minutes(2)))
struct ServeAndFetchCommandTests {
    /// The port a `serve` prints in its `listening on` line, once it has.
    private static func listeningPort(_ outputFile: String) -> Int? {
        guard let text = try? String(contentsOfFile: outputFile, encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on http://127.0.0.1:") }) else { return nil }
        return Int(line.split(separator: ":").last ?? "")
    }

    /// Bytes of every entry file under `directory` that a fresh open of the file sees.
    private static func committedBytes(under directory: String) -> UInt64 {
        let entries = directory + "/entries"
        let names = FileManager.default.enumerator(atPath: entries)?.compactMap { $0 as? String } ?? []
        return names.filter { $0.hasSuffix(".scf") }.reduce(0) { total, name in
            total + ((try? SparseFile.open(at: entries + "/" + name))?.cachedByteCount ?? 0)
        }
    }

    private static func waitForExit(_ process: ChildProcess) async throws {
        try await waitUntil("the process exits") { !process.isRunning }
    }

    @Test("serve saves the store's index when stopped with SIGTERM")
    func serveSavesTheIndexOnSIGTERM() async throws {
        let origin = try await TestOrigin.start()
        let body = TestBytes(seed: 91).bytes(0, 300_000)
        origin.set("/a.ts", .init(body))
        let cache = TemporaryDirectory("serve-cache")
        let scratch = TemporaryDirectory("serve-output")
        let server = try CommandLineTool.launch(
            ["serve", "--port", "0", "--cache-dir", cache.path, "--log-level", "error"], outputFile: scratch.file("stdout"))
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await waitUntil("serve listens") { Self.listeningPort(scratch.file("stdout")) != nil || !server.isRunning }
            let port = try #require(Self.listeningPort(scratch.file("stdout")), "serve did not start")
            let request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/proxy?url=" + percentEncoded(origin.url("/a.ts")))
            let response = try await client.execute(request, timeout: .seconds(30))
            #expect(response.status == .ok)
            let received = try await response.body.collect(upTo: 1 << 20)
            #expect(sameBytes(received.readableBytesView, body))
            kill(server.processIdentifier, SIGTERM)
            try await Self.waitForExit(server)
            #expect(server.terminationStatus == 0)
        } catch {
            if server.isRunning { kill(server.processIdentifier, SIGKILL) }
            try? await client.shutdown()
            await origin.stop()
            throw error
        }
        try await client.shutdown()
        await origin.stop()
        // The index saved at the start knew nothing; the one saved on SIGTERM knows the entry,
        // so opening the store reads no header.
        let store = try CacheStore.open(at: cache.path, readOnly: true)
        #expect(store.openReport.rebuiltFromHeaders == 0)
        #expect(store.entries.map(\.key) == [store.key(for: origin.url("/a.ts"))])
        #expect(store.entries.first?.cachedBytes == UInt64(body.count))
    }

    /// An origin serving 3,000,000 bytes at `/big.bin` that sends the first `held` and then waits
    /// for `gate`.
    private static func heldOrigin(seed: UInt64, held: Int, gate: TestGate) async throws -> (TestOrigin, [UInt8]) {
        let origin = try await TestOrigin.start()
        let body = TestBytes(seed: seed).bytes(0, 3_000_000)
        origin.set("/big.bin", .init(body, contentType: "application/octet-stream",
                                     faults: .init(chunkSize: 64 * 1024, pauseAfter: held, gate: gate)))
        return (origin, body)
    }

    @Test("fetch commits every 256 KiB: killed outright, it keeps all but the last 256 KiB it received")
    func fetchCommitsEvery256KiB() async throws {
        let gate = TestGate()
        let held = 1_000_000
        let (origin, body) = try await Self.heldOrigin(seed: 92, held: held, gate: gate)
        let cache = TemporaryDirectory("fetch-cache")
        let fetcher = try CommandLineTool.launch(["fetch", origin.url("/big.bin"), "--cache-dir", cache.path])
        let floor = UInt64(held - 256 * 1024)
        do {
            try await waitUntil("the origin has sent \(held) bytes and holds the rest") { gate.arrivals == 1 || !fetcher.isRunning }
            #expect(fetcher.isRunning)
            // Sooner than the fetch's 15 s read timeout, whose failure would commit everything.
            try await waitUntil("at least \(floor) bytes are committed on disk", timeout: .seconds(10)) {
                Self.committedBytes(under: cache.path) >= floor || !fetcher.isRunning
            }
        } catch {
            if fetcher.isRunning { kill(fetcher.processIdentifier, SIGKILL) }
            gate.open()
            await origin.stop()
            throw error
        }
        kill(fetcher.processIdentifier, SIGKILL)
        try await Self.waitForExit(fetcher)
        gate.open()
        await origin.stop()
        #expect(fetcher.terminationReason == .uncaughtSignal)
        let kept = Self.committedBytes(under: cache.path)
        #expect(kept >= floor && kept <= UInt64(held), "\(kept) bytes kept")
        let store = try CacheStore.open(at: cache.path, readOnly: true)
        let file = try #require(store.reader(for: store.key(for: origin.url("/big.bin"))).file)
        let range = try #require(ByteRange(offset: 0, length: kept))
        guard case .bytes(let bytes) = try file.read(range) else {
            Issue.record("the kept bytes do not read back")
            return
        }
        #expect(sameBytes(bytes, body[0..<Int(kept)]))
    }

    @Test("fetch stopped by SIGTERM commits what it fetched, says to run it again, exits 1; run again, it resumes from there")
    func fetchStopsOnSIGTERMAndResumes() async throws {
        let gate = TestGate()
        let held = 1_000_000
        let (origin, body) = try await Self.heldOrigin(seed: 93, held: held, gate: gate)
        let cache = TemporaryDirectory("fetch-sigterm")
        let scratch = TemporaryDirectory("fetch-sigterm-output")
        let fetcher = ChildProcess()
        fetcher.executableURL = CommandLineTool.executable
        fetcher.arguments = ["fetch", origin.url("/big.bin"), "--cache-dir", cache.path]
        _ = FileManager.default.createFile(atPath: scratch.file("stderr"), contents: nil)
        fetcher.standardError = FileHandle(forWritingAtPath: scratch.file("stderr"))
        fetcher.standardOutput = FileHandle.nullDevice
        try fetcher.run()
        let floor = UInt64(held - 256 * 1024)
        do {
            try await waitUntil("the origin holds the rest") { gate.arrivals == 1 || !fetcher.isRunning }
            try await waitUntil("at least \(floor) bytes are committed", timeout: .seconds(10)) {
                Self.committedBytes(under: cache.path) >= floor || !fetcher.isRunning
            }
            #expect(fetcher.isRunning)
        } catch {
            if fetcher.isRunning { kill(fetcher.processIdentifier, SIGKILL) }
            gate.open()
            await origin.stop()
            throw error
        }
        kill(fetcher.processIdentifier, SIGTERM)
        try await Self.waitForExit(fetcher)
        #expect(fetcher.terminationReason == .exit && fetcher.terminationStatus == 1)
        let message = try String(contentsOfFile: scratch.file("stderr"), encoding: .utf8)
        #expect(message.contains("stopped by signal \(SIGTERM); run again to resume"), "\(message)")
        let kept = Self.committedBytes(under: cache.path)
        #expect(kept >= floor && kept <= UInt64(held), "\(kept) bytes kept")
        // Run again: it asks the origin only for what it does not have, and finishes.
        gate.open()
        origin.resetLog()
        let again = try CommandLineTool.run(["fetch", origin.url("/big.bin"), "--cache-dir", cache.path])
        await origin.stop()
        #expect(again.status == 0, "\(again.standardError)")
        let ranges = origin.requests(for: "/big.bin").compactMap(\.range)
        #expect(ranges == ["bytes=\(kept)-\(body.count - 1)"], "\(ranges)")
        #expect(Self.committedBytes(under: cache.path) == UInt64(body.count))
    }
}
