import Foundation
import Testing

/// Four real server stacks, each set up as its own documentation tells a deployer, logged in to with nothing but their
/// address, at their origin or typed with their API's prefix: django-allauth's headless API (session tokens, and its
/// JWT strategy), Kinto and Synapse. Each is checked on the server's side: the session ended there, and no account
/// made by a login.
@Suite("Real servers by their address alone: allauth, allauth's JWT, Kinto, Synapse", .timeLimit(.minutes(15)))
struct ServerStacksTests {
    static let password = "Passw0rd!"

    /// allauth's `/test/state`: its users and its Django sessions.
    static func state(_ server: PythonServer) async throws -> (users: Int, sessions: Int) {
        let state = try await server.json(["-s", server.origin + "/test/state"])
        return (try #require(state["users"] as? Int), try #require(state["sessions"] as? Int))
    }

    @Test("allauth: by address, a session token; e-mail or user name; the server's words for a wrong password")
    func allauth() async throws {
        try await withPythonServer(.allauth) { server in
            let sandbox = try Sandbox()
            let wrong = try await sandbox.swaggerctl(
                ["login", "-s", server.origin, "-u", "ana", "--password-stdin"], stdin: "wrong\n")
            #expect(wrong.status == 4, "\(wrong)")
            #expect(wrong.stderr.contains("are not correct"), "\(wrong)")
            let login = try await sandbox.swaggerctl(
                ["login", "-s", server.origin, "-u", "ana", "--password-stdin"], stdin: Self.password + "\n")
            #expect(login.status == 0, "\(login)")
            #expect(login.stdout.contains("username             ana\n"), "\(login)")
            #expect(try await Self.state(server) == (users: 1, sessions: 1))
            let show = try await sandbox.swaggerctl("server", "show")
            #expect(
                show.row("Preset") == "allauth" && show.row("Token")?.hasPrefix("X-Session-Token") == true, "\(show)")
            // Logged out on the server: 401 is its logout's answer, and the session is gone there.
            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0 && logout.stderr == "Logged out ana from \(server.origin).\n", "\(logout)")
            #expect(try await Self.state(server) == (users: 1, sessions: 0))

            // By e-mail; then the session ends on the server (by another client), which answers 410 Gone.
            let byEmail = try await sandbox.swaggerctl(
                ["login", "-s", server.origin, "-e", "ana@example.com", "--password-stdin"],
                stdin: Self.password + "\n")
            #expect(byEmail.status == 0, "\(byEmail)")
            let token = try await sandbox.swaggerctl("token")
            let ended = try await curl([
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "DELETE", "-H",
                "X-Session-Token: \(token.stdout.trimmingCharacters(in: .newlines))",
                server.origin + "/_allauth/app/v1/auth/session",
            ])
            #expect(ended.stdout == "401", "\(ended)")
            let details = try await sandbox.swaggerctl("details")
            #expect(details.status == 4, "\(details)")
            #expect(details.stderr.contains("ended the session (HTTP 410 Gone)"), "\(details)")
            #expect(try sandbox.sessions.records().isEmpty)
            #expect(try await Self.state(server).users == 1, "no login makes an account")

            // Typed with its API's prefix: the document's paths, which start with it, are joined to it, not appended.
            let prefixed = try Sandbox()
            let api = server.origin + "/_allauth"
            let typed = try await prefixed.swaggerctl(
                ["login", "-s", api, "-u", "ana", "--password-stdin", "-q"], stdin: Self.password + "\n")
            #expect(typed.status == 0, "\(typed)")
            let joined = try await prefixed.swaggerctl("server", "show")
            #expect(joined.row("Login")?.hasPrefix("POST \(api)/app/v1/auth/login ") == true, "\(joined)")
            for path in ["/app/v1/auth/session", "/_allauth/app/v1/auth/session"] {
                let session = try await prefixed.swaggerctl("api", path, "--jq", ".data.user.username")
                #expect(session.status == 0 && session.stdout == "ana\n", "\(path): \(session)")
            }
            #expect(try await Self.state(server).sessions == 1)
            let out = try await prefixed.swaggerctl("logout")
            #expect(out.status == 0 && out.stderr == "Logged out ana from \(api).\n", "\(out)")
            #expect(try await Self.state(server).sessions == 0)
        }
    }

    @Test("allauth's JWT strategy: by address its session token works; as allauth-jwt, Bearer tokens renewed")
    func allauthJWT() async throws {
        try await withPythonServer(.allauthJWT) { server in
            let sandbox = try Sandbox()
            let login = try await sandbox.swaggerctl(
                ["login", "-s", server.origin, "-u", "ana", "--password-stdin"], stdin: Self.password + "\n")
            #expect(login.status == 0, "\(login)")
            #expect(try await sandbox.swaggerctl("details").status == 0)
            #expect(try await sandbox.swaggerctl("logout").status == 0)
            #expect(try await Self.state(server) == (users: 1, sessions: 0))

            let jwt = try await sandbox.swaggerctl(
                ["login", "-s", server.origin, "-u", "ana", "--password-stdin", "--preset", "allauth-jwt"],
                stdin: Self.password + "\n")
            #expect(jwt.status == 0, "\(jwt)")
            let first = try await sandbox.swaggerctl("token")
            // Past the access token's 5 minutes: details renews it at the refresh endpoint, whose answer is data.*.
            sandbox.advanceClock(by: .seconds(400))
            let details = try await sandbox.swaggerctl("details")
            #expect(details.status == 0, "\(details)")
            let renewed = try await sandbox.swaggerctl("token")
            #expect(renewed.status == 0 && renewed.stdout != first.stdout, "\(renewed)")
            let access = renewed.stdout.trimmingCharacters(in: .newlines)
            #expect(try await sandbox.swaggerctl("logout").status == 0)
            #expect(try await Self.state(server) == (users: 1, sessions: 0))
            let after = try await curl([
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(access)",
                server.origin + "/_allauth/app/v1/auth/session",
            ])
            #expect(["401", "410"].contains(after.stdout), "the token is refused after the logout: \(after)")
        }
    }

    @Test("Kinto: found at /v1, HTTP Basic on every request, the password kept and said so, and gone at logout")
    func kinto() async throws {
        try await withPythonServer(.kinto) { server in
            let sandbox = try Sandbox()
            let accounts = { () async throws -> String in
                let head = try await curl(["-sI", "-u", "admin:admin-Passw0rd!", server.origin + "/v1/accounts"])
                return head.stdout.split(separator: "\r\n").first { $0.lowercased().hasPrefix("total-objects:") }
                    .map(String.init) ?? head.stdout
            }
            let before = try await accounts()
            let root = try await sandbox.swaggerctl(
                ["login", "-s", server.origin, "-u", "ana", "--password-stdin"], stdin: Self.password + "\n")
            #expect(root.status == 64, "\(root)")
            #expect(root.stderr.contains("Did you mean \(server.origin)/v1?"), "\(root)")
            let api = server.origin + "/v1"
            let wrong = try await sandbox.swaggerctl(
                ["login", "-s", api, "-u", "ana", "--password-stdin"], stdin: "wrong\n")
            #expect(wrong.status == 4, "\(wrong)")
            let login = try await sandbox.swaggerctl(
                ["login", "-s", api, "-u", "ana", "--password-stdin"], stdin: Self.password + "\n")
            #expect(login.status == 0, "\(login)")
            #expect(login.stdout.contains("account:ana"), "\(login)")
            let status = try await sandbox.swaggerctl("status")
            #expect(status.row("Password in")?.hasPrefix("file") == true, "\(status)")
            // Every request carries the credentials: the API's own records are read with them.
            let records = try await sandbox.swaggerctl(
                "api", "/buckets/b/collections/c/records?_sort=n", "--paginate", "--slurp")
            #expect(records.status == 0, "\(records)")
            let items = try JSONSerialization.jsonObject(with: Data(records.stdout.utf8)) as? [[String: Any]]
            #expect(items?.compactMap { $0["n"] as? Int } == Array(1...25), "\(records)")
            #expect(try await accounts() == before, "no login makes an account")
            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0 && logout.stderr == "Logged out ana from \(api).\n", "\(logout)")
            #expect(try !sandbox.allFileContents().contains(Data("ana:\(Self.password)".utf8).base64EncodedString()))
        }
    }

    @Test("Synapse: the Matrix client API by address, a nested identifier, milliseconds, renewal and a logout it keeps")
    func synapse() async throws {
        try await withPythonServer(.synapse) { server in
            let sandbox = try Sandbox()
            let admin = try String(contentsOf: server.folder.appending(path: "admin_token"), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let users = { () async throws -> Int in
                let list = try await server.json([
                    "-s", "-H", "Authorization: Bearer \(admin)",
                    server.origin + "/_synapse/admin/v2/users?guests=false",
                ])
                return try #require(list["total"] as? Int)
            }
            let before = try await users()
            let wrong = try await sandbox.swaggerctl(
                ["login", "-s", server.origin, "-u", "ana", "--password-stdin"], stdin: "wrong\n")
            #expect(wrong.status == 4, "\(wrong)")
            let login = try await sandbox.swaggerctl(
                ["login", "-s", server.origin, "-u", "ana", "--password-stdin"], stdin: Self.password + "\n")
            #expect(login.status == 0, "\(login)")
            let host = try #require(URL(string: server.origin)?.host())
            #expect(login.stdout.contains("user_id    @ana:\(host)"), "\(login)")
            // expires_in_ms, read in milliseconds: five minutes, not eighty-three hours.
            let status = try await sandbox.swaggerctl("status")
            let expires = status.row("Expires") ?? ""
            #expect(expires.hasSuffix("(in 4 min)") || expires.hasSuffix("(in 5 min)"), "\(status)")
            let first = try await sandbox.swaggerctl("token")
            sandbox.advanceClock(by: .seconds(400))
            #expect(try await sandbox.swaggerctl("details").status == 0)
            let renewed = try await sandbox.swaggerctl("token")
            #expect(renewed.status == 0 && renewed.stdout != first.stdout, "\(renewed)")
            let access = renewed.stdout.trimmingCharacters(in: .newlines)
            // The directory of 25 rooms, 10 at a time: next_batch goes back as since, to the page without one.
            let rooms = try await sandbox.swaggerctl(
                "api", "/_matrix/client/v3/publicRooms?limit=10", "--paginate", "--jq", ".chunk[].name")
            #expect(rooms.status == 0, "\(rooms)")
            let names = Set(rooms.stdout.split(separator: "\n"))
            #expect(names == Set((1...25).map { "Room \($0)" }), "\(rooms)")
            #expect(try await sandbox.swaggerctl("logout").status == 0)
            let whoami = try await curl([
                "-s", "-H", "Authorization: Bearer \(access)", server.origin + "/_matrix/client/v3/account/whoami",
            ])
            #expect(whoami.stdout.contains("M_UNKNOWN_TOKEN"), "the server ended the session: \(whoami)")
            #expect(try await users() == before, "no login makes an account")

            // Typed with the client API's prefix, under which Matrix's version list is not: the protocol is asked for
            // at the origin too, and its steps are the origin's.
            let prefixed = try Sandbox()
            let api = server.origin + "/_matrix/client/v3"
            let typed = try await prefixed.swaggerctl(
                ["login", "-s", api, "-u", "ana", "--password-stdin", "-q"], stdin: Self.password + "\n")
            #expect(typed.status == 0, "\(typed)")
            let atOrigin = try await prefixed.swaggerctl("server", "show")
            #expect(atOrigin.row("Preset") == "matrix", "\(atOrigin)")
            #expect(atOrigin.row("Login")?.hasPrefix("POST \(api)/login ") == true, "\(atOrigin)")
            let directory = try await prefixed.swaggerctl(
                "api", "/publicRooms?limit=10", "--paginate", "--jq", ".chunk[].name")
            #expect(Set(directory.stdout.split(separator: "\n")).count == 25, "\(directory)")
            let token = try await prefixed.swaggerctl("token").stdout.trimmingCharacters(in: .newlines)
            #expect(try await prefixed.swaggerctl("logout").status == 0)
            let ended = try await curl([
                "-s", "-H", "Authorization: Bearer \(token)", server.origin + "/_matrix/client/v3/account/whoami",
            ])
            #expect(ended.stdout.contains("M_UNKNOWN_TOKEN"), "\(ended)")

            // A server name whose /.well-known/matrix/client names the homeserver on another origin: the password
            // goes there only once the person allows it.
            let wellKnown = Data(#"{"m.homeserver": {"base_url": "\#(server.origin)/"}}"#.utf8)
            try await FileServer.serve(wellKnown, at: "/.well-known/matrix/client") { name in
                let delegated = try Sandbox()
                let password = Self.password + "\n"
                let refused = try await delegated.swaggerctl(
                    ["login", "-s", name, "-u", "ana", "--password-stdin"], stdin: password)
                #expect(
                    refused.status == 64
                        && refused.stderr
                            == "swaggerctl: \(name) says it is served by \(server.origin) (/.well-known/matrix/client): "
                            + "log in there with --allow-origin \(server.origin) or -s \(server.origin).\n",
                    "\(refused)")
                #expect(try delegated.sessions.records().isEmpty)
                let allowed = try await delegated.swaggerctl(
                    ["login", "-s", name, "-u", "ana", "--password-stdin", "--allow-origin", server.origin],
                    stdin: password)
                #expect(
                    allowed.status == 0 && allowed.stderr.hasPrefix("Logged in to \(server.origin) as ana."),
                    "\(allowed)")
                #expect(try delegated.sessions.records().map(\.server.string) == [server.origin])

                let asked = try Sandbox()
                let terminal = try await asked.onTerminal("login", "-s", name, "-u", "ana")
                let status = try await terminal.answer([
                    ("Log in to \(server.origin)? [y/N] ", "y\n"),
                    ("Password for ana on \(server.origin): ", password),
                ])
                #expect(status == 0, "\(terminal.transcript)")
                #expect(
                    terminal.transcript.contains("\(name) says it is served by \(server.origin)"),
                    "\(terminal.transcript)")
                let declined = try await Sandbox().onTerminal("login", "-s", name, "-u", "ana")
                #expect(try await declined.answer([("Log in to \(server.origin)? [y/N] ", "n\n")]) == 130)
            }
        }
    }
}
