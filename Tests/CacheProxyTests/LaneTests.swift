import Testing
import TestSupport

@Suite("Upstream lanes", .timeLimit(.minutes(2)))
struct LaneTests {
    @Test("Playlists, init segments, keys and probes never wait behind a saturated segment lane")
    func expressDoesNotWait() async throws {
        try await ProxyHarness.run(configure: { $0.segmentConcurrency = 1 }) { harness in
            // The segments' bodies are held until the express requests are done: if those
            // queued behind the segment lane, they would never be answered.
            let gate = TestGate()
            let slow = TestOrigin.Faults(pauseAfter: 0, gate: gate)
            let segment = TestBytes(seed: 5).bytes(0, 100_000)
            harness.origin.set("/s1.ts", .init(segment, faults: slow))
            harness.origin.set("/s2.ts", .init(segment, faults: slow))
            harness.origin.set("/s3.ts", .init(segment))
            harness.origin.set("/init.mp4", .init(TestBytes(seed: 6).bytes(0, 100_000), contentType: "video/mp4"))
            harness.origin.set("/key.bin", .init(TestBytes(seed: 8).bytes(0, 16), contentType: "application/octet-stream"))
            let playlist = """
                #EXTM3U
                #EXT-X-VERSION:7
                #EXT-X-TARGETDURATION:2
                #EXT-X-MAP:URI="init.mp4"
                #EXT-X-KEY:METHOD=AES-128,URI="key.bin"
                #EXTINF:2.0,
                s1.ts
                #EXT-X-ENDLIST

                """
            harness.origin.set("/index.m3u8", .init(Array(playlist.utf8), contentType: "application/vnd.apple.mpegurl"))
            try await withThrowingTaskGroup { group in
                for path in ["/s1.ts", "/s2.ts"] {
                    group.addTask { _ = try await harness.get(path) }
                }
                try await waitUntil("one segment fetch runs and the other waits for the lane") {
                    let lane = harness.proxy.status?.segment
                    return lane?.active == 1 && lane?.waiting == 1
                }
                #expect(try await harness.get("/index.m3u8").status == 200)
                #expect(try await harness.get("/init.mp4").status == 200)
                #expect(try await harness.get("/key.bin").status == 200)
                #expect(try await harness.get("/s3.ts", headers: [("Range", "bytes=0-1")]).status == 206)
                let lanes = try #require(harness.proxy.status)
                #expect(lanes.segment.active == 1 && lanes.segment.waiting == 1, "the segment lane stayed saturated")
                gate.open()
                try await group.waitForAll()
            }
        }
    }

    @Test("The segment lane runs at most its capacity at once")
    func segmentCap() async throws {
        try await ProxyHarness.run(configure: { $0.segmentConcurrency = 2 }) { harness in
            let slow = TestOrigin.Faults(headDelay: .milliseconds(400))
            for index in 0..<6 { harness.origin.set("/s\(index).ts", .init(TestBytes(seed: UInt64(index)).bytes(0, 50_000), faults: slow)) }
            let clock = ContinuousClock()
            let start = clock.now
            var maximumActive = 0
            var maximumWaiting = 0
            try await withThrowingTaskGroup { group in
                for index in 0..<6 {
                    group.addTask {
                        let response = try await harness.get("/s\(index).ts")
                        #expect(response.body.count == 50_000)
                    }
                }
                while harness.origin.requests.count < 6 || (harness.proxy.status?.segment.active ?? 0) > 0 {
                    let lane = try #require(harness.proxy.status?.segment)
                    maximumActive = max(maximumActive, lane.active)
                    maximumWaiting = max(maximumWaiting, lane.waiting)
                    try await Task.sleep(for: .milliseconds(10))
                }
                try await group.waitForAll()
            }
            #expect(maximumActive == 2)
            #expect(maximumWaiting >= 2)
            #expect(clock.now - start >= .milliseconds(1150), "three waves of two")
        }
    }
}
