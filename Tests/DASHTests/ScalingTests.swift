import DASH
import Testing

/// Work per Representation and per Period stays constant as their number grows: ten times the
/// Representations or Periods take about ten times as long, not a hundred (the ratio allows 30,
/// for a machine busy with other work).
@Suite struct ScalingTests {
    static func manyRepresentations(_ count: Int) -> String {
        var text = "<MPD profiles=\"x\" minBufferTime=\"PT1S\" mediaPresentationDuration=\"PT10S\"><Period><AdaptationSet>"
            + "<SegmentTemplate media=\"$RepresentationID$/$Number$.m4s\" initialization=\"$RepresentationID$/i.mp4\" duration=\"2\"/>"
        for index in 0..<count { text += "<Representation id=\"r\(index)\" bandwidth=\"\(index + 1)\"><BaseURL>b/</BaseURL></Representation>" }
        return text + "</AdaptationSet></Period></MPD>"
    }

    static func manyPeriods(_ count: Int) -> String {
        var text = "<MPD profiles=\"x\" minBufferTime=\"PT1S\" mediaPresentationDuration=\"PT\(count * 2)S\">"
        for _ in 0..<count { text += "<Period duration=\"PT2S\"><AdaptationSet><Representation id=\"a\" bandwidth=\"1\"/></AdaptationSet></Period>" }
        return text + "</MPD>"
    }

    /// The fastest of three runs of `body`, in seconds.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            let clock = ContinuousClock()
            let start = clock.now
            try body()
            let elapsed = clock.now - start
            best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        return best
    }

    @Test func representationsAreListedAddressedAndDroppedInLinearTime() throws {
        let url = Fixtures.manifestURL
        let policy = DASHProxyRewritePolicy(endpoint: DASHProxyEndpoint(port: 8080), maximumBandwidth: 1)
        var times: [Double] = []
        for count in [500, 5_000] {
            let manifest = try DASHManifest(parsing: Self.manyRepresentations(count))
            times.append(try Self.seconds {
                let representations = manifest.representations
                #expect(representations.count == count)
                let last = try representations[count - 1].segmentRequests(manifestURL: url)
                #expect(Array(last).last?.url == "https://origin.example/video/b/r\(count - 1)/5.m4s")
                for representation in representations { _ = try representation.initializationRequest(manifestURL: url) }
                let kept = try DASHManifest(parsing: try manifest.rewritten(manifestURL: url, policy: policy))
                #expect(kept.representations.map(\.id) == ["r0"])
            })
        }
        #expect(times[1] < times[0] * 30, "500: \(times[0]) s, 5,000: \(times[1]) s")
    }

    @Test func periodTimesAreDerivedInLinearTime() throws {
        var times: [Double] = []
        for count in [500, 5_000] {
            let manifest = try DASHManifest(parsing: Self.manyPeriods(count))
            times.append(Self.seconds {
                let periods = manifest.periods
                #expect(periods.last?.startSeconds == Double((count - 1) * 2))
                #expect(periods.allSatisfy { $0.durationSeconds == 2 })
            })
        }
        #expect(times[1] < times[0] * 30, "500: \(times[0]) s, 5,000: \(times[1]) s")
    }
}
