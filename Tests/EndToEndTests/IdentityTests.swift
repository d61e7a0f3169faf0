import Foundation
import SessionMachine
import SessionStorage
import SwaggerClient
import SwaggerHTTP
import SwaggerModel
import TestSupport
import Testing

/// `--kind identity` against a server shaped like ASP.NET Core Identity's bearer endpoints, and the per-server
/// overrides of paths and token fields.
@Suite("Server kinds: ASP.NET Core Identity, and overrides", .timeLimit(.minutes(15)))
struct IdentityTests {
    static let ana = (email: "ana@example.com", password: "Passw0rd!")

    static func stored(_ sandbox: Sandbox, _ server: String, _ email: String = ana.email) async throws -> Credentials {
        try #require(try await sandbox.file.credentials(for: Account(server: server, name: email)))
    }

    @Test("with no document, its login that answers a GET with 405 and its profile that wants credentials show it")
    func probed() async throws {
        let sandbox = try Sandbox()
        try await IdentityServer.run(prefix: "/account") { url, server in
            let login = try await sandbox.login(url, email: Self.ana.email, password: Self.ana.password)
            #expect(login.status == 0, "\(login)")
            #expect(server.logins == 1)
            let show = try await sandbox.swaggerctl("server", "show", url)
            #expect(show.row("Preset") == "identity", "\(show)")
            #expect(
                show.row("Login")
                    == #"POST \#(url)/login {"email":"{account}","password":"{password}"} (from probe of /account/login)"#,
                "\(show)")
        }
    }

    @Test("login, profile, status, token, refresh and a local-only logout, end to end, under a group prefix")
    func endToEnd() async throws {
        let sandbox = try Sandbox()
        try await IdentityServer.run(prefix: "/account") { url, server in
            let start = Date()
            let login = try await sandbox.login(
                url, email: Self.ana.email, password: Self.ana.password, extra: ["--kind", "identity"])
            #expect(login.status == 0, "\(login)")
            #expect(login.stdout == "email             ana@example.com\nisEmailConfirmed  false\n", "\(login)")
            #expect(server.logins == 1)

            let show = try await sandbox.swaggerctl("server", "show", url)
            for (key, value) in [
                ("Preset", "identity"), ("Login", "\(url)/login"), ("Refresh", "\(url)/refresh"),
                ("Logout", "none: logout is local only"), ("Profile", "\(url)/manage/info"),
            ] {
                #expect(show.stepURL(key) == value, "\(key): \(show)")
            }
            let status = try await sandbox.swaggerctl("status")
            // Identity's tokens are opaque: the expiry comes from expiresIn.
            let expiry = try sandbox.storedExpiry(lifetime: .seconds(3600), since: start)
            #expect(status.stdout.contains("\(expiry) (in "), "\(status)")

            let details = try await sandbox.swaggerctl("details", "--format", "json")
            #expect(details.stdout == "{\n  \"email\": \"ana@example.com\",\n  \"isEmailConfirmed\": false\n}\n")
            let token = try await sandbox.swaggerctl("token")
            let before = try await Self.stored(sandbox, url)
            #expect(token.stdout == (try #require(before.accessToken)) + "\n")

            let refresh = try await sandbox.swaggerctl("refresh")
            #expect(refresh.status == 0, "\(refresh)")
            #expect(server.refreshes == 1)
            let after = try await Self.stored(sandbox, url)
            #expect(after.accessToken != before.accessToken)
            #expect(after.refreshToken != before.refreshToken)

            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0, "\(logout)")
            #expect(
                logout.stderr
                    == "swaggerctl: warning: \(url) cannot revoke sessions, so its tokens stay valid there until they "
                    + "expire; --local skips this.\n"
                    + "Logged out ana@example.com from \(url).\n")
            #expect(try sandbox.sessions.records().isEmpty)
        }
    }

    @Test("a wrong password is Identity's 401, which exits 4 and stores nothing")
    func wrongPassword() async throws {
        let sandbox = try Sandbox()
        try await IdentityServer.run { url, _ in
            let login = try await sandbox.login(
                url, email: Self.ana.email, password: "wrong", extra: ["--kind", "identity"])
            #expect(login.status == 4)
            #expect(
                login.stderr
                    == "swaggerctl: \(url) refused the login (HTTP 401): \"Failed\". Check the account and password.\n")
            #expect(try sandbox.sessions.records().isEmpty)
        }
    }

    @Test("an access token past its expiresIn is refreshed at /refresh before use")
    func refreshBeforeUse() async throws {
        let sandbox = try Sandbox()
        try await IdentityServer.run { url, server in
            let login = try await sandbox.login(
                url, email: Self.ana.email, password: Self.ana.password, extra: ["--kind", "identity"])
            try #require(login.status == 0, "\(login)")
            // Past the hour that its expiresIn gave, as swaggerctl sees it; the server still takes the refresh.
            sandbox.advanceClock(by: .seconds(3700))
            let details = try await sandbox.swaggerctl("details")
            #expect(details.status == 0, "\(details)")
            #expect(server.refreshes == 1)
        }
    }

    @Test("paths, dotted token fields and a data-wrapped profile, from the flags, saved with the session")
    func overrides() async throws {
        let sandbox = try Sandbox()
        let login = FaultServer.Reply(body: #"{"data": {"token": "tok-123", "renew": "ref-456", "ttl": 600}}"#)
        let profile = FaultServer.Reply(body: #"{"data": {"email": "a@example.com", "roles": ["admin"]}}"#)
        let logins = FaultServer.Replies([login])
        try await FaultServer.run(logins: logins, profiles: FaultServer.Replies([profile])) { url in
            let start = Date()
            let result = try await sandbox.login(
                url, email: "a@example.com", password: "pw",
                extra: [
                    "--kind", "identity", "--login-path", "/User/AdminLogin", "--refresh-path", "/User/RefreshToken",
                    "--profile-path", "/User/User", "--access-token-field", "data.token",
                    "--refresh-token-field", "data.renew", "--expires-in-field", "data.ttl",
                ])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "email  a@example.com\nroles  [\"admin\"]\n")
            #expect(logins.bodies == [#"{"email":"a@example.com","password":"pw"}"#])
            #expect(
                try await sandbox.file.credentials(for: Account(server: url, name: "a@example.com"))
                    == Credentials(accessToken: "tok-123", refreshToken: "ref-456"))

            let show = try await sandbox.swaggerctl("server", "show")
            #expect(show.row("Login")?.hasPrefix("POST \(url)/User/AdminLogin ") == true, "\(show)")
            #expect(show.row("Login")?.hasSuffix(" (given)") == true, "\(show)")
            #expect(
                show.row("Yields")
                    == "access $response.body#/data/token, expiresIn $response.body#/data/ttl, refresh $response.body#/data/renew",
                "\(show)")
            let status = try await sandbox.swaggerctl("status")
            let expiry = try sandbox.storedExpiry(lifetime: .seconds(600), since: start)
            #expect(status.stdout.contains("\(expiry) (in "), "\(status)")

            // A later command needs no flag: the details come from the saved description.
            let details = try await sandbox.swaggerctl("details", "--format", "json")
            #expect(details.stdout.contains("\"roles\": [\n    \"admin\"\n  ]"), "\(details)")
        }
    }

    @Test(
        "a profile that is not a JSON object is reported before anything is stored", arguments: ["[1, 2]", "\"ana\""])
    func profileNotAnObject(body: String) async throws {
        let sandbox = try Sandbox()
        let login = FaultServer.Reply(body: #"{"accessToken": "tok-123"}"#)
        try await FaultServer.run(login: login, profile: FaultServer.Reply(body: body)) { url in
            let result = try await sandbox.login(
                url, email: "a@example.com", password: "pw",
                extra: ["--kind", "identity", "--login-path", "/User/AdminLogin", "--profile-path", "/User/User"])
            #expect(result.status == 5)
            #expect(
                result.stderr
                    == "swaggerctl: warning: the login's token works until it expires: nothing ends it.\n"
                    + "swaggerctl: The profile at /api/User/User is not usable (the profile is not a JSON object); "
                    + "nothing was stored. Set it with `server set --profile-path`.\n")
            #expect(try sandbox.sessions.records().isEmpty)
            #expect(try sandbox.allFileContents().contains("tok-123") == false)
        }
    }

    @Test("a flag without a preset goes over what the documents say; with none published, says what is missing")
    func flagWithoutKind() async throws {
        // flask-jwt-extended's app publishes no document at all.
        try await withPythonServer(.flask) { server in
            let sandbox = try Sandbox()
            let result = try await sandbox.login(
                server.origin, email: "ana@example.com", password: "pw", extra: ["--login-path", "/login"])
            #expect(result.status == 64, "\(result)")
            #expect(
                result.stderr
                    == "swaggerctl: \(server.origin) is not described enough to log in to: profile.url is missing: where "
                    + "the profile is sent, and none of the 19 documents the server was asked for says it. Give it with "
                    + "`swaggerctl server set \(server.origin) --profile-path PATH`.\n")
            #expect(try sandbox.sessions.records().isEmpty)
        }
    }
}
