import CacheStore
import SparseFile
import Testing
import TestSupport

/// A resource that changes at the origin is replaced, never mixed: whatever tells the change
/// (ETag, Last-Modified or the length). `If-Range` compares with the cached validators.
@Suite("Validators: replaced entries and If-Range", .timeLimit(.minutes(2)))
struct ValidatorTests {
    static let old = TestBytes(seed: 71).bytes(0, 600_000)
    static let monday = "Mon, 02 Nov 2026 10:00:00 GMT"
    static let tuesday = "Tue, 03 Nov 2026 10:00:00 GMT"

    enum Change: String, CustomTestStringConvertible {
        case lastModified, length
        var testDescription: String { rawValue }
    }

    @Test("A resource whose Last-Modified or length changes replaces its entry", arguments: [Change.lastModified, .length])
    func changeReplacesTheEntry(_ change: Change) async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/seg.ts", .init(Self.old, lastModified: Self.monday))
            let head = try await harness.get("/seg.ts", headers: [("Range", "bytes=0-99")])
            #expect(head.body == Array(Self.old[0..<100]))
            let new = change == .length ? TestBytes(seed: 72).bytes(0, 700_000) : TestBytes(seed: 72).bytes(0, 600_000)
            harness.origin.set("/seg.ts", .init(new, lastModified: change == .lastModified ? Self.tuesday : Self.monday))
            let tail = try await harness.get("/seg.ts", headers: [("Range", "bytes=500000-599999")])
            #expect(tail.body == Array(new[500_000..<600_000]))
            let key = harness.store.key(for: harness.origin.url("/seg.ts"))
            let file = try #require(harness.store.reader(for: key).file)
            #expect(file.contentLength == UInt64(new.count))
            #expect(file.metadata.lastModified == (change == .lastModified ? Self.tuesday : Self.monday))
            #expect(file.cachedLength(from: 0) == 0, "the old head is gone")
            // The whole body is the new one, fetched anew where the old bytes were.
            let whole = try await harness.get("/seg.ts")
            #expect(whole.body == new)
        }
    }

    @Test("If-Range by Last-Modified: the same date gets the range, another date or an ETag the whole body")
    func ifRangeByLastModified() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/seg.ts", .init(Self.old, lastModified: Self.monday))
            _ = try await harness.get("/seg.ts")
            #expect(try await harness.get("/seg.ts").headers.first(name: "last-modified") == Self.monday)
            let matching = try await harness.get("/seg.ts", headers: [("Range", "bytes=0-9"), ("If-Range", Self.monday)])
            #expect(matching.status == 206)
            #expect(matching.body == Array(Self.old[0..<10]))
            for other in [Self.tuesday, "\"v1\""] {
                let stale = try await harness.get("/seg.ts", headers: [("Range", "bytes=0-9"), ("If-Range", other)])
                #expect(stale.status == 200, "If-Range: \(other)")
                #expect(stale.body.count == Self.old.count)
            }
            #expect(harness.origin.requests(for: "/seg.ts").count == 1)
        }
    }
}
