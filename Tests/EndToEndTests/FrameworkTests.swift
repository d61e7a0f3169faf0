import Foundation
import Testing

/// Servers made with the widely used Python frameworks, each set up as its own documentation says, and none of them
/// known to swaggerctl by name: the address and the account are all a login needs, and what the server's document
/// describes is what swaggerctl does.
@Suite("Frameworks: a login from the address alone, to servers nobody here described", .timeLimit(.minutes(15)))
struct FrameworkTests {
    static let password = "Passw0rd!\n"

    /// One framework's server, and what its document says swaggerctl should do.
    struct Stack: Sendable, CustomTestStringConvertible {
        var fixture: PythonServer.Fixture
        var account: [String]
        /// The discovery line, after "Found in ".
        var found: String
        var sends: String
        /// How its lists are paged, as `server show` says it: the parameters its document declares.
        var pages: String
        var items: String
        var refreshes: Bool
        /// How a request carries the token, before the token itself.
        var carries: String
        /// The profile the token reads, to see the token stop working.
        var profile: String
        /// Where the server counts what a logout does, and by how much a logout changes the count.
        var counter: String
        var change: Int
        /// Whether the logout ends the access token itself, rather than the refresh token only.
        var endsAccess: Bool

        var testDescription: String { fixture.rawValue }
    }

    static let stacks = [
        Stack(
            fixture: .djRestAuth, account: ["-e", "ana@example.com"],
            found: "/api/schema/: login POST /api/auth/login/, no refresh, logout POST /api/auth/logout/, profile GET "
                + "/api/auth/user/, token as Authorization: Token.",
            sends: "login JSON {username, email, password}; no refresh; logout POST with each token as the bearer",
            pages: #"by "page""#, items: "/api/items/", refreshes: false, carries: "Authorization: Token ",
            profile: "/api/auth/user/", counter: "/api/test/tokens/", change: -1, endsAccess: true),
        Stack(
            fixture: .ninja, account: ["-u", "ana"],
            found: "/api/openapi.json: login POST /api/token/pair, refresh POST /api/token/refresh, logout POST "
                + "/api/token/blacklist, profile GET /api/me.",
            sends: "login JSON {username, password}; refresh JSON {refresh}; logout JSON {refresh}",
            pages: #"by "page", offset in "offset""#, items: "/api/items", refreshes: true,
            carries: "Authorization: Bearer ", profile: "/api/me",
            counter: "/api/test/blacklisted", change: 1, endsAccess: false),
        Stack(
            fixture: .litestar, account: ["-e", "ana@example.com"],
            found: "/schema/openapi.json: login POST /login, refresh POST /refresh, logout POST /logout, profile GET "
                + "/me.",
            sends: "login JSON {email, password}; refresh JSON {refresh_token}; logout POST with each token as the "
                + "bearer",
            pages: #"by "current_page""#, items: "/items", refreshes: true, carries: "Authorization: Bearer ",
            profile: "/me",
            counter: "/test/revoked", change: 1, endsAccess: true),
        Stack(
            fixture: .restx, account: ["-u", "ana"],
            found: "/swagger.json: login POST /auth/login, refresh POST /auth/refresh, logout DELETE /auth/logout, "
                + "profile GET /auth/me.",
            sends: "login JSON {username, password}; refresh token as the bearer; logout DELETE with each token as "
                + "the bearer",
            pages: #"by "page""#, items: "/items", refreshes: true, carries: "Authorization: Bearer ",
            profile: "/auth/me",
            counter: "/test/revoked", change: 2, endsAccess: true),
        Stack(
            fixture: .apiflask, account: ["-e", "ana@example.com"],
            found: "/openapi.json: login POST /login, no refresh, logout POST /logout, profile GET /me, token as "
                + "X-API-Key.",
            sends: "login JSON {email, password}; no refresh; logout POST with each token in X-API-Key",
            pages: #"by "page""#,
            items: "/items", refreshes: false, carries: "X-API-Key: ", profile: "/me", counter: "/test/tokens",
            change: -1, endsAccess: true),
    ]

    /// The count the server keeps at `path`.
    static func count(_ server: PythonServer, _ path: String) async throws -> Int {
        try #require(try await server.json(["\(server.origin)\(path)"])["count"] as? Int)
    }

    /// The HTTP status of the profile with `token`, carried as `stack` carries it.
    static func profileStatus(_ server: PythonServer, _ stack: Stack, _ token: String) async throws -> String {
        try await curl([
            "-o", "/dev/null", "-w", "%{http_code}", "-H", stack.carries + token, server.origin + stack.profile,
        ])
        .stdout
    }

    @Test("login, server show, every page, refresh where offered, and a logout the server sees", arguments: stacks)
    func session(stack: Stack) async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(stack.fixture) { server in
            let login = try await sandbox.swaggerctl(
                ["login", "-s", server.origin] + stack.account + ["--password-stdin"], stdin: Self.password)
            try #require(login.status == 0, "\(login)")
            #expect(login.stderr.hasPrefix("Found in \(stack.found)\n"), "\(login)")
            #expect(login.stdout.contains("ana@example.com\n"), "\(login)")

            let document = "\(server.origin)\(stack.found.prefix { $0 != ":" })"
            let show = try await sandbox.swaggerctl("server", "show")
            #expect(show.row("Sends") == stack.sends, "\(show)")
            #expect(show.row("Pages") == "\(stack.pages) (from \(document))", "\(show)")
            #expect(show.row("Found in") == document, "\(show)")
            #expect(show.row("Preset") == nil, "nothing named the server's family: \(show)")

            try await sandbox.expectEveryItem(of: stack.items)

            let refresh = try await sandbox.swaggerctl("refresh")
            #expect(refresh.status == 0, "\(refresh)")
            #expect(refresh.stdout.hasPrefix(stack.refreshes ? "Refreshed the session" : "\(server.origin) gave no"))

            let token = try await sandbox.swaggerctl("token").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(try await Self.profileStatus(server, stack, token) == "200")
            let before = try await Self.count(server, stack.counter)
            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0, "\(logout)")
            // A logout that ended the refresh token only says that the access token works on, as it does.
            let stays =
                stack.endsAccess
                ? ""
                : "swaggerctl: warning: \(server.origin) ended the refresh token; its access token stays valid there "
            #expect(logout.stderr.hasPrefix(stays), "\(logout)")
            #expect(logout.stderr.hasSuffix("Logged out \(stack.account[1]) from \(server.origin).\n"), "\(logout)")
            #expect(logout.stderr.split(separator: "\n").count == (stack.endsAccess ? 1 : 2), "\(logout)")
            #expect(try await Self.count(server, stack.counter) == before + stack.change, "the server saw the logout")
            #expect(try await Self.profileStatus(server, stack, token) == (stack.endsAccess ? "401" : "200"))
            #expect(try await sandbox.swaggerctl("status").stdout.isEmpty)
        }
    }

    @Test("a refused password gets the server's own words and exit 4; nothing is stored")
    func refusedPassword() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.djRestAuth) { server in
            let wrong = try await sandbox.swaggerctl(
                ["login", "-s", server.origin, "-u", "ana", "--password-stdin"], stdin: "wrong\n")
            #expect(wrong.status == 4, "\(wrong)")
            #expect(
                wrong.stderr.hasSuffix(
                    "swaggerctl: \(server.origin) refused the login (HTTP 400): \"Unable to log in with "
                        + "provided credentials\". Check the account and password.\n"),
                "\(wrong)")
            #expect(try await sandbox.swaggerctl("status").stdout.isEmpty)
        }
    }

    @Test("a profile refused under Bearer is asked for again under the scheme the server names, which is kept")
    func challengedScheme() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.djRestAuth) { server in
            // Described by hand without the token's scheme: the server's 401 names "Token".
            let set = try await sandbox.swaggerctl(
                "server", "set", server.origin, "--login-path", "/api/auth/login/", "--login-body", "json:username",
                "--access-token-field", "key", "--profile-path", "/api/auth/user/")
            try #require(set.status == 0, "\(set)")
            let login = try await sandbox.swaggerctl(
                ["login", "-s", server.origin, "-u", "ana", "--password-stdin"], stdin: Self.password)
            try #require(login.status == 0, "\(login)")
            #expect(login.stdout.contains("username    ana\n"), "\(login)")
            let show = try await sandbox.swaggerctl("server", "show")
            #expect(show.row("Token") == "Authorization: Token", "\(show)")
            #expect(try await sandbox.swaggerctl("details").status == 0)
        }
    }

    @Test("a document behind the login is given by URL: its login's other members, a wrapped profile, refresh, a list")
    func givenDocument() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.fab) { server in
            // Flask-AppBuilder serves its document only to a signed-in user: fetched once, as a person would.
            let login = try await server.json([
                "-H", "Content-Type: application/json", "-d",
                #"{"username": "ana", "password": "Passw0rd!", "provider": "db"}"#,
                "\(server.origin)/api/v1/security/login",
            ])
            let token = try #require(login["access_token"] as? String)
            let file = sandbox.root.appending(path: "fab-openapi.json")
            let fetched = try await curl([
                "-o", file.path, "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)",
                "\(server.origin)/api/v1/_openapi",
            ])
            try #require(fetched.stdout == "200", "\(fetched)")
            try await FileServer.serve(file) { url in
                let set = try await sandbox.swaggerctl("server", "set", server.origin, "--openapi", url)
                try #require(set.status == 0, "\(set)")
                let show = try await sandbox.swaggerctl("server", "show")
                #expect(
                    show.row("Sends")
                        == "login JSON {username, password, provider=db, refresh=true}; refresh token as the bearer; "
                        + "logout on this machine only", "\(show)")
                #expect(
                    show.row("Profile")
                        == "GET \(server.origin)/api/v1/me/ Authorization: Bearer {access} (the user in \"result\") (from \(url))",
                    "\(show)")
            }
            let signedIn = try await sandbox.swaggerctl(
                ["login", "-s", server.origin, "-u", "ana", "--password-stdin"], stdin: Self.password)
            try #require(signedIn.status == 0, "\(signedIn)")
            #expect(signedIn.stdout.contains("first_name  Ana\n"), "\(signedIn)")
            let refresh = try await sandbox.swaggerctl("refresh")
            #expect(refresh.status == 0 && refresh.stdout.hasPrefix("Refreshed the session"), "\(refresh)")
            // Its lists answer {count, result} and page by a rison `q` no document names: never a partial list
            // with exit 0.
            let list = try await sandbox.swaggerctl("api", "/api/v1/item/", "--paginate", "--slurp")
            #expect(list.status == 1, "\(list)")
            #expect(list.stderr.contains(#"Stopped after 1 page: no parameter takes "count""#), "\(list)")
            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0 && logout.stderr.contains("cannot revoke sessions"), "\(logout)")
        }
    }
}
