@testable import CacheProxy
import TestSupport
import Testing

/// The two timeouts a client applies: the head's deadline, and the body's silence.
@Suite("Origin client contract: timeouts")
struct TimeoutContractTests {
    @Test("a head that comes after the deadline fails with responseTimeout", arguments: originClientKinds)
    func slowHead(kind: OriginClientKind) async throws {
        try await withOrigin { origin in
            origin.set("/slow", .slowHead(.seconds(300)))
            try await ClientUnderTest.with(kind, readTimeout: .seconds(60)) { client in
                let started = ContinuousClock.now
                let error = await #expect(throws: OriginClientError.self) {
                    try await client.get(origin.url("/slow"), deadline: .seconds(1))
                }
                #expect(error?.kind == .responseTimeout, "\(String(describing: error))")
                #expect(ContinuousClock.now - started < .seconds(120))
            }
            // Giving up closes the connection: the origin does not wait out its delay.
            try await waitUntil("the origin saw the slow request abandoned") { origin.endings("/slow") == [.abandoned] }
        }
    }

    @Test("a body silent for longer than the read timeout fails with readTimeout", arguments: originClientKinds)
    func stalledBody(kind: OriginClientKind) async throws {
        try await withOrigin { origin in
            origin.set("/stall", .stall(count: 200_000, sent: 50_000, silence: .seconds(300)))
            // The read timeout covers the head's wait too in AsyncHTTPClient, and beside the
            // file crash tests the in-process origin's head has taken over 5 s: 15 s tells a
            // stalled body from a slow head there.
            try await ClientUnderTest.with(kind, readTimeout: .seconds(15)) { client in
                let response = try await client.get(origin.url("/stall"))
                let started = ContinuousClock.now
                var received = 0
                let error = await #expect(throws: OriginClientError.self) {
                    for try await chunk in response.body { received += chunk.readableBytes }
                }
                #expect(error?.kind == .readTimeout, "\(String(describing: error))")
                // Not necessarily all 50 000: AsyncHTTPClient fails the body at the timeout, dropping
                // what it had received and the reader had not taken yet.
                #expect(received <= 50_000)
                #expect(ContinuousClock.now - started < .seconds(120))
            }
        }
    }
}
