import CacheProxyParsing
import Synchronization

/// The downloads a running proxy makes for apps (`POST /downloads`): whole presentations fetched
/// into the cache exactly as `sparsecache fetch` does, a few at a time, their fetches on the
/// segment lane so that players' express lane never waits. A cancelled download keeps what it
/// stored; running it again fetches only the rest.
final class DownloadManager: Sendable {
    private struct Entry {
        var id: String
        var request: DownloadRequest
        var state: DownloadStatus.State = .queued
        var progress: DownloadProgress?
        var error: String?
        var task: Task<Void, Never>?
    }

    private struct Downloads {
        var entries: [Entry] = []
        var nextID = 0
        var isClosed = false
    }

    /// Downloads running at once; each runs a few fetches itself.
    let concurrency: Int
    /// Finished downloads remembered, newest last.
    static let finishedKept = 100
    private let downloads = Mutex(Downloads())

    init(concurrency: Int = 2) {
        self.concurrency = max(1, concurrency)
    }

    /// Queues `request` and starts it when a place is free; nil once the proxy is stopping.
    func start(_ request: DownloadRequest, environment: FetchEnvironment) -> DownloadStatus? {
        let id = downloads.withLock { downloads -> String? in
            guard !downloads.isClosed else { return nil }
            downloads.nextID += 1
            let id = "d\(downloads.nextID)"
            downloads.entries.append(Entry(id: id, request: request))
            let finished = downloads.entries.indices.filter { downloads.entries[$0].state.isFinished }
            if finished.count > Self.finishedKept, let oldest = finished.first { downloads.entries.remove(at: oldest) }
            return id
        }
        guard let id else { return nil }
        startWaiting(environment: environment)
        return status(id)
    }

    /// Cancels a download (what it stored stays); nil for an unknown ID.
    func cancel(_ id: String) -> DownloadStatus? {
        let task = downloads.withLock { downloads -> Task<Void, Never>?? in
            guard let index = downloads.entries.firstIndex(where: { $0.id == id }) else { return .none }
            let entry = downloads.entries[index]
            if !entry.state.isFinished { downloads.entries[index].state = .cancelled }
            return .some(entry.task)
        }
        guard case .some(let running) = task else { return nil }
        running?.cancel()
        return status(id)
    }

    func status(_ id: String) -> DownloadStatus? {
        downloads.withLock { $0.entries.first { $0.id == id }.map(Self.status) }
    }

    var all: [DownloadStatus] {
        downloads.withLock { $0.entries.map(Self.status) }
    }

    /// Stops for good: cancels every download, waits for them, and lets go of them.
    func shutdown() async {
        let tasks = downloads.withLock { downloads -> [Task<Void, Never>] in
            downloads.isClosed = true
            defer { downloads.entries.removeAll() }
            return downloads.entries.compactMap(\.task)
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    private func startWaiting(environment: FetchEnvironment) {
        downloads.withLock { downloads in
            guard !downloads.isClosed else { return }
            var running = downloads.entries.count { $0.state == .running }
            for index in downloads.entries.indices where running < concurrency && downloads.entries[index].state == .queued {
                let entry = downloads.entries[index]
                downloads.entries[index].state = .running
                downloads.entries[index].progress = DownloadProgress(
                    resourcesDone: 0, resourcesTotal: 0, segmentsDone: 0, segmentsTotal: 0, bytesFetched: 0, elapsedSeconds: 0)
                // The task holds the environment only while it runs: a stopped proxy's downloads are
                // awaited and dropped by shutdown(), so nothing keeps the environment alive after it.
                downloads.entries[index].task = Task { [weak self, weak environment] in
                    guard let self, let environment else { return }
                    let run = DownloadRun(environment: environment, options: Self.options(for: entry.request)) { progress in
                        self.record(progress, for: entry.id)
                    }
                    let outcome: (DownloadStatus.State, String?)
                    do {
                        _ = try await run.download(entry.request.url)
                        outcome = (.done, nil)
                    } catch is CancellationError {
                        outcome = (.cancelled, nil)
                    } catch {
                        outcome = Task.isCancelled ? (.cancelled, nil) : (.failed, "\(error)")
                    }
                    self.finish(entry.id, outcome, environment: environment)
                }
                running += 1
            }
        }
    }

    private static func options(for request: DownloadRequest) -> OfflineDownloader.Options {
        var options = OfflineDownloader.Options()
        options.variant = request.variant
        options.allVariants = request.allVariants
        options.pin = request.pin
        options.headers = request.headers
        return options
    }

    private func record(_ progress: DownloadProgress, for id: String) {
        downloads.withLock { downloads in
            guard let index = downloads.entries.firstIndex(where: { $0.id == id }) else { return }
            downloads.entries[index].progress = progress
        }
    }

    private func finish(_ id: String, _ outcome: (DownloadStatus.State, String?), environment: FetchEnvironment) {
        downloads.withLock { downloads in
            guard let index = downloads.entries.firstIndex(where: { $0.id == id }) else { return }
            if downloads.entries[index].state != .cancelled { downloads.entries[index].state = outcome.0 }
            downloads.entries[index].error = outcome.1
            downloads.entries[index].task = nil
        }
        startWaiting(environment: environment)
    }

    private static func status(_ entry: Entry) -> DownloadStatus {
        let progress = entry.progress
        return DownloadStatus(
            id: entry.id, url: entry.request.url.string, state: entry.state, resources: progress?.resourcesTotal ?? 0,
            resourcesDone: progress?.resourcesDone ?? 0, segments: progress?.segmentsTotal ?? 0, segmentsDone: progress?.segmentsDone ?? 0,
            bytes: progress?.bytesFetched ?? 0, elapsedSeconds: progress?.elapsedSeconds ?? 0, error: entry.error)
    }
}
