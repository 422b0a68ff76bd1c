import Synchronization

/// The proxies a test started, for its environment to stop when the test ends early.
final class StartedProxies: Sendable {
    private let proxies = Mutex<[ProxyUnderTest]>([])

    func add(_ proxy: ProxyUnderTest) { proxies.withLock { $0.append(proxy) } }
    var all: [ProxyUnderTest] { proxies.withLock { $0 } }
}
