import Foundation
import SwaggerModel
import Testing

/// Machines signed in to Debian's glewlwyd as their own OAuth 2 clients (RFC 6749 §4.4): one proven by its secret,
/// one by assertions signed with its private key (RFC 7523's private_key_jwt).
@Suite(
    "glewlwyd: a client signs in as itself, renews by asking again, and its logout revokes", .timeLimit(.minutes(15)))
struct GlewlwydClientTests {
    /// A confidential client of the start script's, and how it proves itself.
    enum Machine: String, CaseIterable, CustomTestStringConvertible {
        case secret = "swaggerctl-secret"
        case key = "swaggerctl-key"

        var testDescription: String { self == .secret ? "client_secret_basic" : "private_key_jwt" }

        func proof(_ server: Glewlwyd) -> (arguments: [String], stdin: String?) {
            switch self {
            case .secret: (["--client-secret-stdin"], "s3cret\n")
            case .key: (["--client-key", server.clientKey.path], nil)
            }
        }
    }

    @Test("login, a new process's details, renewal after expiry, logout", arguments: Machine.allCases)
    func machineSession(_ machine: Machine) async throws {
        let sandbox = try Sandbox()
        try await withGlewlwyd { server in
            let proof = machine.proof(server)
            let login = try await sandbox.swaggerctl(
                ["login", "-s", server.issuer, "--client-credentials", "--client-id", machine.rawValue]
                    + proof.arguments, stdin: proof.stdin)
            try #require(login.status == 0, "\(login)")
            #expect(login.stderr.hasSuffix("Logged in to \(server.issuer) as \(machine.rawValue).\n"), "\(login)")
            #expect(login.row("client_id") == machine.rawValue, "\(login)")
            #expect(login.row("scope") == "openid", "\(login)")

            // The proof is kept with the tokens, and nowhere else: a later command asks again with it.
            let account = Account(server: try ServerURL(server.issuer), name: machine.rawValue)
            let stored = try #require(try await sandbox.file.credentials(for: account))
            switch machine {
            case .secret: #expect(stored.clientSecret == "s3cret" && stored.clientKey == nil)
            case .key:
                let pem = try String(contentsOf: server.clientKey, encoding: .utf8)
                #expect(stored.clientKey?.privateKey == pem && stored.clientSecret == nil)
            }
            #expect(stored.refreshToken == nil, "a client credentials grant gives no refresh token")
            let status = try await sandbox.swaggerctl("status", "--verbose")
            #expect(status.row("Signs in")?.hasPrefix("as the client itself (client credentials)") == true, "\(status)")

            let first = try await sandbox.swaggerctl("token").stdout.trimmingCharacters(in: .newlines)
            #expect(try await server.isActive(first))

            // An hour on, the token has expired: details asks for a new one with the client's proof.
            sandbox.advanceClock(by: .seconds(3700))
            let details = try await sandbox.swaggerctl("details")
            #expect(details.status == 0, "\(details)")
            #expect(details.row("client_id") == machine.rawValue, "\(details)")
            let second = try await sandbox.swaggerctl("token").stdout.trimmingCharacters(in: .newlines)
            #expect(second != first, "the renewal stored a new token")
            #expect(try await server.isActive(second))

            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0 && !logout.stderr.contains("warning"), "\(logout)")
            #expect(try await !server.isActive(second), "the logout revoked the token at glewlwyd")
            #expect(try await sandbox.file.credentials(for: account) == nil)
        }
    }

    @Test("a wrong secret, and a key glewlwyd does not know, are refused in one line, and store nothing")
    func refusedClient() async throws {
        let sandbox = try Sandbox()
        try await withGlewlwyd { server in
            let secret = try await sandbox.swaggerctl(
                [
                    "login", "-s", server.issuer, "--client-credentials", "--client-id", "swaggerctl-secret",
                    "--client-secret-stdin",
                ], stdin: "wrong\n")
            #expect(secret.status == 4, "\(secret)")
            #expect(
                secret.stderr.hasSuffix(
                    "swaggerctl: \(server.issuer) refused the client swaggerctl-secret: check its id and its "
                        + "credentials. Nothing was stored.\n"), "\(secret)")

            let other = try await sandbox.newKey(named: "other.pem")
            let key = try await sandbox.swaggerctl(
                "login", "-s", server.issuer, "--client-credentials", "--client-id", "swaggerctl-key", "--client-key",
                other.path, "--verbose")
            #expect(key.status == 4, "\(key)")
            #expect(key.stderr.contains("refused the client swaggerctl-key"), "\(key)")
            // --verbose shows the request, with the assertion hidden as a secret is: it is good for a minute.
            #expect(key.stderr.contains("&client_assertion=[redacted]"), "\(key)")
            #expect(try sandbox.sessions.records().isEmpty)
        }
    }

    @Test("a file that holds no private key is refused before anything is sent")
    func notAKey() async throws {
        let sandbox = try Sandbox()
        let file = sandbox.root.appending(path: "key.pem")
        try "not a key\n".write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let login = try await sandbox.swaggerctl(
            "login", "-s", "https://auth.example.com", "--client-credentials", "--client-id", "ci", "--client-key",
            file.path)
        #expect(login.status == 64, "\(login)")
        #expect(
            login.stderr == "swaggerctl: \(file.path) holds no private key in PEM (-----BEGIN … PRIVATE KEY-----).\n",
            "\(login)")
    }

    @Test(
        "a private key that others may read or change is refused, naming chmod 600, before anything is sent",
        arguments: [0o644, 0o640, 0o604, 0o620, 0o602])
    func openKey(permissions: Int) async throws {
        let sandbox = try Sandbox()
        let file = sandbox.root.appending(path: "key.pem")
        try "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n".write(
            to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: file.path)
        let login = try await sandbox.swaggerctl(
            "login", "-s", "https://auth.example.com", "--client-credentials", "--client-id", "ci", "--client-key",
            file.path)
        #expect(login.status == 64, "\(login)")
        #expect(
            login.stderr == "swaggerctl: \(file.path) is open to others (0\(String(permissions, radix: 8))), and a "
                + "private key must not be: chmod 600 \(file.path).\n", "\(login)")
        #expect(try sandbox.sessions.records().isEmpty)
    }

    /// Logs in as the client `swaggerctl-cert`, proven by its certificate.
    static func certificateLogin(_ sandbox: Sandbox, _ server: Glewlwyd) async throws -> CommandResult {
        let (certificate, key) = server.clientCertificate
        let login = try await sandbox.swaggerctl(
            "login", "-s", server.issuer, "--ca-cert", server.authority.path, "--client-credentials", "--client-id",
            "swaggerctl-cert", "--client-cert", certificate.path, "--client-key", key.path)
        try #require(login.status == 0, "\(login)")
        return login
    }

    @Test("a client proven by its certificate: tokens bound to it, renewed and revoked at the mTLS aliases")
    func certificateSession() async throws {
        let sandbox = try Sandbox()
        try await withGlewlwyd(tls: true) { server in
            let login = try await Self.certificateLogin(sandbox, server)
            #expect(login.row("client_id") == "swaggerctl-cert", "\(login)")
            let show = try await sandbox.swaggerctl("server", "show")
            #expect(
                show.stdout.contains("/api/oidc/mtls/token"), "the metadata's alias is part of the description: \(show)"
            )
            let status = try await sandbox.swaggerctl("status", "--verbose")
            #expect(status.row("Certificate")?.hasPrefix("presented in TLS (tls_client_auth)") == true, "\(status)")

            let first = try await sandbox.swaggerctl("token").stdout.trimmingCharacters(in: .newlines)
            let bound = (try await server.introspect(first)["cnf"] as? [String: Any])?["x5t#S256"] as? String
            #expect(bound != nil, "glewlwyd bound the token to the certificate")

            sandbox.advanceClock(by: .seconds(3700))
            let details = try await sandbox.swaggerctl("details")
            #expect(details.status == 0, "\(details)")
            let second = try await sandbox.swaggerctl("token").stdout.trimmingCharacters(in: .newlines)
            #expect(second != first)
            #expect((try await server.introspect(second)["cnf"] as? [String: Any])?["x5t#S256"] as? String == bound)

            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0 && !logout.stderr.contains("warning"), "\(logout)")
            #expect(try await !server.isActive(second))
        }
    }

    @Test("without its certificate, the client is refused at the mTLS alias, and its session ends")
    func certificateNotSent() async throws {
        let sandbox = try Sandbox()
        try await withGlewlwyd(tls: true) { server in
            _ = try await Self.certificateLogin(sandbox, server)
            // The stored key without its certificate: the renewal shows glewlwyd nothing.
            let account = Account(server: try ServerURL(server.issuer), name: "swaggerctl-cert")
            var credentials = try #require(try await sandbox.file.credentials(for: account))
            credentials.clientKey?.certificate = nil
            try await sandbox.file.store(credentials, for: account)
            sandbox.advanceClock(by: .seconds(3700))
            let refresh = try await sandbox.swaggerctl("refresh")
            #expect(refresh.status == 4, "\(refresh)")
        }
    }
}
