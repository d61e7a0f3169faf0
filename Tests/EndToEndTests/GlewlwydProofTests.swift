import Foundation
import SwaggerModel
import Testing

/// Sessions whose tokens Debian's glewlwyd binds to a key swaggerctl holds (DPoP, RFC 9449; glewlwyd follows its
/// draft 07), with the nonce that the start script makes every proof carry.
@Suite("glewlwyd: tokens bound to a DPoP key, proven at every use, renewed with the same key", .timeLimit(.minutes(15)))
struct GlewlwydProofTests {
    /// `token --format json`, read.
    static func tokenJSON(_ sandbox: Sandbox) async throws -> [String: Any] {
        let result = try await sandbox.swaggerctl("token", "--format", "json")
        try #require(result.status == 0, "\(result)")
        #expect(!result.stderr.contains("warning"), "a program that makes its own proofs is not warned: \(result)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// Logs in as the client `swaggerctl-secret`, its tokens bound to a new key.
    static func clientLogin(_ sandbox: Sandbox, _ server: Glewlwyd) async throws {
        let login = try await sandbox.swaggerctl(
            [
                "login", "-s", server.issuer, "--client-credentials", "--client-id", "swaggerctl-secret",
                "--client-secret-stdin", "--dpop",
            ], stdin: "s3cret\n")
        try #require(login.status == 0, "\(login)")
    }

    /// The `cnf.jkt` glewlwyd holds for `token`.
    static func boundKey(_ token: String, at server: Glewlwyd) async throws -> String? {
        (try await server.introspect(token)["cnf"] as? [String: Any])?["jkt"] as? String
    }

    @Test("a client's session: bound at login, renewed with the same key by a later process, revoked at logout")
    func clientSession() async throws {
        let sandbox = try Sandbox()
        try await withGlewlwyd { server in
            try await Self.clientLogin(sandbox, server)
            let first = try await Self.tokenJSON(sandbox)
            #expect(first["scheme"] as? String == "DPoP")
            let thumbprint = try #require(first["dpop_jkt"] as? String)
            let token = try #require(first["token"] as? String)
            #expect(try await Self.boundKey(token, at: server) == thumbprint, "glewlwyd bound the token to the key")

            // The key is kept with the tokens, and only there.
            let account = Account(server: try ServerURL(server.issuer), name: "swaggerctl-secret")
            #expect(try await sandbox.file.credentials(for: account)?.proofKey?.contains("PRIVATE KEY") == true)
            #expect(!(try String(contentsOf: sandbox.sessionsFile, encoding: .utf8)).contains("PRIVATE KEY"))

            let status = try await sandbox.swaggerctl("status", "--verbose")
            #expect(status.row("Bound to") == "a DPoP key (RFC 9449), thumbprint \(thumbprint)", "\(status)")
            let plain = try await sandbox.swaggerctl("token")
            #expect(plain.stderr.contains("warning: the token is bound to this session's DPoP key"), "\(plain)")

            sandbox.advanceClock(by: .seconds(3700))
            let refresh = try await sandbox.swaggerctl("refresh")
            #expect(refresh.status == 0, "\(refresh)")
            let renewed = try await Self.tokenJSON(sandbox)
            let second = try #require(renewed["token"] as? String)
            #expect(second != token)
            #expect(renewed["dpop_jkt"] as? String == thumbprint)
            #expect(try await Self.boundKey(second, at: server) == thumbprint, "renewed under the same key")

            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0 && !logout.stderr.contains("warning"), "\(logout)")
            #expect(try await !server.isActive(second))
        }
    }

    @Test("a person's device login: userinfo takes the token only with a proof; renewed with the same key")
    func personSession() async throws {
        let sandbox = try Sandbox()
        try await withGlewlwyd { server in
            let set = try await sandbox.swaggerctl("server", "set", server.issuer, "--client-id", "swaggerctl")
            try #require(set.status == 0, "\(set)")
            let login = try await sandbox.swaggerctl(
                ["login", "--device", "--dpop"], environment: GlewlwydTests.browser(sandbox))
            try #require(login.status == 0, "\(login)")
            #expect(login.stdout.contains("name   Ana Horvat\n"), "\(login)")
            let issued = try await Self.tokenJSON(sandbox)
            let token = try #require(issued["token"] as? String)
            let thumbprint = try #require(issued["dpop_jkt"] as? String)
            #expect(try await Self.boundKey(token, at: server) == thumbprint)

            // The token alone is refused, as a bearer token and as a DPoP one without its proof.
            #expect(try await server.userinfoStatus(token, scheme: "Bearer") == "401")
            #expect(try await server.userinfoStatus(token, scheme: "DPoP") == "401")

            let details = try await sandbox.swaggerctl("details")
            #expect(details.status == 0 && details.row("name") == "Ana Horvat", "\(details)")

            // A later process, an hour on: the refresh token is spent with a proof, and the new token is bound to the
            // same key.
            sandbox.advanceClock(by: .seconds(3700))
            let later = try await sandbox.swaggerctl("details")
            #expect(later.status == 0 && later.row("name") == "Ana Horvat", "\(later)")
            let renewed = try #require(try await Self.tokenJSON(sandbox)["token"] as? String)
            #expect(renewed != token)
            #expect(try await Self.boundKey(renewed, at: server) == thumbprint)
        }
    }

    @Test("a stored key that is not the one the tokens are bound to is refused before anything is sent")
    func swappedKey() async throws {
        let sandbox = try Sandbox()
        try await withGlewlwyd { server in
            try await Self.clientLogin(sandbox, server)
            let account = Account(server: try ServerURL(server.issuer), name: "swaggerctl-secret")
            var credentials = try #require(try await sandbox.file.credentials(for: account))
            let other = try await sandbox.newKey(named: "other.pem")
            credentials.proofKey = try String(contentsOf: other, encoding: .utf8)
            try await sandbox.file.store(credentials, for: account)
            let token = try await sandbox.swaggerctl("token")
            #expect(token.status == 4, "\(token)")
            #expect(token.stderr.contains("The token store lacks the DPoP key of swaggerctl-secret's tokens."))
        }
    }
}
