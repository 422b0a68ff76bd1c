@testable import CacheProxy
import NIOCore
import TestSupport
import Testing

/// A request ends when its task is cancelled or its response is dropped, and its connection
/// with it: the origin sees the client go.
@Suite("Origin client contract: cancellation")
struct CancellationContractTests {
    @Test("cancelling the reader mid-body ends the stream promptly and closes the connection", arguments: originClientKinds)
    func cancelMidBody(kind: OriginClientKind) async throws {
        try await withOrigin { origin in
            origin.set("/drip", .drip(count: 64 << 20, chunk: 16 * 1024, interval: .milliseconds(20)))
            try await ClientUnderTest.with(kind) { client in
                let firstChunk = TestGate()
                let reader = Task {
                    let response = try await client.get(origin.url("/drip"))
                    var received = 0
                    for try await chunk in response.body {
                        received += chunk.readableBytes
                        firstChunk.open()
                    }
                    return received
                }
                await firstChunk.wait()
                try await expectCancelled(reader, closing: "/drip", of: origin)
            }
        }
    }

    @Test("cancelling while the head is awaited ends the request and closes the connection", arguments: originClientKinds)
    func cancelDuringHead(kind: OriginClientKind) async throws {
        try await withOrigin { origin in
            origin.set("/slow", .slowHead(.seconds(300)))
            try await ClientUnderTest.with(kind) { client in
                let request = Task { try await client.get(origin.url("/slow"), deadline: .seconds(600)) }
                try await waitUntil("the origin has the request") { origin.requests("/slow") == 1 }
                try await expectCancelled(request, closing: "/slow", of: origin)
            }
        }
    }

    @Test("dropping a response unread ends its request", arguments: originClientKinds)
    func droppedResponse(kind: OriginClientKind) async throws {
        try await withOrigin { origin in
            origin.set("/drip", .drip(count: 64 << 20, chunk: 16 * 1024, interval: .milliseconds(20)))
            try await ClientUnderTest.with(kind) { client in
                do {
                    let response = try await client.get(origin.url("/drip"))
                    #expect(response.status == 200)
                }
                try await waitUntil("the origin saw the connection closed") { origin.endings("/drip") == [.abandoned] }
            }
        }
    }

    /// Cancels `task` and checks that it throws `CancellationError` promptly and that the
    /// origin sees the connection of `path` closed.
    private func expectCancelled<T: Sendable>(_ task: Task<T, any Error>, closing path: String, of origin: ContractOrigin) async throws {
        let cancelled = ContinuousClock.now
        task.cancel()
        let outcome = await task.result
        // Generous for a loaded machine; a client that did not cancel would take minutes.
        #expect(ContinuousClock.now - cancelled < .seconds(60))
        #expect(throws: CancellationError.self) { try outcome.get() }
        try await waitUntil("the origin saw the connection closed") { origin.endings(path) == [.abandoned] }
    }
}
