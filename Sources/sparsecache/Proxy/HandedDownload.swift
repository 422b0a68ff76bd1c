import CacheProxy
import CacheProxyServer
import CacheProxyParsing
import CacheStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `sparsecache fetch` on a cache directory a running proxy holds: the download is handed to that
/// proxy (`POST /downloads` at the address it recorded beside the store) and followed, with the
/// same progress display, messages and exit codes as a download made here.
struct HandedDownload {
    let directory: String
    let request: DownloadRequest
    /// The proxy's control token (`serve --control-token`), when it has one.
    let controlToken: String?
    /// How often the proxy is asked how far the download came.
    static let pollInterval: Duration = .milliseconds(200)

    func run() async throws {
        guard let holder = CacheStore.holder(of: directory) else {
            throw CommandFailure(code: .failure, message: "\(directory) was busy and is free now: run the command again")
        }
        guard let address = holder.controlAddress else {
            let process = holder.processIdentifier.map { "process \($0)" } ?? "another process"
            throw CommandFailure(code: .failure, message: "\(directory) is in use by \(process), which takes no downloads: wait for it to finish, or use another --cache-dir")
        }
        let client = ProxyDownloadClient(baseURL: address, controlToken: controlToken)
        let display = ProgressDisplay()
        let started: DownloadStatus
        do {
            started = try await client.start(request)
        } catch {
            throw CommandFailure(code: .failure, message: error.message)
        }
        writeToStandardError("sparsecache: the proxy at \(address) holds \(directory); it downloads \(request.url) (download \(started.id))\n")
        let outcome = await withTaskGroup(of: Result<DownloadStatus, CommandFailure>.self) { group in
            group.addTask { await follow(started.id, client: client, display: display) }
            group.addTask {
                // SIGINT or SIGTERM cancels the download in the proxy; what it stored stays.
                guard let signal = await SignalWaiter.wait(for: [SIGINT, SIGTERM]) else { return .failure(CommandFailure(code: .failure, message: "cancelled")) }
                _ = try? await client.cancel(started.id)
                return .failure(CommandFailure(code: .failure, message: "stopped by signal \(signal); run again to resume"))
            }
            let first = await group.next() ?? .failure(CommandFailure(code: .failure, message: "cancelled"))
            group.cancelAll()
            return first
        }
        display.finish()
        let done = try outcome.get()
        writeToStandardOutput("fetched \(request.url): \(CountText.text(done.resourcesDone, "resource")), \(CountText.text(done.segmentsDone, "segment")), \(CountText.text(done.bytes, "byte")) from the origin\(request.pin ? ", pinned" : "") (through the proxy at \(address))\n")
    }

    /// Polls the download until it ends, showing its progress.
    private func follow(_ id: String, client: ProxyDownloadClient, display: ProgressDisplay) async -> Result<DownloadStatus, CommandFailure> {
        while !Task.isCancelled {
            let status: DownloadStatus
            do {
                status = try await client.status(id)
            } catch {
                return .failure(CommandFailure(code: .failure, message: "\(error.message); what it stored stays, run again to resume"))
            }
            display.show(status.progress)
            switch status.state {
            case .done: return .success(status)
            case .failed: return .failure(CommandFailure(code: .failure, message: status.error ?? "\(request.url) could not be downloaded"))
            case .cancelled: return .failure(CommandFailure(code: .failure, message: "the download was cancelled in the proxy; run again to resume"))
            default: try? await Task.sleep(for: Self.pollInterval)
            }
        }
        return .failure(CommandFailure(code: .failure, message: "cancelled"))
    }
}
