import Foundation
import SwaggerModel
import Testing

/// Servers whose steps none of the older words could describe, each set up as its own documentation tells a deployer
/// and logged in to with nothing but its address: Keystone (a token in a header, an absolute expiry, the user id in
/// the profile's URL), etcd (a bare token, a refusal that is a 400, a profile that is a POST), django-rest-knox (the
/// password once by HTTP Basic), RabbitMQ (HTTP Basic on every request, pages that count themselves) and Django
/// Ninja's offsets. Each is checked on the server's side: the session ended there where it can be, and no account
/// was made.
@Suite("Servers by their address alone, checked on the server's side", .timeLimit(.minutes(15)))
struct ServersByAddressTests {
    static let password = "Passw0rd!"

    @Test("Keystone: found at /v3, its token in a header, the profile by the login's user id, a logout that revokes")
    func keystone() async throws {
        try await withKeystone { keystone in
            let sandbox = try Sandbox()
            let users = try await keystone.userCount()
            let wrong = try await sandbox.swaggerctl(
                ["login", "-s", keystone.origin, "-u", "ana", "--password-stdin"], stdin: "wrong\n")
            #expect(wrong.status == 4, "\(wrong)")
            #expect(try sandbox.sessions.records().isEmpty)

            let login = try await sandbox.swaggerctl(
                ["login", "-s", keystone.origin, "-u", "ana", "--password-stdin"], stdin: Self.password + "\n")
            #expect(login.status == 0, "\(login)")
            #expect(login.stdout.contains("email                ana@example.com\n"), "\(login)")
            let show = try await sandbox.swaggerctl("server", "show")
            #expect(show.row("Preset") == "keystone" && show.row("Token")?.hasPrefix("X-Auth-Token") == true, "\(show)")
            // The profile's URL is the login's user id, kept with the session for every later command.
            let id = try await keystone.userID(named: "ana")
            #expect(show.row("Profile")?.hasPrefix("GET \(keystone.origin)/users/{user_id} ") == true, "\(show)")
            let details = try await sandbox.swaggerctl("details", "--format", "json")
            #expect(details.status == 0 && details.stdout.contains(#""id": "\#(id)""#), "\(details)")
            let token = try await sandbox.swaggerctl("token")
            let access = token.stdout.trimmingCharacters(in: .newlines)
            #expect(try await keystone.isValid(access))
            // The expiry is Keystone's own, to the second, not a guess.
            let said = try #require(try await keystone.validation(access).token?["expires_at"] as? String)
            let expiry = try #require(ISO8601DateFormatter.fractional.date(from: said))
            let stored = try #require(try sandbox.sessions.records().first?.expiresAt)
            #expect(abs(stored.timeIntervalSince(expiry)) < 1, "\(stored) against Keystone's \(said)")
            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0 && logout.stderr == "Logged out ana from \(keystone.origin).\n", "\(logout)")
            #expect(try await !keystone.isValid(access), "the logout revoked the token on the server")
            #expect(try await keystone.userCount() == users, "no login makes an account")

            // Described by hand, as Docs/servers.md does with `server set --set` alone: the same session.
            let byHand = try Sandbox()
            try await HandWritten.describe("keystone.example.com/v3", as: keystone.origin, in: byHand)
            let handLogin = try await byHand.swaggerctl(
                ["login", "-s", keystone.origin, "-u", "ana", "--password-stdin"], stdin: Self.password + "\n")
            #expect(handLogin.status == 0 && handLogin.stdout == login.stdout, "\(handLogin)")
            let handToken = try await byHand.swaggerctl("token").stdout.trimmingCharacters(in: .newlines)
            #expect(try await keystone.isValid(handToken))
            #expect(try await byHand.swaggerctl("logout").status == 0)
            #expect(try await !keystone.isValid(handToken), "the logout by hand revoked the token too")

            // The admin's list of users, cut at list_limit: all of it or exit 1, never 10 of 26 with exit 0. Listing
            // users takes a token scoped to the system, which the login's body asks for, set by its path.
            let scoped = try await sandbox.swaggerctl(
                "server", "set", keystone.origin, "--set", #"login.request.json.auth.scope:={"system": {"all": true}}"#)
            #expect(scoped.status == 0, "\(scoped)")
            let admin = try await sandbox.swaggerctl(
                ["login", "-s", keystone.origin, "-u", "admin", "--password-stdin", "-q"], stdin: "admin-Passw0rd!\n")
            #expect(admin.status == 0, "\(admin)")
            let cut = try await sandbox.swaggerctl("api", "/users", "--paginate", "--slurp")
            #expect(cut.status == 1 && cut.stdout.isEmpty, "nothing of a list that is not whole: \(cut)")
            #expect(
                cut.stderr
                    == "swaggerctl: Stopped after 1 page, 10 items: the server cut the list "
                    + "($response.body#/truncated == true). Filter it.\n", "\(cut)")

            // A login whose profile cannot be used keeps nothing, and ends on Keystone the token it was given.
            let events = try await keystone.revocationEvents()
            _ = try await sandbox.swaggerctl("server", "set", keystone.origin, "--set", "profile.unwrap=nothing")
            let unusable = try await sandbox.swaggerctl(
                ["login", "-s", keystone.origin, "-u", "admin", "--password-stdin"], stdin: "admin-Passw0rd!\n")
            #expect(unusable.status == 5 && unusable.stderr.contains("nothing was stored"), "\(unusable)")
            #expect(!unusable.stderr.contains("warning"), "\(unusable)")
            #expect(try await keystone.revocationEvents() == events + 1, "the unkept token was revoked")
        }
    }

    @Test("etcd: found by /version, a bare token, its 400 for a wrong password, and an honest logout")
    func etcd() async throws {
        try await withEtcd { etcd in
            let sandbox = try Sandbox()
            let wrong = try await sandbox.swaggerctl(
                ["login", "-s", etcd.origin, "-u", "ana", "--password-stdin"], stdin: "wrong\n")
            #expect(wrong.status == 4, "\(wrong)")
            #expect(wrong.stderr.contains("invalid user ID or passwo"), "the server's words: \(wrong)")

            let login = try await sandbox.swaggerctl(
                ["login", "-s", etcd.origin, "-u", "ana", "--password-stdin"], stdin: Self.password + "\n")
            #expect(login.status == 0, "\(login)")
            #expect(login.stdout.contains(#"roles              ["items"]"#), "\(login)")
            let show = try await sandbox.swaggerctl("server", "show")
            #expect(show.row("Preset") == "etcd" && show.row("Token")?.hasPrefix("Authorization (") == true, "\(show)")
            let token = try await sandbox.swaggerctl("token")
            let access = token.stdout.trimmingCharacters(in: .newlines)
            #expect(try await etcd.isValid(access))
            // Every request carries the token bare, as etcd takes it.
            let range = try await sandbox.swaggerctl(
                "api", "-X", "POST", "/v3/kv/range", "-f", "key=\(etcd.base64("items/01"))")
            #expect(range.status == 0 && range.stdout.contains(etcd.base64("item 1")), "\(range)")

            // etcd has no logout: the session ends here, and the line says the token lives on there.
            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0, "\(logout)")
            #expect(logout.stderr.contains("cannot revoke sessions, so its tokens stay valid there"), "\(logout)")
            #expect(try await etcd.isValid(access), "etcd still takes the token, as the line said")

            // A login whose profile cannot be used keeps nothing, and says the token etcd gave lives on.
            _ = try await sandbox.swaggerctl("server", "set", etcd.origin, "--set", "profile.unwrap=nothing")
            let unusable = try await sandbox.swaggerctl(
                ["login", "-s", etcd.origin, "-u", "ana", "--password-stdin"], stdin: Self.password + "\n")
            #expect(unusable.status == 5, "\(unusable)")
            #expect(
                unusable.stderr.hasPrefix(
                    "swaggerctl: warning: the login's token works until it expires: nothing ends it.\n"), "\(unusable)")
            #expect(try await etcd.users() == ["ana", "root"], "no login makes an account")

            // Described by hand, as Docs/servers.md does: the same login, its refusal and its profile.
            let byHand = try Sandbox()
            try await HandWritten.describe("etcd.example.com:2379", as: etcd.origin, in: byHand)
            let handWrong = try await byHand.swaggerctl(
                ["login", "-s", etcd.origin, "-u", "ana", "--password-stdin"], stdin: "wrong\n")
            #expect(handWrong.status == 4, "\(handWrong)")
            let handLogin = try await byHand.swaggerctl(
                ["login", "-s", etcd.origin, "-u", "ana", "--password-stdin"], stdin: Self.password + "\n")
            #expect(handLogin.status == 0 && handLogin.stdout == login.stdout, "\(handLogin)")
        }
    }

    @Test("django-rest-knox: from its document, the password once by HTTP Basic for a token, which the logout ends")
    func knox() async throws {
        try await withPythonServer(.knox) { server in
            let sandbox = try Sandbox()
            let tokens = { () async throws -> Int? in
                try await server.json(["-s", server.origin + "/api/test/tokens/"])["count"] as? Int
            }
            let wrong = try await sandbox.swaggerctl(
                ["login", "-s", server.origin, "-u", "ana", "--password-stdin"], stdin: "wrong\n")
            #expect(wrong.status == 4 && wrong.stderr.contains("Invalid username/password"), "\(wrong)")
            #expect(try await tokens() == 0)

            let login = try await sandbox.swaggerctl(
                ["login", "-s", server.origin, "-u", "ana", "--password-stdin"], stdin: Self.password + "\n")
            #expect(login.status == 0 && login.stdout.contains("email       ana@example.com\n"), "\(login)")
            #expect(
                login.stderr.hasPrefix(
                    "Found in /api/schema/: login POST /api/auth/login/, no refresh, logout POST /api/auth/logout/, "
                        + "profile GET /api/users/me/, token as Authorization: Token.\n"), "\(login)")
            #expect(try await tokens() == 1)
            let show = try await sandbox.swaggerctl("server", "show")
            #expect(show.row("Sends")?.hasPrefix("login by HTTP Basic once, for a token;") == true, "\(show)")
            // knox's expiry, ten hours on, as the answer wrote it with the server's offset.
            let record = try #require(try sandbox.sessions.records().first)
            let hours = (record.expiresAt?.timeIntervalSince(record.savedAt) ?? 0) / 3600
            #expect((9.9...10.1).contains(hours), "\(record.expiresAt as Any)")
            let items = try await sandbox.swaggerctl("api", "/api/items/", "--paginate", "--slurp")
            let list = try JSONSerialization.jsonObject(with: Data(items.stdout.utf8)) as? [Any]
            #expect(items.status == 0 && list?.count == 25, "\(items)")

            let access = try await sandbox.swaggerctl("token").stdout.trimmingCharacters(in: .newlines)
            // The session as it was, to log out of again once the server has ended it.
            let kept = sandbox.root.appending(path: "kept")
            try FileManager.default.copyItem(at: sandbox.configDirectory, to: kept)
            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0 && logout.stderr == "Logged out ana from \(server.origin).\n", "\(logout)")
            #expect(try await tokens() == 0, "the logout ended the token on the server")
            // knox refuses the ended token's logout with a 401, which the description does not count as ended: the
            // session goes from here, and the logout says the server was not told.
            try FileManager.default.removeItem(at: sandbox.configDirectory)
            try FileManager.default.moveItem(at: kept, to: sandbox.configDirectory)
            let again = try await sandbox.swaggerctl("logout")
            #expect(
                again.status == 1
                    && again.stderr.hasPrefix(
                        "swaggerctl: Logged out here, but the server was not told: it refused the request (HTTP 401)"),
                "\(again)")
            #expect(try sandbox.sessions.records().isEmpty)
            let refused = try await curl([
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Token \(access)",
                server.origin + "/api/users/me/",
            ])
            #expect(refused.stdout == "401", "\(refused)")

            // Described by hand, as Docs/servers.md does: the password once by Basic, a token the logout ends.
            let byHand = try Sandbox()
            try await HandWritten.describe("knox.example.com", as: server.origin, in: byHand)
            let handLogin = try await byHand.swaggerctl(
                ["login", "-s", server.origin, "-u", "ana", "--password-stdin"], stdin: Self.password + "\n")
            #expect(handLogin.status == 0 && handLogin.stdout == login.stdout, "\(handLogin)")
            #expect(try await tokens() == 1)
            #expect(try await byHand.swaggerctl("logout").status == 0)
            #expect(try await tokens() == 0, "the logout by hand ended the token too")
        }
    }

    @Test("RabbitMQ: found by its Basic challenge, the password on every request, its own pages, nothing to revoke")
    func rabbitMQ() async throws {
        try await withRabbitMQ { rabbit in
            let sandbox = try Sandbox()
            let wrong = try await sandbox.swaggerctl(
                ["login", "-s", rabbit.origin, "-u", "ana", "--password-stdin"], stdin: "wrong\n")
            #expect(
                wrong.status == 4 && wrong.stderr.hasPrefix("swaggerctl: Wrong user name or password for ana on "),
                "\(wrong)")
            #expect(try sandbox.sessions.records().isEmpty)

            let login = try await sandbox.swaggerctl(
                ["login", "-s", rabbit.origin, "-u", "ana", "--password-stdin"], stdin: Self.password + "\n")
            #expect(login.status == 0 && login.stdout.contains("name  ana\n"), "\(login)")
            let show = try await sandbox.swaggerctl("server", "show")
            #expect(
                show.row("Preset") == "rabbitmq" && show.row("Token")?.hasPrefix("Authorization: Basic") == true,
                "\(show)")
            // Its pages are numbered, and each says how many there are: three of ten, and no fourth asked for.
            let queues = try await sandbox.swaggerctl(
                "api", "/api/queues?page=1&page_size=10", "--paginate", "--slurp", "-v")
            let list = try JSONSerialization.jsonObject(with: Data(queues.stdout.utf8)) as? [[String: Any]]
            #expect(queues.status == 0 && list?.count == 25, "\(queues)")
            #expect(queues.stderr.split(separator: "\n").filter { $0.hasPrefix("> GET ") }.count == 3, "\(queues)")

            // What token hands out is the pair, and it says so; git gets the account and the password, which it
            // sends as its own Basic.
            let token = try await sandbox.swaggerctl("token")
            let pair = Data("ana:\(Self.password)".utf8).base64EncodedString()
            #expect(
                token.status == 0 && token.stdout == pair + "\n"
                    && token.stderr == "swaggerctl: warning: \(TokenUse.basicNotice)\n", "\(token)")
            let host = String(rabbit.origin.dropFirst("http://".count))
            let fill = try await sandbox.swaggerctl(
                ["git-credential", "get"], stdin: "protocol=http\nhost=\(host)\nusername=ana\n\n")
            #expect(fill.status == 0 && fill.stdout == "username=ana\npassword=\(Self.password)\n", "\(fill)")
            #expect(fill.stderr.isEmpty, "git sends the pair as Basic itself: nothing to warn of")

            let logout = try await sandbox.swaggerctl("logout")
            // Nothing on the server to end: the password, all the session was, is gone from here.
            #expect(logout.status == 0 && logout.stderr == "Logged out ana from \(rabbit.origin).\n", "\(logout)")
            #expect(try sandbox.sessions.records().isEmpty)
            #expect(try await rabbit.users() == ["admin", "ana"], "no login makes an account")

            // Described by hand, as Docs/servers.md does: Basic on every request.
            let byHand = try Sandbox()
            try await HandWritten.describe("rabbitmq.example.com:15672", as: rabbit.origin, in: byHand)
            let handLogin = try await byHand.swaggerctl(
                ["login", "-s", rabbit.origin, "-u", "ana", "--password-stdin"], stdin: Self.password + "\n")
            #expect(handLogin.status == 0 && handLogin.stdout == login.stdout, "\(handLogin)")
            let handQueues = try await byHand.swaggerctl(
                "api", "/api/queues?page=1&page_size=10", "--paginate", "--slurp")
            // The same queues; their statistics (reductions, idle_since) move between the two listings.
            let names = { (text: String) in
                (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])?.compactMap {
                    $0["name"] as? String
                }
            }
            #expect(handQueues.status == 0 && names(handQueues.stdout) == names(queues.stdout), "\(handQueues)")
            #expect(names(queues.stdout)?.count == 25)
        }
    }

    @Test("Django Ninja with ninja-jwt, described by hand as Docs/servers.md does: login, refresh, offsets, logout")
    func ninjaByHand() async throws {
        try await withPythonServer(.ninja) { server in
            let sandbox = try Sandbox()
            let api = server.origin + "/api"
            try await HandWritten.describe("ninja.example.com/api", as: api, in: sandbox)
            let wrong = try await sandbox.swaggerctl(
                ["login", "-s", api, "-u", "ana", "--password-stdin"], stdin: "wrong\n")
            #expect(wrong.status == 4, "\(wrong)")
            #expect(try sandbox.sessions.records().isEmpty)
            let login = try await sandbox.swaggerctl(
                ["login", "-s", api, "-u", "ana", "--password-stdin"], stdin: Self.password + "\n")
            #expect(login.status == 0 && login.stdout.contains("ana@example.com"), "\(login)")
            let first = try await sandbox.swaggerctl("token").stdout
            let refresh = try await sandbox.swaggerctl("refresh")
            #expect(refresh.status == 0 && refresh.stdout.hasPrefix("Refreshed the session"), "\(refresh)")
            #expect(try await sandbox.swaggerctl("token").stdout != first, "the refresh gave another access token")
            let items = try await sandbox.swaggerctl("api", "/items/limit-offset?limit=10", "--paginate", "--slurp")
            let list = try JSONSerialization.jsonObject(with: Data(items.stdout.utf8)) as? [[String: Any]]
            #expect(items.status == 0 && list?.compactMap { $0["id"] as? Int } == Array(1...25), "\(items)")
            let blacklisted = { () async throws -> Int? in
                try await server.json(["-s", server.origin + "/api/test/blacklisted"])["count"] as? Int
            }
            let before = try #require(try await blacklisted())
            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0, "\(logout)")
            #expect(
                logout.stderr.hasPrefix("swaggerctl: warning: \(api) ended the refresh token; its access token "),
                "\(logout)")
            #expect(try await blacklisted() == before + 1, "the logout blacklisted the refresh token")
        }
    }

    @Test("Django Ninja's LimitOffsetPagination, whose document declares offset: every item once, asked by offset")
    func ninjaOffsets() async throws {
        try await withPythonServer(.ninja) { server in
            let sandbox = try Sandbox()
            let api = server.origin + "/api"
            let login = try await sandbox.swaggerctl(
                ["login", "-s", api, "-u", "ana", "--password-stdin", "-q"], stdin: Self.password + "\n")
            try #require(login.status == 0, "\(login)")
            let show = try await sandbox.swaggerctl("server", "show")
            #expect(show.row("Pages")?.hasPrefix(#"by "page", offset in "offset" (from "#) == true, "\(show)")
            for path in ["/items/limit-offset?limit=10", "/items?page_size=10"] {
                let items = try await sandbox.swaggerctl("api", path, "--paginate", "--slurp", "-v")
                let list = try JSONSerialization.jsonObject(with: Data(items.stdout.utf8)) as? [[String: Any]]
                #expect(
                    items.status == 0 && list?.compactMap { $0["id"] as? Int } == Array(1...25), "\(path): \(items)")
                let asked = items.stderr.split(separator: "\n").filter { $0.hasPrefix("> GET ") }.count
                #expect(asked == 3, "\(path): three pages of ten: \(items.stderr)")
            }
            // Told that offset numbers pages, which gives each page but the first nine items seen already: exit 1,
            // and nothing of a list that is not whole.
            let wrong = try await sandbox.swaggerctl(
                "server", "set", api, "--set", "paging.page=offset", "--set", "paging.offset:=null")
            #expect(wrong.status == 0, "\(wrong)")
            let repeated = try await sandbox.swaggerctl("api", "/items/limit-offset?limit=10", "--paginate", "--slurp")
            #expect(repeated.status == 1 && repeated.stdout.isEmpty, "\(repeated)")
            #expect(repeated.stderr.contains("repeated the page before"), "\(repeated)")
        }
    }
}

extension ISO8601DateFormatter {
    /// Keystone's times: `2026-12-02T02:40:29.000000Z`.
    static var fractional: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
