import CacheProxy
import CacheProxyServer
import CacheStore
import Dispatch
import Synchronization

/// A store command that writes (`pin`, `unpin`, `rm`, `clear`, `evict`) on a directory a running
/// proxy holds. A store has one writer, so, as `fetch` does, the change is handed to that proxy
/// (its control routes, at the address it recorded beside the store) with the same output,
/// messages and exit codes as a change made here.
struct HandedStoreChange {
    let directory: String
    let address: String
    private let client: ProxyStoreClient

    /// The running proxy that holds `directory`, or nil when no process that takes work holds
    /// it (the command then opens the store itself, and says when another process has it).
    init?(directory: String, controlToken: String?) {
        guard let holder = CacheStore.holder(of: directory), let address = holder.controlAddress else { return nil }
        self.directory = directory
        self.address = address
        client = ProxyStoreClient(baseURL: address, controlToken: controlToken)
    }

    func setPinned(_ pinned: Bool, key: String) throws(CommandFailure) {
        try perform(key: key) { client throws(CacheProxyError) in try await client.setPinned(pinned, url: key) }
    }

    func remove(key: String) throws(CommandFailure) {
        _ = try perform(key: key) { client throws(CacheProxyError) in try await client.remove(url: key) }
    }

    func clear() throws(CommandFailure) -> StoreRemoval {
        try perform { client throws(CacheProxyError) in try await client.clear() }
    }

    func evict(toSize size: UInt64) throws(CommandFailure) -> StoreRemoval {
        try perform { client throws(CacheProxyError) in try await client.evict(toSize: size) }
    }

    /// `evict` through the proxy: the line it prints here, and exit 1 when pinned entries keep
    /// the store above the target.
    func evictReporting(toSize size: UInt64) throws(CommandFailure) {
        let removal = try evict(toSize: size)
        writeToStandardOutput("evicted \(removal.removed) entries, freed \(removal.freedBytes) bytes\n")
        if let left = EvictionShortfall(removal, target: size) { throw left.failure }
    }

    /// Runs `request` and waits for it: the store commands are synchronous, and the proxy answers
    /// on its own threads. An entry the proxy does not have fails as it would here.
    private func perform<Answer: Sendable>(
        key: String? = nil, _ request: @escaping @Sendable (ProxyStoreClient) async throws(CacheProxyError) -> Answer
    ) throws(CommandFailure) -> Answer {
        let outcome = Outcome<Answer>()
        let done = DispatchSemaphore(value: 0)
        let client = self.client
        Task.detached {
            let result: Result<Answer, CacheProxyError>
            do throws(CacheProxyError) {
                result = .success(try await request(client))
            } catch {
                result = .failure(error)
            }
            outcome.result.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        switch outcome.result.withLock({ $0 }) {
        case .success(let answer)?:
            return answer
        case .failure(let error)? where error.code == .notFound && key != nil:
            throw CommandFailure(code: .failure, message: "\(directory): no entry for key \(key ?? "")")
        case .failure(let error)?:
            throw CommandFailure(code: .failure, message: "\(directory) is held by a running proxy: \(error.message)")
        case nil:
            throw CommandFailure(code: .failure, message: "the proxy at \(address) did not answer")
        }
    }

    /// Where the request's task leaves its result for the waiting command.
    private final class Outcome<Answer: Sendable>: Sendable {
        let result = Mutex<Result<Answer, CacheProxyError>?>(nil)
    }
}
