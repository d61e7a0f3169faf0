import Foundation
import SessionMachine
import SessionStorage
import SwaggerClient
import SwaggerHTTP
import SwaggerModel
import TestSupport
import Testing

/// `--kind oauth2` against servers nobody here wrote: a FastAPI app on OAuth2PasswordRequestForm, and
/// Django OAuth Toolkit, a real OAuth 2 authorization server.
@Suite("Server kinds: OAuth 2 against FastAPI and Django OAuth Toolkit", .timeLimit(.minutes(15)))
struct OAuth2Tests {
    static let ana = (email: "ana@example.com", password: "Passw0rd!")
    static let publicClient = "swaggerctl-public"
    static let confidential = (id: "swaggerctl-confidential", secret: "s3cret-client-secret")

    static func stored(_ sandbox: Sandbox, _ server: String) async throws -> Credentials {
        try #require(try await sandbox.file.credentials(for: Account(server: server, name: ana.email)))
    }

    /// Logs in to DOT as the public client, with its OpenID scope.
    /// - Returns: The issuer, which is the session's server, and the login's result.
    static func loginToDOT(_ server: PythonServer, in sandbox: Sandbox, password: String = ana.password)
        async throws -> (issuer: String, login: CommandResult)
    {
        let issuer = server.origin + "/o"
        let login = try await sandbox.login(
            issuer, email: ana.email, password: password,
            extra: ["--kind", "oauth2", "--client-id", publicClient, "--scope", "openid"])
        return (issuer, login)
    }

    // MARK: - FastAPI

    @Test("FastAPI: the token and refresh URLs come from its OpenAPI document; login, details, refresh, logout")
    func fastAPI() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.fastapi) { server in
            let url = server.origin
            let login = try await sandbox.login(
                url, email: Self.ana.email, password: Self.ana.password,
                extra: ["--kind", "oauth2", "--profile-path", "/users/me"])
            #expect(login.status == 0, "\(login)")
            #expect(
                login.stderr.hasPrefix(
                    "Found in /openapi.json: login POST /token, refresh POST /token/refresh, no logout; profile "
                        + "given.\n"), "\(login)")
            #expect(login.stdout.contains("full_name  Ana Horvat\n"), "\(login)")

            let show = try await sandbox.swaggerctl("server", "show")
            for (key, value) in [
                ("Preset", "oauth2"),
                (
                    "Login",
                    "POST \(url)/token grant_type=password&password={password}&username={account}&scope={scope} "
                        + "with the client's proof (from \(url)/openapi.json)"
                ),
                (
                    "Refresh",
                    "POST \(url)/token/refresh grant_type=refresh_token&refresh_token={refresh} with the client's proof "
                        + "(from \(url)/openapi.json)"
                ),
                ("Profile", "GET \(url)/users/me Authorization: Bearer {access} (given)"),
                ("Found in", "\(url)/openapi.json"),
            ] {
                #expect(show.row(key) == value, "\(key): \(show)")
            }

            let before = try await Self.stored(sandbox, url)
            let refresh = try await sandbox.swaggerctl("refresh")
            #expect(refresh.status == 0, "\(refresh)")
            let after = try await Self.stored(sandbox, url)
            #expect(after.refreshToken != before.refreshToken)
            // The spent refresh token is refused now (the server rotates them).
            let spent = try await server.json([
                "-d", "grant_type=refresh_token", "-d", "refresh_token=\(before.refreshToken ?? "")",
                "\(url)/token/refresh",
            ])
            #expect(spent["error"] as? String == "invalid_grant")

            let details = try await sandbox.swaggerctl("details", "--format", "json")
            #expect(details.stdout.contains(#""email": "ana@example.com""#), "\(details)")

            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0)
            #expect(logout.stderr.contains("cannot revoke sessions"), "\(logout)")
        }
    }

    @Test("FastAPI with only the address: the password flow's tokenUrl vouches for its login; refresh by the grant")
    func fastAPIFromItsDocument() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.fastapi) { server in
            let url = server.origin
            let login = try await sandbox.login(url, email: Self.ana.email, password: Self.ana.password)
            #expect(login.status == 0, "\(login)")
            #expect(
                login.stderr.hasPrefix(
                    "Found in /openapi.json: login POST /token, refresh POST /token/refresh, no logout, profile "
                        + "GET /users/me.\n"), "\(login)")
            #expect(login.stdout.contains("full_name  Ana Horvat\n"), "\(login)")
            let status = try await sandbox.swaggerctl("status", "--verbose")
            #expect(
                status.row("Sends")
                    == "login as the OAuth 2 password grant; refresh as the OAuth 2 refresh grant; logout on this "
                    + "machine only", "\(status)")

            let before = try await Self.stored(sandbox, url)
            let refresh = try await sandbox.swaggerctl("refresh")
            #expect(refresh.status == 0, "\(refresh)")
            #expect(try await Self.stored(sandbox, url).refreshToken != before.refreshToken)
            let counters = try await server.json(["\(url)/test/counters"])
            #expect(counters["logins"] as? Int == 1 && counters["refreshes"] as? Int == 1, "\(counters)")
        }
    }

    @Test("a server whose document describes no login is refused, naming the document and what it lacked")
    func documentWithoutLogin() async throws {
        let sandbox = try Sandbox()
        let file = sandbox.root.appending(path: "openapi.json")
        try Data(
            #"{"openapi": "3.0.3", "paths": {"/items": {"get": {"responses": {"200": {"description": "ok"}}}}}}"#.utf8
        ).write(to: file)
        try await FileServer.serve(file) { document in
            let server = String(document.dropLast("/openapi.json".count))
            let login = try await sandbox.login(server, email: Self.ana.email, password: Self.ana.password)
            #expect(login.status == 64, "\(login)")
            #expect(
                login.stderr
                    == "swaggerctl: No login found for \(server): \(document) has no POST operations. Describe it "
                    + "with `swaggerctl server set`.\n")
            #expect(try await sandbox.swaggerctl("status").stdout.isEmpty)
        }
    }

    @Test("FastAPI: a wrong password is its tutorial's 400 with a detail, which exits 4 with that detail")
    func fastAPIWrongPassword() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.fastapi) { server in
            let login = try await sandbox.login(
                server.origin, email: Self.ana.email, password: "wrong",
                extra: ["--kind", "oauth2", "--login-path", "/token", "--profile-path", "/users/me"])
            #expect(login.status == 4, "\(login)")
            #expect(
                login.stderr
                    == "swaggerctl: \(server.origin) refused the login (HTTP 400): \"Incorrect username or password\". "
                    + "Check the account and password.\n")
            #expect(try sandbox.sessions.records().isEmpty)
        }
    }

    @Test("discovery fills what a preset leaves out, and says how much it read when nothing says it")
    func discoveryFailures() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.fastapi) { server in
            // OAuth 2's preset names no endpoint; the server's document names the token URL and the current user.
            let fromDocument = try await sandbox.login(
                server.origin, email: Self.ana.email, password: Self.ana.password, extra: ["--kind", "oauth2"])
            #expect(fromDocument.status == 0, "\(fromDocument)")
            #expect(
                fromDocument.stderr.hasPrefix(
                    "Found in /openapi.json: login POST /token, refresh POST /token/refresh, no "
                        + "logout, profile GET /users/me.\n"), "\(fromDocument)")
        }
        // flask-jwt-extended's app publishes no document at all.
        try await withPythonServer(.flask) { server in
            let nothing = try await sandbox.login(
                server.origin, email: "demo@example.com", password: "demo-password", extra: ["--kind", "oauth2"])
            #expect(nothing.status == 64)
            #expect(
                nothing.stderr
                    == "swaggerctl: \(server.origin) is not described enough to log in to: login.url is missing: where "
                    + "the login is sent, and none of the 19 documents the server was asked for says it. Give it with "
                    + "`swaggerctl server set \(server.origin) --login-path PATH`.\n")
        }
    }

    @Test("an --openapi document in YAML is read, and its relative token URL follows its servers entry")
    func openAPIYAML() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.fastapi) { server in
            let document = sandbox.root.appending(path: "api.yaml")
            try Data(
                """
                openapi: 3.0.3
                info: {title: test, version: "1"}
                servers:
                  - url: \(server.origin)/
                paths: {}
                components:
                  securitySchemes:
                    password:
                      type: oauth2
                      flows:
                        password:
                          tokenUrl: token
                          refreshUrl: token/refresh
                          scopes: {}
                """.utf8
            ).write(to: document)
            try await FileServer.serve(document) { documentURL in
                let login = try await sandbox.login(
                    server.origin, email: Self.ana.email, password: Self.ana.password,
                    extra: ["--kind", "oauth2", "--openapi", documentURL, "--profile-path", "/users/me"])
                #expect(login.status == 0, "\(login)")
                #expect(
                    login.stderr.hasPrefix(
                        "Found in \(documentURL): login POST /token, refresh POST /token/refresh; profile given.\n"),
                    "\(login)")
            }
        }
    }

    // MARK: - Django OAuth Toolkit

    @Test("DOT: OpenID discovery and RFC 8414 metadata together; login, userinfo, rotation, and a revoking logout")
    func djangoOAuthToolkit() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.dot) { server in
            let (issuer, login) = try await Self.loginToDOT(server, in: sandbox)
            #expect(login.status == 0, "\(login)")
            #expect(
                login.stderr.hasPrefix(
                    "Found in /o/.well-known/openid-configuration (and 1 more): login POST /o/token/, refresh POST "
                        + "/o/token/, logout POST /o/revoke_token/, profile GET /o/userinfo/.\n"), "\(login)")
            #expect(login.stdout.contains("email  ana@example.com\n"), "\(login)")
            #expect(login.stdout.contains("name   Ana Horvat\n"), "\(login)")

            let first = try await Self.stored(sandbox, issuer)
            #expect(try await Self.introspect(server, try #require(first.accessToken)) == true)
            let refresh = try await sandbox.swaggerctl("refresh")
            #expect(refresh.status == 0, "\(refresh)")
            let second = try await Self.stored(sandbox, issuer)
            #expect(second.refreshToken != first.refreshToken)
            let reuse = try await server.json([
                "-d", "grant_type=refresh_token", "-d", "refresh_token=\(first.refreshToken ?? "")", "-d",
                "client_id=\(Self.publicClient)", "\(issuer)/token/",
            ])
            #expect(reuse["error"] as? String == "invalid_grant")

            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0, "\(logout)")
            #expect(logout.stderr == "Logged out ana@example.com from \(issuer).\n")
            // RFC 7662: the server no longer knows the access token; and the refresh token is spent.
            #expect(try await Self.introspect(server, try #require(second.accessToken)) == false)
            let afterLogout = try await server.json([
                "-d", "grant_type=refresh_token", "-d", "refresh_token=\(second.refreshToken ?? "")", "-d",
                "client_id=\(Self.publicClient)", "\(issuer)/token/",
            ])
            #expect(afterLogout["error"] as? String == "invalid_grant")
        }
    }

    @Test("DOT: a wrong password is invalid_grant, which exits 4 with the server's description")
    func invalidGrant() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.dot) { server in
            let (issuer, login) = try await Self.loginToDOT(server, in: sandbox, password: "wrong")
            #expect(login.status == 4, "\(login)")
            #expect(
                login.stderr.hasSuffix(
                    "swaggerctl: \(issuer) refused the login (HTTP 400): \"Invalid credentials given\". Check the "
                        + "account and password.\n"), "\(login)"
            )
            #expect(try sandbox.sessions.records().isEmpty)
        }
    }

    @Test(
        "DOT: a confidential client's secret comes from standard input, goes by HTTP Basic, and is kept with the tokens"
    )
    func confidentialClient() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.dot) { server in
            let issuer = server.origin + "/o"
            let login = try await sandbox.swaggerctl(
                [
                    "login", "-s", issuer, "-e", Self.ana.email, "--password-stdin", "--client-secret-stdin", "--kind",
                    "oauth2", "--client-id", Self.confidential.id, "--scope", "openid",
                ], stdin: "\(Self.ana.password)\n\(Self.confidential.secret)\n")
            #expect(login.status == 0, "\(login)")
            #expect(try await Self.stored(sandbox, issuer).clientSecret == Self.confidential.secret)
            #expect(try !String(contentsOf: sandbox.sessionsFile, encoding: .utf8).contains(Self.confidential.secret))
            let show = try await sandbox.swaggerctl("server", "show")
            #expect(
                show.row("Client ID") == "\(Self.confidential.id) (with a client secret, kept with the tokens)",
                "\(show)")

            // The refresh and the revocation authenticate the client with the stored secret.
            #expect(try await sandbox.swaggerctl("refresh").status == 0)
            let token = try #require(try await Self.stored(sandbox, issuer).accessToken)
            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.stderr == "Logged out ana@example.com from \(issuer).\n", "\(logout)")
            #expect(try await Self.introspect(server, token) == false)
        }
    }

    @Test("DOT: a refresh token revoked elsewhere ends the session at the next refresh")
    func revokedElsewhere() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.dot) { server in
            let (issuer, login) = try await Self.loginToDOT(server, in: sandbox)
            try #require(login.status == 0, "\(login)")
            let credentials = try await Self.stored(sandbox, issuer)
            _ = try await curl([
                "-d", "token=\(credentials.refreshToken ?? "")", "-d", "client_id=\(Self.publicClient)",
                "\(issuer)/revoke_token/",
            ])
            let refresh = try await sandbox.swaggerctl("refresh")
            #expect(refresh.status == 4, "\(refresh)")
            #expect(refresh.stderr.contains("has ended: the server refuses it"), "\(refresh)")
            #expect(try sandbox.sessions.records().isEmpty)
        }
    }

    @Test("DOT: an access token past its expires_in is refreshed before use")
    func refreshBeforeUse() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.dot) { server in
            let (issuer, login) = try await Self.loginToDOT(server, in: sandbox)
            try #require(login.status == 0, "\(login)")
            let first = try await Self.stored(sandbox, issuer)
            // Past the hour that its expires_in gave, as swaggerctl sees it; DOT still takes the refresh.
            sandbox.advanceClock(by: .seconds(3700))
            let details = try await sandbox.swaggerctl("details")
            #expect(details.status == 0, "\(details)")
            #expect(details.stderr.isEmpty, "\(details)")
            #expect(try await Self.stored(sandbox, issuer).refreshToken != first.refreshToken)
        }
    }

    /// Whether DOT's RFC 7662 introspection calls `token` active, asked as the confidential client.
    static func introspect(_ server: PythonServer, _ token: String) async throws -> Bool? {
        try await server.json([
            "-u", "\(confidential.id):\(confidential.secret)", "-d", "token=\(token)", "\(server.origin)/o/introspect/",
        ])["active"] as? Bool
    }
}
