import CacheProxy
import CacheStore
import SparseFile
import Testing
import TestSupport

/// The player before prefetching, on a real origin: a prefetch gives the link up while a player
/// starts a video and fetches only what it lacks afterwards, a download pauses for a playing
/// player and goes on from where it stopped, and a fetch whose player went away gives the link
/// up to the next player instead of finishing.
@Suite("The player first", .timeLimit(.minutes(2)))
struct LinkPriorityTests {
    static let large = TestBytes(seed: 71).bytes(0, 3_000_000)

    private func cachedLength(_ harness: ProxyHarness, _ path: String) -> UInt64 {
        harness.store.reader(for: harness.store.key(for: harness.origin.url(path))).file?.cachedLength(from: 0) ?? 0
    }

    @Test("A prefetch gives the link up while a player's start is in flight, then fetches only what it lacks")
    func prefetchGivesWayToAStart() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/next.mp4", .init(Self.large, contentType: "video/mp4",
                                                  faults: .init(chunkDelay: .milliseconds(5), chunkSize: 16 * 1024)))
            // The player's first request (a probe) waits at the origin, as a response does on a slow link.
            let gate = TestGate()
            harness.origin.set("/now.mp4", .init(TestBytes(seed: 72).bytes(0, 200_000), contentType: "video/mp4",
                                                 faults: .init(pauseAfter: 0, gate: gate)))
            let prefetch = try await PrefetchTests.post(
                harness, #"{"urls": ["\#(harness.origin.url("/next.mp4"))"], "bytes": \#(Self.large.count)}"#)
            #expect(prefetch.status == 202)
            try await waitUntil("the prefetch is under way") { cachedLength(harness, "/next.mp4") > 200_000 }
            let player = StreamingRequest(harness, "/now.mp4", headers: [("Range", "bytes=0-1023")])
            try await waitUntil("the player's request reached the origin") { gate.arrivals == 1 }
            try await waitUntil("the prefetch was cut") { (harness.proxy.status?.traffic.transfersCutForAStart ?? 0) >= 1 }
            let cut = cachedLength(harness, "/next.mp4")
            try await Task.sleep(for: .milliseconds(300))
            #expect(cachedLength(harness, "/next.mp4") == cut, "nothing was fetched while the player waited")
            #expect(cut < UInt64(Self.large.count))
            #expect(harness.origin.requests(for: "/next.mp4").count == 2, "the prefetch asked for nothing more while the player waited")
            gate.open()
            #expect(try await player.body() == Array(TestBytes(seed: 72).bytes(0, 1024)))
            try await waitUntil("the prefetch finished") { cachedLength(harness, "/next.mp4") == UInt64(Self.large.count) }
            let key = harness.store.key(for: harness.origin.url("/next.mp4"))
            let reader = harness.store.reader(for: key)
            var bytes = [UInt8](repeating: 0, count: Self.large.count)
            let outcome = bytes.withUnsafeMutableBytes { try? reader.read(into: $0, at: 0) }
            #expect(outcome == .complete)
            #expect(bytes == Self.large)
            // The probe of the head, the rest until the cut, then only the gap.
            let requests = harness.origin.requests(for: "/next.mp4")
            #expect(requests.count == 3)
            let resumedAt = requests.last.flatMap { DownloadTests.range(of: $0, length: Self.large.count).offset } ?? 0
            #expect(resumedAt >= cut, "the gap was fetched from \(resumedAt), \(cut) bytes were cached")
            // The job records its end just after its last bytes are stored.
            try await waitUntil("the prefetch job is done") { harness.proxy.status?.prefetch.jobs.first?.state == .done }
        }
    }

    @Test("A prefetch whose rest ends soon is paused for a start, not cut: its video would later wait an answer delay for that rest")
    func prefetchNearItsEndIsPausedNotCut() async throws {
        try await ProxyHarness.run { harness in
            // An origin that answers after 300 ms, as a phone's link does; the transfer stops
            // 34 KB before its end, long after its pace became known (0.8 s of body).
            let body = TestBytes(seed: 73).bytes(0, 600_000)
            let nearEnd = TestGate()
            harness.origin.set("/next.mp4", .init(body, contentType: "video/mp4", faults: .init(
                headDelay: .milliseconds(300), chunkDelay: .milliseconds(25), chunkSize: 16 * 1024, pauseAfter: 500_000, gate: nearEnd)))
            let playerGate = TestGate()
            harness.origin.set("/now.mp4", .init(TestBytes(seed: 72).bytes(0, 200_000), contentType: "video/mp4",
                                                 faults: .init(pauseAfter: 0, gate: playerGate)))
            let prefetch = try await PrefetchTests.post(
                harness, #"{"urls": ["\#(harness.origin.url("/next.mp4"))"], "bytes": \#(body.count)}"#)
            #expect(prefetch.status == 202)
            let probe = 65_536
            try await waitUntil("the prefetch's rest stopped near its end") { cachedLength(harness, "/next.mp4") == UInt64(probe + 500_000) }
            let player = StreamingRequest(harness, "/now.mp4", headers: [("Range", "bytes=0-1023")])
            try await waitUntil("the player's request reached the origin") { playerGate.arrivals == 1 }
            // The start registered before its request left: a cut would have been counted by now.
            #expect(harness.proxy.status?.traffic.transfersCutForAStart == 0)
            nearEnd.open()
            playerGate.open()
            #expect(try await player.body() == Array(TestBytes(seed: 72).bytes(0, 1024)))
            try await waitUntil("the prefetch finished") { cachedLength(harness, "/next.mp4") == UInt64(body.count) }
            #expect(harness.origin.requests(for: "/next.mp4").count == 2, "the probe and the rest: no gap asked for again")
            #expect(harness.proxy.status?.traffic.transfersCutForAStart == 0)
        }
    }

    @Test("A playing player's next segment waits behind the next video's head, and goes first when its buffer is about to run out")
    func playingSegmentYieldsUntilItsBufferRunsLow() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/next.mp4", .init(Self.large, contentType: "video/mp4",
                                                  faults: .init(chunkDelay: .milliseconds(100), chunkSize: 16 * 1024)))
            let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:10.0,\nseg0.ts\n#EXTINF:10.0,\nseg1.ts\n#EXT-X-ENDLIST\n"
            harness.origin.set("/now/index.m3u8", .init(Array(playlist.utf8), contentType: "application/vnd.apple.mpegurl"))
            harness.origin.set("/now/seg0.ts", .init(TestBytes(seed: 76).bytes(0, 100_000)))
            let segment = TestBytes(seed: 77).bytes(0, 1_000_000)
            harness.origin.set("/now/seg1.ts", .init(segment, faults: .init(chunkDelay: .milliseconds(5), chunkSize: 16 * 1024)))
            let served = ContinuousClock.now
            #expect(try await harness.get("/now/index.m3u8").status == 200)
            #expect(try await harness.get("/now/seg0.ts").status == 200, "the start: 10 s of media")
            let prefetch = try await PrefetchTests.post(
                harness, #"{"urls": ["\#(harness.origin.url("/next.mp4"))"], "bytes": \#(Self.large.count)}"#)
            #expect(prefetch.status == 202)
            try await waitUntil("the prefetch is under way") { cachedLength(harness, "/next.mp4") > 100_000 }
            let player = StreamingRequest(harness, "/now/seg1.ts")
            let before = cachedLength(harness, "/next.mp4")
            try await waitUntil("the next video's head went on") { cachedLength(harness, "/next.mp4") > before + 200_000 }
            // Only while the player's buffer lasts (a loaded machine may take longer than that to get here).
            if ContinuousClock.now - served < .seconds(9) {
                #expect(harness.origin.requests(for: "/now/seg1.ts").isEmpty, "the playing video's segment waits for its turn")
            }
            // Needed 10 s after the playlist was served: a start from half a second before, when it cuts the head.
            try await waitUntil("the head was cut for the player's segment", timeout: .seconds(60)) {
                (harness.proxy.status?.traffic.transfersCutForAStart ?? 0) >= 1
            }
            #expect(ContinuousClock.now - served >= .milliseconds(9_500), "not before the player's buffer ran low")
            #expect(try await player.body() == segment)
            #expect(cachedLength(harness, "/next.mp4") < UInt64(Self.large.count), "the head waits while the segment comes")
        }
    }

    @Test("A prefetch still waiting for its origin's bytes is cut the moment a player starts, not when its first bytes come")
    func prefetchWaitingForBytesIsCutAtOnce() async throws {
        try await ProxyHarness.run { harness in
            let gate = TestGate()
            // The origin answers the prefetch's head, then holds its body, as a slow link does.
            harness.origin.set("/next.mp4", .init(Self.large, contentType: "video/mp4", faults: .init(pauseAfter: 0, gate: gate)))
            harness.origin.set("/now.mp4", .init(TestBytes(seed: 81).bytes(0, 200_000), contentType: "video/mp4"))
            let prefetch = try await PrefetchTests.post(
                harness, #"{"urls": ["\#(harness.origin.url("/next.mp4"))"], "bytes": \#(Self.large.count)}"#)
            #expect(prefetch.status == 202)
            try await waitUntil("the prefetch's request waits at the origin") { gate.arrivals == 1 }
            let player = StreamingRequest(harness, "/now.mp4", headers: [("Range", "bytes=0-1023")])
            #expect(try await player.body() == Array(TestBytes(seed: 81).bytes(0, 1024)))
            try await waitUntil("the waiting prefetch was cut") { (harness.proxy.status?.traffic.transfersCutForAStart ?? 0) >= 1 }
            // Opened once the origin saw the close: before, its held body could still go into the socket.
            try await waitUntil("the origin saw the held answer's connection close") { harness.origin.closedConnections(lastServing: "/next.mp4") >= 1 }
            gate.open()
            try await waitUntil("the prefetch finished afterwards") { harness.proxy.status?.prefetch.jobs.first?.state == .done }
            #expect(cachedLength(harness, "/next.mp4") == UInt64(Self.large.count))
            #expect(harness.origin.outcomes(for: "/next.mp4").contains(.abandoned), "the held answer's connection was closed")
            #expect(harness.origin.requests(for: "/next.mp4").count >= 2, "asked again after the start")
        }
    }

    @Test("A prefetch that a playing player follows is cut for another player's start; the follower still gets every byte")
    func followedPrefetchIsCutForAStart() async throws {
        try await ProxyHarness.run { harness in
            // 30 s segments: the playing player's buffer lasts the whole test, its segment never escalates.
            let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:30\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:30.0,\nseg0.ts\n#EXTINF:30.0,\nseg1.ts\n#EXT-X-ENDLIST\n"
            harness.origin.set("/now/index.m3u8", .init(Array(playlist.utf8), contentType: "application/vnd.apple.mpegurl"))
            harness.origin.set("/now/seg0.ts", .init(TestBytes(seed: 78).bytes(0, 100_000)))
            let segment = TestBytes(seed: 79).bytes(0, 1_500_000)
            harness.origin.set("/now/seg1.ts", .init(segment, faults: .init(chunkDelay: .milliseconds(20), chunkSize: 16 * 1024)))
            let gate = TestGate()
            harness.origin.set("/other.mp4", .init(TestBytes(seed: 80).bytes(0, 200_000), contentType: "video/mp4",
                                                   faults: .init(pauseAfter: 0, gate: gate)))
            #expect(try await harness.get("/now/index.m3u8").status == 200)
            #expect(try await harness.get("/now/seg0.ts").status == 200, "the start: 30 s of media")
            let prefetch = try await PrefetchTests.post(
                harness, #"{"urls": ["\#(harness.origin.url("/now/seg1.ts"))"], "bytes": \#(segment.count)}"#)
            #expect(prefetch.status == 202)
            try await waitUntil("the prefetch is under way") { cachedLength(harness, "/now/seg1.ts") > 100_000 }
            let prefetchRequests = harness.origin.requests(for: "/now/seg1.ts").count
            let follower = StreamingRequest(harness, "/now/seg1.ts")
            try await Task.sleep(for: .milliseconds(200))
            #expect(harness.origin.requests(for: "/now/seg1.ts").count == prefetchRequests, "the player follows the prefetch's transfer")
            // Another player starts (a second item, a swipe): the link is its own.
            let starting = StreamingRequest(harness, "/other.mp4", headers: [("Range", "bytes=0-1023")])
            try await waitUntil("the start's request reached the origin") { gate.arrivals == 1 }
            try await waitUntil("the followed prefetch was cut") { (harness.proxy.status?.traffic.transfersCutForAStart ?? 0) >= 1 }
            let cut = cachedLength(harness, "/now/seg1.ts")
            #expect(cut < UInt64(segment.count))
            try await Task.sleep(for: .milliseconds(300))
            #expect(cachedLength(harness, "/now/seg1.ts") == cut, "nothing of the segment came while the start waited")
            gate.open()
            #expect(try await starting.body() == Array(TestBytes(seed: 80).bytes(0, 1024)))
            #expect(try await follower.body() == segment, "the follower fetched the rest itself after the start")
            #expect(harness.origin.requests(for: "/now/seg1.ts").count > prefetchRequests)
        }
    }

    @Test("A download pauses while a playing player's segment is fetched, and goes on from where it stopped")
    func downloadPausesForAPlayer() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/film.mp4", .init(Self.large, contentType: "video/mp4",
                                                  faults: .init(chunkDelay: .milliseconds(5), chunkSize: 16 * 1024)))
            let gate = TestGate()
            harness.origin.set("/clip.ts", .init(TestBytes(seed: 75).bytes(0, 300_000), faults: .init(pauseAfter: 0, gate: gate)))
            let client = SessionClient(harness: harness)
            let started = try await client.send(.POST, "/downloads", body: #"{"url": "\#(harness.origin.url("/film.mp4"))"}"#)
            #expect(started.status == 202)
            try await waitUntil("the download is under way") { cachedLength(harness, "/film.mp4") > 200_000 }
            let player = StreamingRequest(harness, "/clip.ts")
            try await waitUntil("the player's request reached the origin") { gate.arrivals == 1 }
            try await waitUntil("the download paused") { (harness.proxy.status?.traffic.transfersPaused ?? 0) >= 1 }
            let paused = cachedLength(harness, "/film.mp4")
            try await Task.sleep(for: .milliseconds(300))
            #expect(cachedLength(harness, "/film.mp4") == paused, "nothing was stored while the player's segment came")
            #expect(paused < UInt64(Self.large.count))
            gate.open()
            #expect(try await player.body() == TestBytes(seed: 75).bytes(0, 300_000))
            try await waitUntil("the download finished") { cachedLength(harness, "/film.mp4") == UInt64(Self.large.count) }
            #expect(harness.origin.requests(for: "/film.mp4").count == 1, "paused, not cut: one request")
            #expect(harness.proxy.status?.traffic.transfersCutForAStart == 0)
        }
    }

    @Test("A fetch whose player went away is cut when another player needs the link, and what it stored stays")
    func orphanGivesWay() async throws {
        try await ProxyHarness.run(configure: { $0.orphanFetchLimit = 8 << 20 }) { harness in
            let body = TestBytes(seed: 73).bytes(0, 1_500_000)
            let gate = TestGate()
            harness.origin.set("/old.ts", .init(body, faults: .init(chunkDelay: .milliseconds(10), chunkSize: 32 * 1024,
                                                                   pauseAfter: 200_000, gate: gate)))
            let nextGate = TestGate()
            harness.origin.set("/new.ts", .init(TestBytes(seed: 74).bytes(0, 100_000), faults: .init(pauseAfter: 0, gate: nextGate)))
            do {
                let connection = try RawConnection(port: harness.port)
                connection.send("GET /proxy?url=\(percentEncoded(harness.origin.url("/old.ts"))) HTTP/1.1\r\nHost: \(harness.host)\r\n\r\n")
                try await waitUntil("the origin holds the old video's body") { gate.arrivals == 1 }
                _ = await connection.readHead(andBody: 200_000, timeout: .seconds(20))
            }  // the user swiped: the connection closes
            let player = StreamingRequest(harness, "/new.ts")
            try await waitUntil("the next video's request reached the origin") { nextGate.arrivals == 1 }
            gate.open()
            try await waitUntil("the old fetch ended") { !harness.origin.outcomes(for: "/old.ts").isEmpty }
            #expect(harness.origin.outcomes(for: "/old.ts") == [.abandoned], "less than the orphan limit was left, yet it was cut")
            #expect(harness.proxy.status?.traffic.orphansCut == 1)
            let kept = cachedLength(harness, "/old.ts")
            #expect(kept >= 200_000 && kept < UInt64(body.count))
            nextGate.open()
            #expect(try await player.body() == TestBytes(seed: 74).bytes(0, 100_000))
        }
    }
}
