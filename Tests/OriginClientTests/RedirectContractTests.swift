@testable import CacheProxy
import Testing

/// A client follows no redirect: the proxy's guard checks every hop and sends it again.
@Suite("Origin client contract: redirects")
struct RedirectContractTests {
    @Test("a 3xx comes back as the response, with its Location, and is not followed", arguments: originClientKinds, [301, 302, 307, 308])
    func redirectIsNotFollowed(kind: OriginClientKind, status: Int) async throws {
        try await withOrigin { origin in
            origin.set("/moved", .redirect(to: origin.url("/target"), status: status))
            origin.set("/target", .body(count: 10))
            try await ClientUnderTest.with(kind) { client in
                let response = try await client.get(origin.url("/moved"))
                #expect(response.status == status)
                #expect(response.headers.first(name: "location") == origin.url("/target"))
                #expect(try await response.body.collect().isEmpty)
            }
            #expect(origin.requests("/target") == 0)
        }
    }
}
