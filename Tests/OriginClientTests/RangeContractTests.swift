@testable import CacheProxy
import NIOCore
import Testing

/// What a client must deliver of a body: the bytes asked for, as the origin sent them.
@Suite("Origin client contract: ranges and bodies")
struct RangeContractTests {
    @Test("a GET with Range gets a 206 and exactly those bytes", arguments: originClientKinds)
    func rangeGets206WithThoseBytes(kind: OriginClientKind) async throws {
        try await withOrigin { origin in
            origin.set("/segment", .body(count: 1_000_000))
            try await ClientUnderTest.with(kind) { client in
                let response = try await client.get(origin.url("/segment"), range: "bytes=300000-300999")
                #expect(response.status == 206)
                #expect(response.headers.first(name: "content-range") == "bytes 300000-300999/1000000")
                let bytes = try await response.body.collect()
                #expect(bytes.count == 1000)
                #expect(bytes == BodyPattern.bytes(at: 300_000, count: 1000))
            }
        }
    }

    @Test("an origin that ignores Range answers 200 and the client delivers the whole body", arguments: originClientKinds)
    func ignoredRangeGets200WholeBody(kind: OriginClientKind) async throws {
        try await withOrigin { origin in
            origin.set("/segment", .body(count: 200_000, ignoresRange: true))
            try await ClientUnderTest.with(kind) { client in
                let response = try await client.get(origin.url("/segment"), range: "bytes=1000-1999")
                #expect(response.status == 200)
                #expect(response.headers.first(name: "content-length") == "200000")
                let bytes = try await response.body.collect()
                #expect(bytes == BodyPattern.bytes(at: 0, count: 200_000))
            }
        }
    }

    @Test("a large body streams, with bounded memory where the client can hold back, and arrives intact", arguments: originClientKinds)
    func largeBodyStreamsBounded(kind: OriginClientKind) async throws {
        let size = 64 << 20
        try await withOrigin { origin in
            origin.set("/large", .body(count: size))
            try await ClientUnderTest.with(kind) { client in
                let response = try await client.get(origin.url("/large"))
                var chunks = response.body.makeAsyncIterator()
                var received = 0
                let first = try #require(try await chunks.next())
                #expect(BodyPattern.matches(first, at: 0))
                received += first.readableBytes
                // With the reader stopped, the origin can write only what the socket buffers
                // and the client's bounded buffer hold; a client that reads ahead without bound
                // lets it write the whole body.
                let stalledAt = try await writtenOnceSteady(origin, "/large")
                if OriginClientDifferences.boundsBodyMemory(kind) {
                    #expect(stalledAt < size / 2, "the origin wrote \(stalledAt) of \(size) bytes while the reader waited")
                }
                while let chunk = try await chunks.next() {
                    #expect(BodyPattern.matches(chunk, at: received), "wrong bytes at \(received)")
                    received += chunk.readableBytes
                }
                #expect(received == size)
            }
        }
    }

    /// What the origin has written of `path` once that stopped growing for half a second.
    private func writtenOnceSteady(_ origin: ContractOrigin, _ path: String) async throws -> Int {
        var last = -1
        var steadySince = ContinuousClock.now
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let written = origin.written(path)
            if written != last {
                last = written
                steadySince = .now
            } else if ContinuousClock.now - steadySince >= .milliseconds(500) {
                return written
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return origin.written(path)
    }
}
