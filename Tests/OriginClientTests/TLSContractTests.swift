@testable import CacheProxy
import Testing

/// A TLS failure is reported as one, whatever the client's TLS library calls it.
@Suite("Origin client contract: TLS")
struct TLSContractTests {
    @Test(
        "an origin with an untrusted self-signed certificate fails with tlsFailed",
        .enabled(if: SelfSignedCertificate.isAvailable, "openssl is needed to make the certificate"), arguments: originClientKinds)
    func untrustedCertificate(kind: OriginClientKind) async throws {
        try await withOrigin(tls: try SelfSignedCertificate.makeServerContext()) { origin in
            origin.set("/segment", .body(count: 100))
            try await ClientUnderTest.with(kind) { client in
                let error = await #expect(throws: OriginClientError.self) { try await client.get(origin.url("/segment")) }
                #expect(error?.kind == .tlsFailed, "\(String(describing: error))")
            }
            #expect(origin.endings("/segment").isEmpty)
        }
    }

    @Test("https to a plain-http port fails with tlsFailed", arguments: originClientKinds)
    func httpsToPlainPort(kind: OriginClientKind) async throws {
        try await withOrigin { origin in
            origin.set("/segment", .body(count: 100))
            try await ClientUnderTest.with(kind) { client in
                let url = "https://127.0.0.1:\(origin.port)/segment"
                let error = await #expect(throws: OriginClientError.self) { try await client.get(url) }
                #expect(error?.kind == .tlsFailed, "\(String(describing: error))")
            }
        }
    }
}
