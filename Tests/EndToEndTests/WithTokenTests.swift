import Foundation
import Testing

/// `login --with-token`: a token the person already has, made by the server before, kept as a session once the
/// profile has checked it and said whose it is, and ended by `logout` where the server has a way.
@Suite("login --with-token: a token made elsewhere, checked by the profile, kept and revoked", .timeLimit(.minutes(10)))
struct WithTokenTests {
    @Test("the demo server: the profile names the account; a refused token is exit 4 and stores nothing")
    func demo() async throws {
        try await withDemoServer { server in
            // The token comes from another login, as a token made on another machine would.
            let maker = try Sandbox()
            try #require(try await maker.loginAsDemo(server.apiURL, extra: ["-q"]).status == 0)
            let token = try await maker.swaggerctl("token").stdout.trimmingCharacters(in: .newlines)

            let sandbox = try Sandbox()
            let refused = try await sandbox.swaggerctl(
                ["login", "-s", server.apiURL, "--with-token"], stdin: "not-a-token-of-theirs\n")
            #expect(refused.status == 4, "\(refused)")
            #expect(
                refused.stderr
                    == "swaggerctl: \(server.apiURL) refused the token (HTTP 401); nothing was stored. Check that it "
                    + "is one of this server's.\n", "\(refused)")
            #expect(try sandbox.sessions.records().isEmpty)
            let spaced = try await sandbox.swaggerctl(["login", "-s", server.apiURL, "--with-token"], stdin: "a b\n")
            #expect(spaced.status == 64 && spaced.stderr.contains("--with-token takes one token"), "\(spaced)")

            let login = try await sandbox.swaggerctl(
                ["login", "-s", server.apiURL, "--with-token"], stdin: token + "\n")
            #expect(login.status == 0, "\(login)")
            #expect(login.stderr == "Logged in to \(server.apiURL) as \(Sandbox.demo.email).\n", "\(login)")
            #expect(login.stdout.contains("First name         Ana\n"), "\(login)")
            #expect(try sandbox.sessions.records().map(\.name) == [Sandbox.demo.email])
            let stored = try await sandbox.swaggerctl("token")
            #expect(stored.stdout == token + "\n", "the token as given, kept like any other: \(stored)")
            let details = try await sandbox.swaggerctl("details", "--format", "json")
            #expect(details.status == 0 && details.stdout.contains(#""email": "demo@example.com""#), "\(details)")

            // Named otherwise than the profile says, the token is not stored under that name.
            let other = try Sandbox()
            let misnamed = try await other.swaggerctl(
                ["login", "-s", server.apiURL, "-e", "ivo@example.com", "--with-token"], stdin: token)
            #expect(misnamed.status == 4 && misnamed.stderr.contains("not ivo@example.com"), "\(misnamed)")
            #expect(try other.sessions.records().isEmpty)

            // The demo server ends a session by its refresh token, which a given token lacks: the logout says the
            // token stays valid, and the server still takes it.
            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0, "\(logout)")
            #expect(
                logout.stderr.hasPrefix(
                    "swaggerctl: warning: the token stays valid on \(server.apiURL) for 1"), "\(logout)")
            #expect(logout.stderr.hasSuffix("Logged out \(Sandbox.demo.email) from \(server.apiURL).\n"), "\(logout)")
            #expect(try sandbox.sessions.records().isEmpty)
            #expect(try await maker.swaggerctl("details").status == 0, "the token works on, as the line said")
        }
    }

    @Test("django-rest-knox: a token made by its own login, kept with the profile's name, ended by logout")
    func knox() async throws {
        try await withPythonServer(.knox) { server in
            let made = try await curl([
                "-s", "-X", "POST", "-u", "ana:\(ServersByAddressTests.password)", server.origin + "/api/auth/login/",
            ])
            let answer = try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any]
            let token = try #require(answer?["token"] as? String, "\(made)")
            let tokens = { () async throws -> Int? in
                try await server.json(["-s", server.origin + "/api/test/tokens/"])["count"] as? Int
            }
            #expect(try await tokens() == 1)

            let sandbox = try Sandbox()
            let login = try await sandbox.swaggerctl(["login", "-s", server.origin, "--with-token"], stdin: token)
            #expect(login.status == 0, "\(login)")
            #expect(login.stderr.hasSuffix("Logged in to \(server.origin) as ana@example.com.\n"), "\(login)")
            #expect(try await tokens() == 1, "the login made no token of its own")
            let items = try await sandbox.swaggerctl("api", "/api/items/", "--jq", ".count")
            #expect(items.status == 0 && items.stdout == "25\n", "\(items)")

            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0, "\(logout)")
            #expect(logout.stderr == "Logged out ana@example.com from \(server.origin).\n", "\(logout)")
            #expect(try await tokens() == 0, "the logout ended the token on the server")

            // Described as a server that takes only the tokens people bring: no login, its token's header, its
            // pages. A password has nowhere to go; the token is all a session is.
            let described = try Sandbox()
            let set = try await described.swaggerctl(
                "server", "set", server.origin, "--set", "signIn=token", "--set", "token=Authorization: Token",
                "--set", "profile.request.url=/api/users/me/", "--set", "paging.page=page")
            #expect(set.status == 0, "\(set)")
            let show = try await described.swaggerctl("server", "show")
            #expect(show.row("Login")?.hasPrefix("none: the server takes a token you bring") == true, "\(show)")
            let password = try await described.swaggerctl(
                ["login", "-s", server.origin, "-u", "ana", "--password-stdin"], stdin: "whatever\n")
            #expect(password.status == 64 && password.stderr.contains("Log in with --with-token."), "\(password)")
            let second =
                try #require(
                    try JSONSerialization.jsonObject(
                        with: Data(
                            try await curl([
                                "-s", "-X", "POST", "-u", "ana:\(ServersByAddressTests.password)",
                                server.origin + "/api/auth/login/",
                            ]).stdout.utf8)) as? [String: Any])["token"] as? String
            let kept = try await described.swaggerctl(
                ["login", "-s", server.origin, "--with-token", "-q"], stdin: second)
            #expect(kept.status == 0, "\(kept)")
            let pages = try await described.swaggerctl("api", "/api/items/", "--paginate", "--slurp")
            let list = try JSONSerialization.jsonObject(with: Data(pages.stdout.utf8)) as? [Any]
            #expect(pages.status == 0 && list?.count == 25, "\(pages)")
            let local = try await described.swaggerctl("logout")
            #expect(local.status == 0 && local.stderr.contains("cannot revoke sessions"), "\(local)")
            #expect(try await tokens() == 1, "nothing described a way to end it, and it lives on, as the line said")
        }
    }
}
