import CacheProxyParsing
import Synchronization

/// The prefetch queue: the heads of the next videos of a feed, warmed in feed order, two at a
/// time, on the segment lane.
///
/// A new list replaces the old one (the user scrolled): videos no longer listed are dropped
/// from the queue; a dropped job in flight finishes the resource it is fetching and starts
/// nothing more (the video dropped is usually the one swiped to, whose player asks for that
/// very resource a moment later; a player's start cuts it anyway when nobody follows it);
/// videos in both lists keep their progress.
final class PrefetchScheduler: Sendable {
    private struct Entry {
        var job: PrefetchJob
        var state: PrefetchStatus.Job.State
        var detail: String?
        var task: Task<Void, Never>?
        var bytes: UInt64 = 0
    }

    private struct Queue {
        var entries: [Entry] = []
        /// Dropped jobs finishing the resource in flight, by job.
        var leaving: [ObjectIdentifier: Task<Void, Never>] = [:]
        var isClosed = false
    }

    private let queue = Mutex(Queue())
    /// Videos warmed at once; the rest of the segment lane stays free for players.
    let concurrency: Int
    private static let reportedJobs = 200

    init(concurrency: Int = 2) {
        self.concurrency = max(1, concurrency)
    }

    /// Replaces the queue with `request`'s videos and starts warming them through `environment`.
    @discardableResult
    func replace(with request: PrefetchRequest, environment: FetchEnvironment) -> PrefetchStatus {
        queue.withLock { queue in
            guard !queue.isClosed else { return }
            let previous = queue.entries
            var kept: [String: Entry] = [:]
            for entry in previous { kept[entry.job.origin.string] = entry }
            queue.entries = zip(request.urls, request.headers).map { url, headers in
                // A job asked with other fields starts over: they may give other bytes.
                if let entry = kept.removeValue(forKey: url.string), entry.job.headers == headers { return entry }
                return Entry(job: PrefetchJob(environment: environment, origin: url, budget: request.budget, variant: request.variant, headers: headers),
                             state: .queued)
            }
            for (position, entry) in queue.entries.enumerated() { entry.job.rank.set(position) }
            let staying = Set(queue.entries.map { ObjectIdentifier($0.job) })
            for entry in previous where entry.state == .running && !staying.contains(ObjectIdentifier(entry.job)) {
                guard let task = entry.task else { continue }
                entry.job.stopAfterCurrentResource()
                queue.leaving[ObjectIdentifier(entry.job)] = task
            }
        }
        // The fetches in flight go by the new places at once: the job now first must not share
        // the link with the one behind it because its fetch began while it was second.
        environment.upstream.scheduler.ranksChanged()
        startWaitingJobs()
        return status
    }

    /// Cancels every job: queued ones are dropped, running ones cut.
    @discardableResult
    func cancelAll() -> PrefetchStatus {
        let tasks = queue.withLock { queue -> [Task<Void, Never>] in
            let tasks = queue.entries.compactMap { $0.state == .running ? $0.task : nil } + queue.leaving.values
            queue.entries.removeAll()
            queue.leaving.removeAll()
            return tasks
        }
        for task in tasks { task.cancel() }
        return status
    }

    /// Stops for good: cancels everything, waits for the jobs in flight to end, and lets go of
    /// them (each job holds the fetch environment, which the proxy's context holds beside this queue).
    func shutdown() async {
        let tasks = queue.withLock { queue -> [Task<Void, Never>] in
            queue.isClosed = true
            defer {
                queue.entries.removeAll()
                queue.leaving.removeAll()
            }
            return queue.entries.compactMap(\.task) + queue.leaving.values
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    var status: PrefetchStatus {
        queue.withLock { queue in
            let jobs = queue.entries.map { entry in
                PrefetchStatus.Job(
                    state: entry.state, url: entry.job.origin.string,
                    bytesFetched: entry.state == .running ? entry.job.spent.load(ordering: .relaxed) : entry.bytes,
                    budget: Self.describe(entry.job.budget), detail: entry.detail)
            }
            return PrefetchStatus(
                queued: queue.entries.count { $0.state == .queued },
                running: queue.entries.count { $0.state == .running },
                finished: queue.entries.count { $0.state.isFinished },
                bytesFetched: jobs.reduce(0) { $0 + $1.bytesFetched },
                jobs: Array(jobs.prefix(Self.reportedJobs)))
        }
    }

    private func startWaitingJobs() {
        queue.withLock { queue in
            guard !queue.isClosed else { return }
            var running = queue.entries.count { $0.state == .running }
            for index in queue.entries.indices where running < concurrency && queue.entries[index].state == .queued {
                let job = queue.entries[index].job
                queue.entries[index].state = .running
                queue.entries[index].task = Task { [weak self] in
                    let outcome = await Self.outcome(of: job)
                    self?.finish(job, outcome)
                }
                running += 1
            }
        }
    }

    private static func outcome(of job: PrefetchJob) async -> (PrefetchStatus.Job.State, String?) {
        do {
            return (.done, try await job.run())
        } catch let stop as PrefetchStop {
            switch stop.reason {
            case .budgetSpent: return (.done, nil)
            case .storeNearLimit: return (.stopped, "the cache is near its size limit")
            }
        } catch is CancellationError {
            return (.cancelled, nil)
        } catch {
            return (Task.isCancelled ? .cancelled : .failed, "\(error)")
        }
    }

    private func finish(_ job: PrefetchJob, _ outcome: (PrefetchStatus.Job.State, String?)) {
        queue.withLock { queue in
            queue.leaving[ObjectIdentifier(job)] = nil
            guard let index = queue.entries.firstIndex(where: { $0.job === job }) else { return }
            queue.entries[index].state = outcome.0
            queue.entries[index].detail = outcome.1
            queue.entries[index].bytes = job.spent.load(ordering: .relaxed)
            queue.entries[index].task = nil
        }
        startWaitingJobs()
    }

    private static func describe(_ budget: PrefetchRequest.Budget) -> String {
        switch budget {
        case .seconds(let seconds): "\(seconds) seconds"
        case .segments(let segments): "\(segments) segments"
        case .bytes(let bytes): "\(bytes) bytes"
        }
    }
}
