import Foundation
import SwaggerModel
import Testing

@testable import SwaggerHTTP

/// The certificate authorities a person names, read before anything is sent: each that cannot be used says why, in
/// one line that fits 80 columns with a short path.
@Suite("TrustSettings: the named stores, and why one cannot be used", .timeLimit(.minutes(5)))
struct TrustSettingsTests {
    @Test("a store that is missing, of the wrong kind, or unreadable says which, and what to give instead")
    func unusable() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "trust-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/ca.pem"
        try Data("-----BEGIN CERTIFICATE-----\n".utf8).write(to: URL(filePath: file))
        let cases: [([String: String], String?, String)] = [
            (
                [:], "/none/ca.pem",
                "--ca-cert names /none/ca.pem, which does not exist: give a PEM file of certificates."
            ),
            ([:], folder, "--ca-cert names \(folder), which is a folder: give a PEM file of certificates."),
            (
                ["SSL_CERT_DIR": file], nil,
                "SSL_CERT_DIR names \(file), which is a file: give a folder of certificates."
            ),
            (
                ["SWAGGERCTL_CA_CERT": "/none/x"], nil,
                "SWAGGERCTL_CA_CERT names /none/x, which does not exist: give a PEM file of certificates."
            ),
        ]
        for (environment, flag, message) in cases {
            #expect(throws: SwaggerError(.usage, message)) {
                try TrustSettings(environment: environment, caCertificate: flag)
            }
        }
        #expect(
            try TrustSettings(environment: ["SSL_CERT_DIR": folder], caCertificate: file).additionalCertificates == file
        )
    }
}
