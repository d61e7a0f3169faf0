import Foundation
import Testing

/// fastapi-users, set up as its documentation does, with a database strategy so that a logout deletes the token
/// on the server. Its OpenAPI document describes it: the address and the account are all a login needs.
@Suite(
    "fastapi-users: a form login, a bearer logout and users/me, found from its OpenAPI document",
    .timeLimit(.minutes(15)))
struct FastAPIUsersTests {
    static let ana = (email: "ana@example.com", password: "Passw0rd!")

    /// How many access tokens the server holds: a logout deletes one.
    static func tokens(_ server: PythonServer) async throws -> Int {
        try await server.json(["\(server.origin)/test/tokens"])["tokens"] as? Int ?? -1
    }

    /// The HTTP status of `GET /users/me` with `token` as the bearer.
    static func profileStatus(_ server: PythonServer, _ token: String) async throws -> String {
        try await curl([
            "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)",
            "\(server.origin)/users/me",
        ])
        .stdout
    }

    @Test(
        "login, details, token, status, all four page kinds, a logout that revokes; discovered or with the kind",
        arguments: [true, false])
    func session(discovered: Bool) async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.fastapiUsers) { server in
            let described = discovered ? [] : ["--kind", "fastapi-users"]
            let login = try await sandbox.swaggerctl(
                ["login", "-s", server.origin, "-e", Self.ana.email, "--password-stdin"] + described,
                stdin: Self.ana.password + "\n")
            try #require(login.status == 0, "\(login)")
            #expect(login.stdout.contains("email         ana@example.com\n"), "\(login)")
            // Its document shows fastapi-users' own routes: nothing was chosen among others, so nothing is said.
            #expect(!login.stderr.contains("Found in"), "\(login)")

            let token = try await sandbox.swaggerctl("token")
            #expect(token.status == 0, "\(token)")
            let bearer = token.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(try await Self.profileStatus(server, bearer) == "200")
            let details = try await sandbox.swaggerctl("details")
            #expect(details.status == 0 && details.stdout.contains("is_verified   true\n"), "\(details)")

            let show = try await sandbox.swaggerctl("server", "show")
            let document = "\(server.origin)/openapi.json"
            let from = discovered ? " (from \(document))" : ""
            for (key, value) in [
                // Its document shows the preset's login and profile, so the preset fills what the document leaves out.
                ("Preset", "fastapi-users"), ("Login", "\(server.origin)/auth/jwt/login\(from)"),
                ("Logout", "\(server.origin)/auth/jwt/logout\(from)"),
                ("Profile", "\(server.origin)/users/me\(from)"),
                (
                    "Sends",
                    "login as the OAuth 2 password grant; no refresh; logout POST with each token as the bearer"
                ),
                ("Found in", discovered ? document : nil),
            ] {
                #expect(show.stepURL(key) == value, "\(key): \(show)")
            }
            #expect(show.row("Refresh") == "none", "fastapi-users has no refresh: \(show)")

            for path in ["/items/page", "/items/limit-offset", "/items/links", "/items/cursor"] {
                try await sandbox.expectEveryItem(of: path)
            }

            let before = try await Self.tokens(server)
            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0 && !logout.stderr.contains("warning"), "\(logout)")
            #expect(try await Self.tokens(server) == before - 1, "the logout deleted the token on the server")
            #expect(try await Self.profileStatus(server, bearer) == "401")
        }
    }

    @Test("a token the server revoked ends the session with exit 4: there is no refresh token to renew it")
    func revokedElsewhere() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.fastapiUsers) { server in
            let login = try await sandbox.swaggerctl(
                ["login", "-s", server.origin, "-e", Self.ana.email, "--password-stdin"],
                stdin: Self.ana.password + "\n")
            try #require(login.status == 0, "\(login)")
            let bearer = try await sandbox.swaggerctl("token").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let revoked = try await curl(
                [
                    "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-H", "Authorization: Bearer \(bearer)",
                    "\(server.origin)/auth/jwt/logout",
                ])
            try #require(revoked.stdout == "204", "\(revoked)")

            let details = try await sandbox.swaggerctl("details")
            #expect(details.status == 4, "\(details)")
            #expect(details.stderr.filter { $0 == "\n" }.count == 1, "\(details)")
            #expect(details.stderr.contains("has ended: the server refuses it"), "\(details)")
        }
    }

    @Test("a wrong password gets the server's words and exit 4")
    func wrongPassword() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.fastapiUsers) { server in
            let wrong = try await sandbox.swaggerctl(
                ["login", "-s", server.origin, "-e", Self.ana.email, "--password-stdin", "--kind", "fastapi-users"],
                stdin: "wrong\n")
            #expect(wrong.status == 4, "\(wrong)")
            #expect(wrong.stderr.contains("LOGIN_BAD_CREDENTIALS"), "\(wrong)")
            #expect(try await sandbox.swaggerctl("status").stdout.isEmpty)
        }
    }
}
