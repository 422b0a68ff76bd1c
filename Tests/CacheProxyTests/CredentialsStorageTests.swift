@testable import CacheProxy
import CacheProxyServer
import CacheProxyParsing
import CacheStore
import NIOCore
import Testing
import TestSupport

/// What the cache keeps of answers that depend on credentials (issue 32): `private` answers by
/// where the proxy listens, a 401 or 403 never, and entries kept apart by `Vary` across a
/// restart.
@Suite("Credentials: what is stored", .timeLimit(.minutes(2)))
struct CredentialsStorageTests {
    /// An IPv4 address of one of this machine's own interfaces that is not loopback, if it has
    /// one (a test proxy listens there and is reached there; nothing else is contacted).
    static let ownNonLoopbackAddress: String? = {
        let devices = (try? System.enumerateDevices()) ?? []
        return devices.lazy.compactMap { device -> String? in
            guard let address = device.address, case .v4 = address, !CacheProxy.isLoopback(address) else { return nil }
            return address.ipAddress
        }.first
    }()

    // MARK: The decision

    @Test("no-store, Vary: * and private: passed through or stored, by the flag and where the proxy listens")
    func theStorageRule() {
        func refusal(_ cacheControl: String?, vary: String? = nil, storesNoStore: Bool = false, isPrivateCache: Bool) -> String? {
            StorageRule(storesNoStore: storesNoStore, isPrivateCache: isPrivateCache)
                .refusal(cacheControl: CacheControl(parsing: cacheControl.map { [$0] } ?? []), vary: VaryField(parsing: vary.map { [$0] } ?? []))
        }
        for isPrivateCache in [true, false] {
            #expect(refusal(nil, isPrivateCache: isPrivateCache) == nil)
            #expect(refusal("max-age=60, public", isPrivateCache: isPrivateCache) == nil)
            #expect(refusal("no-store", isPrivateCache: isPrivateCache)?.contains("no-store") == true)
            #expect(refusal("no-store", storesNoStore: true, isPrivateCache: isPrivateCache) == nil)
            #expect(refusal(nil, vary: "*", isPrivateCache: isPrivateCache)?.contains("Vary") == true)
            #expect(refusal(nil, vary: "Cookie", isPrivateCache: isPrivateCache) == nil, "stored per value, not refused")
        }
        #expect(refusal("private, max-age=60", isPrivateCache: true) == nil)
        #expect(refusal("private, max-age=60", isPrivateCache: false)?.contains("private") == true)
        #expect(refusal("Private", isPrivateCache: false) != nil, "directive names are case-insensitive")
    }

    @Test("A proxy is a private cache exactly when it listens on loopback",
          arguments: [("127.0.0.1", true), ("127.3.2.1", true), ("::1", true), ("localhost", true),
                      ("0.0.0.0", false), ("::", false), ("192.0.2.2", false), ("10.0.0.5", false)])
    func privateCacheByListeningAddress(host: String, isPrivate: Bool) {
        var configuration = CacheProxyConfiguration.server
        configuration.host = host
        #expect(StorageRule(configuration: configuration).isPrivateCache == isPrivate)
    }

    // MARK: Real servers

    @Test("private answers are passed through, not stored, by a proxy listening beyond loopback",
          .enabled(if: ownNonLoopbackAddress != nil, "this machine has no IPv4 address other than loopback to listen on"))
    func privateAnswersArePassedThroughBeyondLoopback() async throws {
        let address = try #require(Self.ownNonLoopbackAddress)
        let origin = try await TestOrigin.start()
        var resource = TestOrigin.Resource(TestBytes(seed: 61).bytes(0, 20_000))
        resource.cacheControl = "private, max-age=60"
        origin.set("/private.bin", resource)
        origin.set("/public.bin", .init(TestBytes(seed: 62).bytes(0, 20_000)))
        try await ProxyHarness.run(origin: origin, configure: {
            $0.host = address
            $0.allowsNonLoopback = true
            // A proxy beyond loopback refuses this host's addresses unless the allow-list names them.
            $0.allowedHosts = ["127.0.0.1"]
        }) { harness in
            func fetch(_ path: String) async throws -> ProxyHarness.Response {
                try await harness.fetch("http://\(address):\(harness.port)/proxy?url=" + percentEncoded(origin.url(path)))
            }
            for _ in 0..<2 {
                let answer = try await fetch("/private.bin")
                #expect(answer.status == 200)
                #expect(answer.body == TestBytes(seed: 61).bytes(0, 20_000))
            }
            #expect(try await fetch("/public.bin").status == 200)
            let keys = harness.store.entries.map(\.key)
            #expect(keys == [harness.store.key(for: origin.url("/public.bin"))], "only the answer without private is kept")
            // Each request for the private answer reached the origin (two the first time: the
            // answer that tells it is private is relayed by a second request, not kept).
            #expect(origin.requests(for: "/private.bin").count >= 2)
            #expect(origin.requests(for: "/public.bin").count == 1)
        }
    }

    @Test("A 401 or a 403 is passed on, never stored, and never opens the breaker; the same URL plays once the origin grants it",
          arguments: [401, 403])
    func credentialRefusalsArePassedOnUnstored(status: Int) async throws {
        let origin = try await TestOrigin.start()
        let refusals = 5
        origin.set("/r.bin", .init(TestBytes(seed: 63).bytes(0, 30_000), faults: .init(status: status, statusCount: refusals)))
        try await ProxyHarness.run(origin: origin) { harness in
            let url = harness.proxyURL(forOrigin: origin.url("/r.bin"))
            let key = harness.store.key(for: origin.url("/r.bin"))
            // More refusals than the breaker's threshold (3 in the harness).
            for attempt in 0..<refusals {
                #expect(try await harness.fetch(url).status == status, "attempt \(attempt)")
                #expect(harness.store.entry(for: key) == nil)
            }
            #expect(origin.requests(for: "/r.bin").count == refusals, "each refusal came from the origin, none from the cache")
            let granted = try await harness.fetch(url)
            #expect(granted.status == 200)
            #expect(granted.body == TestBytes(seed: 63).bytes(0, 30_000))
            #expect(harness.store.entry(for: key)?.cachedBytes == 30_000)
        }
    }

    @Test("Entries kept apart by Vary stay apart after a restart, and serve their own requests")
    func varyEntriesSurviveARestart() async throws {
        // The origin outlives both proxies (each harness stops the origin it is given, so
        // each gets one of its own it does not use): the entries' keys are made from its URL.
        let origin = try await TestOrigin.start()
        var varying = TestOrigin.Resource(TestBytes(seed: 64).bytes(0, 20_000))
        varying.vary = "Cookie"
        origin.set("/v.bin", varying)
        let url = origin.url("/v.bin")
        let directory = TemporaryDirectory("vary-restart")
        let unused = (try await TestOrigin.start(), try await TestOrigin.start())
        try await ProxyHarness.run(origin: unused.0, configure: { $0.forwardedHeaders = ["Cookie"] }, directory: directory) { harness in
            // The first answer teaches the proxy that the URL varies and is relayed, not kept.
            for cookie in ["user=a", "user=b", "user=a"] {
                let answer = try await harness.fetch(harness.proxyURL(forOrigin: url), headers: [("Cookie", cookie)])
                #expect(answer.status == 200)
            }
        }
        let keys = Set(try CacheStore.open(at: directory.path, readOnly: true).entries.map(\.key))
        #expect(keys.count == 2 && keys.allSatisfy { $0.contains("#vary(cookie)=") && !$0.contains("user=") }, "\(keys)")
        // `sparsecache inspect` shows what each entry varies on: the names, never the values.
        for key in keys {
            // On a thread of its own: blocking one of the few threads every test's tasks share
            // would hold up the tests running beside this one.
            let inspected = try await StoreControlTests.sparsecache(["inspect", directory.path, key])
            #expect(inspected.status == 0, "\(inspected.error)")
            #expect(inspected.output.contains("http.vary=cookie"), "\(inspected.output)")
            #expect(!inspected.output.contains("user="))
        }
        try await ProxyHarness.run(origin: unused.1, configure: { $0.forwardedHeaders = ["Cookie"] }, directory: directory) { harness in
            #expect(Set(harness.store.entries.map(\.key)) == keys, "the index kept both entries")
            origin.resetLog()
            // Which URLs vary is kept in memory: the first request after the restart asks the
            // origin and learns it again.
            let first = try await harness.fetch(harness.proxyURL(forOrigin: url), headers: [("Cookie", "user=a")])
            #expect(first.status == 200 && first.body == TestBytes(seed: 64).bytes(0, 20_000))
            let learning = origin.requests(for: "/v.bin").count
            #expect(learning >= 1)
            // The first answer teaches the proxy that the URL varies and is relayed, not kept.
            for cookie in ["user=a", "user=b", "user=a"] {
                let answer = try await harness.fetch(harness.proxyURL(forOrigin: url), headers: [("Cookie", cookie)])
                #expect(answer.status == 200 && answer.body == TestBytes(seed: 64).bytes(0, 20_000))
            }
            #expect(origin.requests(for: "/v.bin").count == learning, "each cookie's entry from before the restart was a hit")
            #expect(Set(harness.store.entries.map(\.key)) == keys, "no third entry, none lost")
        }
        await origin.stop()
    }
}
