import CacheProxy
import CacheStore
import Foundation
import Testing
import TestSupport

/// A session's first playlist answer when a player and its helpers ask for it at the same moment
/// (an `AVAssetResourceLoader`, a status poller, a second item preloading): every one of those
/// first requests gets what a lone first request gets, for every policy, against a real origin
/// on loopback slow enough that the start buffer takes a few hundred milliseconds.
@Suite("A session's first answer under concurrent first requests", .timeLimit(.minutes(2)))
struct SessionFirstAnswerTests {
    /// About 0.4 s per segment: 20 chunks of 10,000 bytes, 20 ms apart.
    static let throttled = TestOrigin.Faults(chunkDelay: .milliseconds(20), chunkSize: 10_000)
    static let segmentSize = 200_000
    /// The start timeout (10 s by default) is not what these tests check: on a loaded machine it
    /// passed before the throttled origin sent the start, and the answer rightly stopped waiting.
    static let patience = #""startTimeout": 60"#

    /// An answer, and how many segments of the played variant were cached from the first when
    /// it arrived (caching only grows, so that is at least what the proxy saw when it answered).
    struct Answer {
        var response: ProxyHarness.Response
        var cachedWhenReceived: Int

        var listedSegments: Int { SessionClient.lines(response.body, prefix: "#EXTINF").count }
        var text: String { String(decoding: response.body, as: UTF8.self) }
    }

    /// Sends `count` GETs of `url` at once, each on its own connection.
    static func concurrentAnswers(
        _ url: String, count: Int = 2, client: SessionClient, cached: @escaping @Sendable () -> Int
    ) async throws -> [Answer] {
        try await withThrowingTaskGroup(of: Answer.self) { group in
            for _ in 0..<count {
                group.addTask {
                    let response = try await client.get(url)
                    return Answer(response: response, cachedWhenReceived: cached())
                }
            }
            var answers: [Answer] = []
            for try await answer in group { answers.append(answer) }
            return answers
        }
    }

    /// The URI line of a multivariant playlist's first variant.
    static func firstVariantURI(_ playlist: [UInt8]) -> String? {
        String(decoding: playlist, as: UTF8.self).split(whereSeparator: \.isNewline).first { !$0.hasPrefix("#") }.map(String.init)
    }

    /// How many segments of `name` are cached contiguously from the first.
    static func cachedPrefix(of name: String, in presentation: TestPresentation, harness: ProxyHarness) -> @Sendable () -> Int {
        let store = harness.store
        let keys = (0..<presentation.segments).map { store.key(for: harness.origin.url(presentation.path(name, segment: $0))) }
        let size = UInt64(presentation.segmentSize)
        return {
            keys.prefix { key in (store.reader(for: key).file?.cachedLength(from: 0) ?? 0) >= size }.count
        }
    }

    @Test("Two first requests of a hiding session's playlist both wait for a segment: neither gets a playlist listing none")
    func hideUntilBufferedConcurrentFirstRequests() async throws {
        try await ProxyHarness.run { harness in
            let presentation = TestPresentation.publish(
                "hide", on: harness.origin, segments: 8, segmentSize: Self.segmentSize, faults: Self.throttled)
            let client = SessionClient(harness: harness)
            let session = try await client.open(
                #"{"url": "\#(harness.origin.url(presentation.mediaPath("low")))", "hideUntilBuffered": true, "bufferAhead": {"segments": 3}, \#(Self.patience)}"#)
            let answers = try await Self.concurrentAnswers(
                session.playlist, client: client, cached: Self.cachedPrefix(of: "low", in: presentation, harness: harness))
            #expect(answers.count == 2)
            for answer in answers {
                #expect(answer.response.status == 200)
                #expect(answer.listedSegments >= 1, "an answer listed no segment: \(answer.text)")
                #expect(answer.listedSegments <= answer.cachedWhenReceived, "only cached segments are listed")
            }
        }
    }

    @Test("Two first requests of a session with a start buffer both wait until it is cached", arguments: [
        #""startBuffer": {"segments": 2}"#, #""startBuffer": {"seconds": 8}"#,
    ])
    func startBufferConcurrentFirstRequests(startBuffer: String) async throws {
        try await ProxyHarness.run { harness in
            let presentation = TestPresentation.publish(
                "start", on: harness.origin, segments: 8, segmentSize: Self.segmentSize, faults: Self.throttled)
            let client = SessionClient(harness: harness)
            let session = try await client.open(#"{"url": "\#(harness.origin.url(presentation.mediaPath("low")))", \#(startBuffer), \#(Self.patience)}"#)
            let answers = try await Self.concurrentAnswers(
                session.playlist, client: client, cached: Self.cachedPrefix(of: "low", in: presentation, harness: harness))
            #expect(answers.count == 2)
            for answer in answers {
                #expect(answer.response.status == 200 && answer.listedSegments == 8)
                // Two segments of 4 s either way.
                #expect(answer.cachedWhenReceived >= 2, "answered before the start buffer was cached")
            }
        }
    }

    @Test("A locked, hiding session: two first requests of the variant's playlist both wait for its first segment")
    func lockedVariantConcurrentFirstRequests() async throws {
        try await ProxyHarness.run { harness in
            let presentation = TestPresentation.publish(
                "lock", on: harness.origin, segments: 8, segmentSize: Self.segmentSize, audio: true, faults: Self.throttled)
            let client = SessionClient(harness: harness)
            let session = try await client.open(
                #"{"url": "\#(harness.origin.url(presentation.masterPath))", "quality": "lowest", "hideUntilBuffered": true, \#(Self.patience)}"#)
            let masters = try await Self.concurrentAnswers(session.playlist, client: client) { 0 }
            #expect(masters.count == 2 && masters[0].response.body == masters[1].response.body, "the multivariant answers differ")
            let variantURI = try #require(Self.firstVariantURI(masters[0].response.body))
            #expect(SessionClient.lines(masters[0].response.body, prefix: "#EXT-X-STREAM-INF").count == 1)
            let answers = try await Self.concurrentAnswers(
                variantURI, client: client, cached: Self.cachedPrefix(of: "low", in: presentation, harness: harness))
            for answer in answers {
                #expect(answer.response.status == 200)
                #expect(answer.listedSegments >= 1, "an answer listed no segment: \(answer.text)")
            }
        }
    }

    @Test("A hiding virtual playlist: two first requests both list its first segment")
    func virtualPlaylistConcurrentFirstRequests() async throws {
        try await ProxyHarness.run { harness in
            let first = TestPresentation.publish("va", on: harness.origin, segments: 3, segmentSize: Self.segmentSize, faults: Self.throttled)
            let second = TestPresentation.publish("vb", on: harness.origin, segments: 3, segmentSize: Self.segmentSize, faults: Self.throttled)
            let client = SessionClient(harness: harness)
            let session = try await client.open(#"""
                {"urls": ["\#(harness.origin.url(first.mediaPath("low")))", "\#(harness.origin.url(second.mediaPath("low")))"],
                 "hideUntilBuffered": true, \#(Self.patience)}
                """#)
            let answers = try await Self.concurrentAnswers(
                session.playlist, client: client, cached: Self.cachedPrefix(of: "low", in: first, harness: harness))
            for answer in answers {
                #expect(answer.response.status == 200)
                #expect(answer.listedSegments >= 1, "an answer listed no segment: \(answer.text)")
                #expect(answer.listedSegments <= answer.cachedWhenReceived)
            }
        }
    }

    @Test("Policies that shape without waiting give concurrent first requests the same answer as a later one", arguments: [
        #""quality": "lowest""#, #""maxBandwidth": 2000000, "bandwidth": 5000000"#, #""headSegments": 2"#,
        #""quality": "highest", "bufferAhead": {"segments": 2}"#,
    ])
    func shapingPoliciesConcurrentFirstRequests(policy: String) async throws {
        try await ProxyHarness.run { harness in
            let presentation = TestPresentation.publish(
                "shape", on: harness.origin, segments: 4, segmentSize: Self.segmentSize, audio: true, faults: Self.throttled)
            let client = SessionClient(harness: harness)
            let session = try await client.open(#"{"url": "\#(harness.origin.url(presentation.masterPath))", \#(policy)}"#)
            let masters = try await Self.concurrentAnswers(session.playlist, client: client) { 0 }
            let later = try await client.get(session.playlist)
            #expect(masters.allSatisfy { $0.response.status == 200 && $0.response.body == later.body })
            let mediaURI = try #require(Self.firstVariantURI(later.body))
            let medias = try await Self.concurrentAnswers(mediaURI, client: client) { 0 }
            let laterMedia = try await client.get(mediaURI)
            #expect(SessionClient.lines(laterMedia.body, prefix: "#EXTINF").count == 4)
            #expect(medias.allSatisfy { $0.response.status == 200 && $0.response.body == laterMedia.body })
        }
    }
}
