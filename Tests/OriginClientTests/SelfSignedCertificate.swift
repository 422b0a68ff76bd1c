import Foundation
import NIOSSL
import TestSupport

/// A fresh self-signed certificate for `localhost` and 127.0.0.1, made by the `openssl`
/// command: one that no client trusts.
enum SelfSignedCertificate {
    /// Where `openssl` is, when it is installed.
    static let openssl: String? = ["/usr/bin/openssl", "/usr/local/bin/openssl", "/opt/homebrew/bin/openssl"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static var isAvailable: Bool { openssl != nil }

    /// A server's TLS context with a new certificate.
    static func makeServerContext() throws -> NIOSSLContext {
        guard let openssl else { throw CertificateError(description: "openssl is not installed") }
        let directory = TemporaryDirectory("origin-tls")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            "-keyout", directory.file("key.pem"), "-out", directory.file("certificate.pem"),
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CertificateError(description: "openssl req exited with \(process.terminationStatus)")
        }
        let certificates = try NIOSSLCertificate.fromPEMFile(directory.file("certificate.pem"))
        let key = try NIOSSLPrivateKey(file: directory.file("key.pem"), format: .pem)
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: certificates.map { .certificate($0) }, privateKey: .privateKey(key))
        return try NIOSSLContext(configuration: configuration)
    }

    struct CertificateError: Error, CustomStringConvertible {
        let description: String
    }
}
