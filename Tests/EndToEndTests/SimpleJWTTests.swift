import Foundation
import Testing

/// Django REST framework with djangorestframework-simplejwt, set up as its documentation does, with rotation
/// and the blacklist: `--kind simplejwt` and the profile's path are all a login needs.
@Suite("simplejwt: Django REST framework's JWT login, with rotation and the blacklist", .timeLimit(.minutes(15)))
struct SimpleJWTTests {
    static let ana = (user: "ana", password: "Passw0rd!")

    /// How many refresh tokens the server has blacklisted: spent by a rotation, or by a logout.
    static func blacklisted(_ server: PythonServer) async throws -> Int {
        try await server.json(["\(server.origin)/api/test/blacklisted/"])["count"] as? Int ?? -1
    }

    @Test(
        "login, refresh with rotation, every paginator's pages, a logout that blacklists; discovered or with the kind",
        arguments: [false, true])
    func session(discovered: Bool) async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.drf) { server in
            let api = "\(server.origin)/api"
            let described = discovered ? [] : ["--kind", "simplejwt", "--profile-path", "/users/me/"]
            let login = try await sandbox.swaggerctl(
                ["login", "-s", api, "-u", Self.ana.user, "--password-stdin"] + described,
                stdin: Self.ana.password + "\n")
            try #require(login.status == 0, "\(login)")
            #expect(login.stdout.contains("username    ana\n"), "\(login)")
            if discovered {
                #expect(
                    login.stderr.hasPrefix(
                        "Found in /api/schema/: login POST /api/token/, refresh POST "
                            + "/api/token/refresh/, logout POST /api/token/blacklist/, profile GET /api/users/me/.\n"),
                    "\(login)")
                // The users list and the user by id are not the current user.
                #expect(!login.stderr.contains("chose"), "\(login)")
            } else {
                #expect(!login.stderr.contains("Found in"), "\(login)")
            }
            let first = try await sandbox.swaggerctl("token").stdout

            let show = try await sandbox.swaggerctl("server", "show")
            let schema = "\(server.origin)/api/schema/"
            let from = discovered ? " (from \(schema))" : ""
            for (key, value) in [
                ("Preset", discovered ? nil : "simplejwt"),
                ("Login", #"POST \#(api)/token/ {"password":"{password}","username":"{account}"}\#(from)"#),
                ("Refresh", #"POST \#(api)/token/refresh/ {"refresh":"{refresh}"}\#(from)"#),
                (
                    "Logout",
                    #"POST \#(api)/token/blacklist/ Authorization: Bearer {access} {"refresh":"{refresh}"}\#(from)"#
                ),
                ("Profile", "GET \(api)/users/me/ Authorization: Bearer {access}\(discovered ? from : " (given)")"),
                ("Sends", "login JSON {username, password}; refresh JSON {refresh}; logout JSON {refresh}"),
                ("Found in", discovered ? schema : nil),
            ] {
                #expect(show.row(key) == value, "\(key): \(show)")
            }

            // Each rotation blacklists the refresh token it spent.
            let refresh = try await sandbox.swaggerctl("refresh")
            #expect(refresh.status == 0, "\(refresh)")
            #expect(try await Self.blacklisted(server) == 1)
            let second = try await sandbox.swaggerctl("token").stdout
            #expect(second != first)
            // Past the access token's 5 minutes, details renews it on its own.
            sandbox.advanceClock(by: .seconds(600))
            let details = try await sandbox.swaggerctl("details")
            #expect(details.status == 0 && details.stdout.contains("email       ana@example.com\n"), "\(details)")
            #expect(try await Self.blacklisted(server) == 2)

            for path in ["/items/page/", "/items/limit-offset/", "/items/cursor/"] {
                try await sandbox.expectEveryItem(of: path)
            }

            // With swaggerctl's clock ahead, each api command renewed the token too.
            let before = try await Self.blacklisted(server)
            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0 && !logout.stderr.contains("warning"), "\(logout)")
            // The access token the blacklist is sent with had expired: it was renewed first, which blacklisted the
            // refresh token it spent, and the logout blacklisted the renewed one.
            #expect(try await Self.blacklisted(server) == before + 2, "the logout blacklisted the refresh token")
        }
    }

    @Test("an operation whose body drf-spectacular describes with its read-only id as required is sent without it")
    func readOnlyRequired() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.drf) { server in
            let login = try await sandbox.swaggerctl(
                ["login", "-s", "\(server.origin)/api", "-u", Self.ana.user, "--password-stdin"],
                stdin: Self.ana.password + "\n")
            try #require(login.status == 0, "\(login)")
            // Note's schema: {"required": ["id", "text"], "properties": {"id": {"readOnly": true}, …}}.
            let created = try await sandbox.swaggerctl("api", "notes_create", "-f", "text=hello")
            #expect(created.status == 0 && created.stdout.contains(#""text":"hello""#), "\(created)")
            // A required member that is not read-only is still demanded, and nothing is sent.
            let missing = try await sandbox.swaggerctl("api", "notes_create")
            #expect(missing.status == 64, "\(missing)")
            #expect(missing.stderr == "swaggerctl: notes_create needs -f text (a string).\n", "\(missing)")
            let notes = try await server.json(["\(server.origin)/api/test/notes/"])
            #expect(notes["texts"] as? [String] == ["hello"], "\(notes)")
        }
    }

    @Test("a wrong password is refused with the server's words; a preset's missing profile comes from the document")
    func refusals() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.drf) { server in
            let wrong = try await sandbox.swaggerctl(
                [
                    "login", "-s", "\(server.origin)/api", "-e", Self.ana.user, "--password-stdin", "--kind",
                    "simplejwt",
                    "--profile-path", "/users/me/",
                ], stdin: "wrong\n")
            #expect(wrong.status == 4, "\(wrong)")
            #expect(wrong.stderr.contains("No active account found with the given credentials"), "\(wrong)")
            // The preset has no profile of its own; the server's document names it, and is read for it.
            let fromDocument = try await sandbox.swaggerctl(
                [
                    "login", "-s", "\(server.origin)/api", "-e", Self.ana.user, "--password-stdin", "--kind",
                    "simplejwt",
                ],
                stdin: Self.ana.password + "\n")
            #expect(fromDocument.status == 0, "\(fromDocument)")
            let show = try await sandbox.swaggerctl("server", "show")
            #expect(show.row("Preset") == "simplejwt", "\(show)")
            #expect(
                show.row("Profile")
                    == "GET \(server.origin)/api/users/me/ Authorization: Bearer {access} (from \(server.origin)/api/schema/)",
                "\(show)")
        }
    }
}
