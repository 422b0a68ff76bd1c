@testable import CacheProxy
import Testing

/// Connections that fail or end early: a client reports them, and never as a whole answer.
@Suite("Origin client contract: failing origins")
struct FailureContractTests {
    @Test("a body cut short by a closed connection throws instead of ending", arguments: originClientKinds)
    func droppedMidBody(kind: OriginClientKind) async throws {
        try await withOrigin { origin in
            origin.set("/drop", .drop(count: 1_000_000, sent: 300_000))
            try await ClientUnderTest.with(kind) { client in
                let response = try await client.get(origin.url("/drop"))
                #expect(response.status == 200)
                var received = 0
                await #expect(throws: (any Error).self) {
                    for try await chunk in response.body { received += chunk.readableBytes }
                }
                #expect(received <= 300_000)
            }
        }
    }

    @Test("a port where nothing listens fails with connectionRefused", arguments: originClientKinds)
    func refusedPort(kind: OriginClientKind) async throws {
        let port = try #require(UnlistenedPort())
        try await ClientUnderTest.with(kind) { client in
            let error = await #expect(throws: OriginClientError.self) {
                try await client.get("http://127.0.0.1:\(port.port)/segment")
            }
            #expect(error?.kind == .connectionRefused, "\(String(describing: error))")
        }
    }

    @Test("the peer check refuses a connection where the client can see its peer", arguments: originClientKinds)
    func peerCheck(kind: OriginClientKind) async throws {
        struct Refused: Error {}
        try await withOrigin { origin in
            origin.set("/segment", .body(count: 100))
            try await ClientUnderTest.with(kind, checkPeer: { _, _ in Refused() }) { client in
                if OriginClientDifferences.checksPeer(kind) {
                    let error = await #expect(throws: OriginClientError.self) { try await client.get(origin.url("/segment")) }
                    #expect(error?.kind == .peerRefused)
                    #expect(error?.underlying is Refused)
                } else {
                    let response = try await client.get(origin.url("/segment"))
                    #expect(try await response.body.collect().count == 100)
                }
            }
        }
    }
}
