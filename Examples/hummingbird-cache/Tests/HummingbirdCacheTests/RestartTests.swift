import CacheStore
import SparseFile
import Testing

/// What was committed survives a restart: a new proxy on a store opened again on the same
/// directory (once the first one stopped and closed it) answers from it without the origin,
/// and fetches only what it never had.
@Suite struct RestartTests {
    let path = TestEnvironment.path
    let content = TestEnvironment.content

    @Test func aRestartedProxyServesWhatWasCommittedWithoutTheOrigin() async throws {
        try await TestEnvironment.with { environment in
            let before = try await environment.startProxy()
            _ = try await before.get(path, range: "bytes=0-99999", with: environment.client)
            try await before.stop()

            let after = try await environment.startProxy()
            #expect(after.store.openReport.entries == 1)
            let cached = try await after.get(path, range: "bytes=10000-59999", with: environment.client)
            #expect(cached.status == 206)
            #expect(cached.body == Array(content[10000..<60000]))
            #expect(environment.origin.received.count == 1)
            #expect(after.store.statistics.hits >= 1)

            let wider = try await after.get(path, range: "bytes=50000-149999", with: environment.client)
            #expect(wider.body == Array(content[50000..<150000]))
            #expect(environment.origin.received.map(\.range) == ["bytes=0-99999", "bytes=100000-149999"])
            try await after.stop()
        }
    }
}
