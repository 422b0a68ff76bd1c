import CacheProxy
import DASH
import Testing
import TestSupport

@Suite("Prefetching the head of a DASH presentation", .timeLimit(.minutes(2)))
struct DASHPrefetchTests {
    @Test("The MPD, then per AdaptationSet the chosen Representation's init section and first segments within a seconds budget")
    func templateHead() async throws {
        try await ProxyHarness.run { harness in
            let mpd = DASHTestPresentation.serveTemplate(on: harness.origin)
            let accepted = try await PrefetchTests.post(harness, #"{"urls": ["\#(harness.origin.url(mpd))"], "seconds": 2}"#)
            #expect(accepted.status == 202)
            let status = try await PrefetchTests.settle(harness)
            #expect(status.jobs.first?.state == .done)
            let paths = Set(harness.origin.requests.map(\.path))
            #expect(paths == [mpd, "/v/init-v1.m4s", "/v/chunk-v1-00001.m4s", "/v/init-a1.m4s", "/v/chunk-a1-00001.m4s"])
            // Offline, the player's start is there.
            await harness.origin.stop()
            #expect(try await harness.fetch(try DASHProxyTests.dashURL(harness, mpd)).status == 200)
            let first = try await harness.fetch(try DASHProxyTests.dashURL(harness, "/v/chunk-v1-00001.m4s"))
            #expect(first.body == TestBytes(seed: 2).bytes(0, DASHTestPresentation.segmentBytes))
        }
    }

    @Test("SegmentBase: the init section, the sidx, and the segments it lists within the budget, as ranges of one file")
    func segmentBaseHead() async throws {
        try await ProxyHarness.run { harness in
            let mpd = DASHTestPresentation.serveSegmentBase(on: harness.origin)
            _ = try await PrefetchTests.post(harness, #"{"urls": ["\#(harness.origin.url(mpd))"], "seconds": 2}"#)
            #expect(try await PrefetchTests.settle(harness).jobs.first?.state == .done)
            let head = DASHTestPresentation.initLength + DASHTestPresentation.sidx.count + DASHTestPresentation.segmentBytes
            #expect(PrefetchTests.cachedLength(harness, "/sb/stream.mp4") == UInt64(head))
            #expect(harness.origin.requests(for: "/sb/stream.mp4").count == 3)
        }
    }

    @Test("A dynamic MPD is fetched, its segments are not")
    func dynamicMPD() async throws {
        try await ProxyHarness.run { harness in
            let mpd = DASHTestPresentation.serveTemplate(on: harness.origin, type: "dynamic")
            _ = try await PrefetchTests.post(harness, #"{"urls": ["\#(harness.origin.url(mpd))"], "seconds": 6}"#)
            let status = try await PrefetchTests.settle(harness)
            #expect(status.jobs.first?.state == .done)
            #expect(harness.origin.requests.map(\.path) == [mpd])
        }
    }
}
