import Foundation
import SessionMachine
import SessionStorage
import SwaggerClient
import SwaggerHTTP
import SwaggerModel
import TestSupport
import Testing

/// Several accounts on one or more servers: which one commands use, `switch`, and `logout --all`.
@Suite("Accounts: switch and logout --all", .timeLimit(.minutes(15)))
struct AccountsTests {
    static let ana = (email: "ana@example.com", password: "ana-password")

    /// A demo server that knows `ana` as well as the built-in account.
    static func withTwoAccounts(
        _ sandbox: Sandbox, _ body: (DemoServerProcess) async throws -> Void
    ) async throws {
        let usersFile = sandbox.root.appending(path: "users.json")
        try JSONSerialization.data(withJSONObject: [["email": ana.email, "password": ana.password]])
            .write(to: usersFile)
        try await withDemoServer(["--users", usersFile.path], body)
    }

    /// The e-mail in the profile that `details` shows, and the token `token` prints, each from a new process.
    static func inUse(_ sandbox: Sandbox, _ arguments: String...) async throws -> (email: String?, token: String) {
        let details = try await sandbox.swaggerctl(["details", "--format", "json"] + arguments)
        try #require(details.status == 0, "\(details)")
        let profile = try JSONSerialization.jsonObject(with: Data(details.stdout.utf8)) as? [String: Any]
        let token = try await sandbox.swaggerctl(["token"] + arguments)
        try #require(token.status == 0, "\(token)")
        return (profile?["email"] as? String, token.stdout.trimmingCharacters(in: .newlines))
    }

    static func storedToken(_ sandbox: Sandbox, _ server: String, _ email: String) async throws -> String? {
        try await sandbox.file.credentials(for: Account(server: server, name: email))?.accessToken
    }

    @Test("switch changes which account details and token use in later processes, until a later login")
    func switchAccounts() async throws {
        let sandbox = try Sandbox()
        try await Self.withTwoAccounts(sandbox) { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            let login = try await sandbox.login(server.apiURL, email: Self.ana.email, password: Self.ana.password)
            try #require(login.status == 0, "\(login)")

            var used = try await Self.inUse(sandbox)
            #expect(used.email == Self.ana.email)
            #expect(used.token == (try await Self.storedToken(sandbox, server.apiURL, Self.ana.email)))

            let switched = try await sandbox.swaggerctl("switch", "-e", Sandbox.demo.email)
            #expect(switched.status == 0, "\(switched)")
            #expect(
                switched.stderr
                    == "Switched to \(Sandbox.demo.email) on \(server.apiURL), which is now the default server.\n")
            #expect(switched.stdout.isEmpty)

            used = try await Self.inUse(sandbox)
            #expect(used.email == Sandbox.demo.email)
            #expect(used.token == (try await Self.storedToken(sandbox, server.apiURL, Sandbox.demo.email)))
            let status = try await sandbox.swaggerctl("status")
            #expect(
                status.stdout.contains(
                    "\(server.apiURL) (default; active: chosen with swaggerctl switch)\nAccount   demo@"))

            // -e still picks the other account for one command, without switching.
            #expect(try await Self.inUse(sandbox, "-e", Self.ana.email).email == Self.ana.email)
            #expect(try await Self.inUse(sandbox).email == Sandbox.demo.email)

            // A new login makes its own account the active one again.
            _ = try await sandbox.login(server.apiURL, email: Self.ana.email, password: Self.ana.password)
            #expect(try await Self.inUse(sandbox).email == Self.ana.email)
            let json = try await sandbox.swaggerctl("status", "--format", "json")
            let listed = try #require(
                try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
            #expect(listed.map { $0["email"] as? String } == [Self.ana.email, Sandbox.demo.email])
            #expect(listed.map { $0["activeBecause"] as? String } == ["latest-login", nil])
        }
    }

    @Test("a refresh of another account, for a command with -e, does not make it the active one")
    func refreshKeepsActive() async throws {
        let sandbox = try Sandbox()
        let usersFile = sandbox.root.appending(path: "users.json")
        try JSONSerialization.data(withJSONObject: [["email": Self.ana.email, "password": Self.ana.password]])
            .write(to: usersFile)
        try await withDemoServer(["--users", usersFile.path]) { server in
            _ = try await sandbox.login(server.apiURL, email: Self.ana.email, password: Self.ana.password)
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            try #require(try await sandbox.swaggerctl("switch", "-e", Self.ana.email).status == 0)
            try await sandbox.advanceClock(by: DemoServerProcess.pastExpiry, with: server)

            #expect(try await Self.inUse(sandbox, "-e", Sandbox.demo.email).email == Sandbox.demo.email)
            #expect(server.logLines(containing: "refresh token rotated") >= 1)
            #expect(try sandbox.sessions.records().first?.name == Self.ana.email)
        }
    }

    @Test("switch -s makes another server the default one for commands without -s")
    func switchServer() async throws {
        let sandbox = try Sandbox()
        try await withDemoServers { first, second in
            try #require(try await sandbox.loginAsDemo(first.apiURL).status == 0)
            try #require(try await sandbox.loginAsDemo(second.apiURL).status == 0)
            let before = try await sandbox.swaggerctl("logout", "--local")
            #expect(before.stderr.contains("from \(second.apiURL)"), "\(before)")
            try #require(try await sandbox.loginAsDemo(second.apiURL).status == 0)

            let switched = try await sandbox.swaggerctl("switch", "-s", first.apiURL)
            #expect(switched.status == 0, "\(switched)")
            let after = try await sandbox.swaggerctl("logout", "--local")
            #expect(after.stderr.contains("from \(first.apiURL)"), "\(after)")
        }
    }

    @Test("-s without a scheme on loopback is http://, said once on stderr, and the session is the URL's")
    func addressWithoutScheme() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let typed = String(server.apiURL.dropFirst("http://".count))
            let login = try await sandbox.loginAsDemo(typed, extra: ["-q"])
            #expect(login.status == 0, "\(login)")
            #expect(
                login.stderr
                    == "swaggerctl: \(typed) has no scheme: taking it for http://, as the address is on this machine.\n"
            )
            #expect(try sandbox.sessions.records().map(\.server.string) == [server.apiURL])
            let details = try await sandbox.swaggerctl("details", "-s", typed)
            #expect(details.status == 0, "\(details)")
        }
    }

    @Test("switch to an account that is not logged in exits 4, names the ones that are, and changes nothing")
    func switchToUnknown() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            let before = try Data(contentsOf: sandbox.sessionsFile)
            let result = try await sandbox.swaggerctl("switch", "-s", server.apiURL, "-e", "nobody@example.com")
            #expect(result.status == 4)
            #expect(
                result.stderr
                    == "swaggerctl: nobody@example.com has no session on \(server.apiURL); demo@example.com is "
                    + "logged in there. Run `swaggerctl login -s \(server.apiURL) -e nobody@example.com`.\n")
            #expect(try Data(contentsOf: sandbox.sessionsFile) == before)
        }
    }

    @Test("switch without -e: off a terminal it names the accounts and exits 64; on one it asks which")
    func switchChooser() async throws {
        let sandbox = try Sandbox()
        try await Self.withTwoAccounts(sandbox) { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            _ = try await sandbox.login(server.apiURL, email: Self.ana.email, password: Self.ana.password)

            let script = try await sandbox.swaggerctl("switch")
            #expect(script.status == 64)
            #expect(
                script.stderr
                    == "swaggerctl: Name the account with -e; logged in to \(server.apiURL): ana@example.com, "
                    + "demo@example.com.\n")

            // An answer that is not one of the numbers is asked again, not taken for an error.
            let terminal = try await sandbox.onTerminal("switch")
            let status = try await onDedicatedThread {
                try terminal.read(until: "Switch to [1-2]: ")
                terminal.type("7\n")
                try terminal.read(until: "\"7\" is not one of the numbers 1 to 2.\r\nSwitch to [1-2]: ")
                terminal.type("2\n")
                return try terminal.finish()
            }
            #expect(status == 0, "\(terminal.transcript)")
            #expect(terminal.transcript.contains("\"7\" is not one of the numbers 1 to 2.\r\nSwitch to [1-2]: "))
            #expect(terminal.transcript.contains("  1. ana@example.com (active)\r\n  2. demo@example.com\r\n"))
            #expect(try await Self.inUse(sandbox).email == Sandbox.demo.email)

            let cancelled = try await sandbox.onTerminal("switch")
            let cancelledStatus = try await cancelled.answer("Switch to [1-2]: ", with: "\u{04}")
            #expect(cancelledStatus == 130, "\(cancelled.transcript)")
            #expect(try await Self.inUse(sandbox).email == Sandbox.demo.email)
        }
    }

    @Test("switch and logout name the accounts and servers that are logged in when the one asked for is not")
    func notThere() async throws {
        let sandbox = try Sandbox()
        try await Self.withTwoAccounts(sandbox) { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            try #require(
                try await sandbox.login(server.apiURL, email: Self.ana.email, password: Self.ana.password).status == 0)

            let elsewhere = try await sandbox.swaggerctl("switch", "-s", "http://127.0.0.1:9/other")
            #expect(elsewhere.status == 4, "\(elsewhere)")
            #expect(
                elsewhere.stderr
                    == "swaggerctl: You are not logged in to http://127.0.0.1:9/other. Run `swaggerctl switch -s "
                    + "\(server.apiURL)` to use the session there.\n")

            let nobody = try await sandbox.swaggerctl("logout", "-e", "nobody@example.com")
            #expect(nobody.status == 0, "\(nobody)")
            #expect(
                nobody.stderr
                    == "nobody@example.com has no session on \(server.apiURL); ana@example.com, demo@example.com "
                    + "are logged in there. Nothing to remove.\n")
            #expect(try sandbox.sessions.records().count == 2)

            // status marks the session that commands use by default, and lists only what -s and -e name.
            let status = try await sandbox.swaggerctl("status")
            #expect(
                status.stdout.contains(" \(server.apiURL) (default; active: logged in most recently)\n"), "\(status)")
            #expect(status.stdout.components(separatedBy: "(default").count == 2, "\(status)")
            let ana = try await sandbox.swaggerctl("status", "-e", Self.ana.email, "--format", "json")
            let listed = try JSONSerialization.jsonObject(with: Data(ana.stdout.utf8)) as? [[String: Any]]
            #expect(listed?.map { $0["email"] as? String } == [Self.ana.email], "\(ana)")
            #expect(listed?.first?["default"] as? Bool == true, "\(ana)")
            let none = try await sandbox.swaggerctl("status", "-s", "http://127.0.0.1:9/other")
            #expect(none.status == 4, "\(none)")
            #expect(none.stderr == "swaggerctl: No stored session matches -s http://127.0.0.1:9/other.\n")
        }
    }

    @Test("a command without -s stays on the server last logged in to when its session is gone, and names the others")
    func noDriftAfterLogout() async throws {
        let sandbox = try Sandbox()
        try await withDemoServers { first, second in
            try #require(try await sandbox.loginAsDemo(first.apiURL).status == 0)
            let moved = try await sandbox.loginAsDemo(second.apiURL)
            #expect(
                moved.stderr.contains(
                    "as demo@example.com. It is now the default server, in place of \(first.apiURL).\n"),
                "\(moved)")
            try #require(try await sandbox.swaggerctl("logout").status == 0)

            let token = try await sandbox.swaggerctl("token")
            #expect(token.status == 4, "\(token)")
            #expect(token.stdout.isEmpty, "the first server's token must not stand in for the second's")
            #expect(
                token.stderr
                    == "swaggerctl: You are not logged in to \(second.apiURL). Run `swaggerctl switch -s "
                    + "\(first.apiURL)` to use the session there.\n")
            #expect(try await sandbox.swaggerctl("details").status == 4)
            // The other server's session is untouched, and used when named.
            #expect(try await sandbox.swaggerctl("token", "-s", first.apiURL).status == 0)
        }
    }

    @Test("plain logout with several accounts refuses off a terminal; the active one's logout says who is active now")
    func logoutChooses() async throws {
        let sandbox = try Sandbox()
        try await Self.withTwoAccounts(sandbox) { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            try #require(
                try await sandbox.login(server.apiURL, email: Self.ana.email, password: Self.ana.password).status == 0)

            let refused = try await sandbox.swaggerctl("logout")
            #expect(refused.status == 64, "\(refused)")
            #expect(
                refused.stderr
                    == "swaggerctl: Name the account with -e; logged in to \(server.apiURL): ana@example.com, "
                    + "demo@example.com.\n")
            #expect(try sandbox.sessions.records().count == 2, "nothing was logged out")

            let terminal = try await sandbox.onTerminal("logout", "--local")
            let status = try await terminal.answer("Log out of [1-2]: ", with: "1\n")
            #expect(status == 0, "\(terminal.transcript)")
            #expect(
                terminal.transcript.contains(
                    "Logged out ana@example.com from \(server.apiURL). demo@example.com is now the active account "
                        + "there."), "\(terminal.transcript)")
            #expect(try sandbox.sessions.records().map(\.name) == [Sandbox.demo.email])

            // With one account left, a plain logout needs no choice and names nobody else.
            let last = try await sandbox.swaggerctl("logout", "--local")
            #expect(last.stderr == "Logged out demo@example.com from \(server.apiURL).\n", "\(last)")
        }
    }

    @Test("a session the server ended hands the active role to the next account with a line that says so")
    func endedSessionSaysWhoIsActive() async throws {
        let sandbox = try Sandbox()
        try await Self.withTwoAccounts(sandbox) { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            try #require(
                try await sandbox.login(server.apiURL, email: Self.ana.email, password: Self.ana.password).status == 0)
            let ana = Account(server: server.apiURL, name: Self.ana.email)
            try await sandbox.file.store(Credentials(accessToken: "forged.token.value"), for: ana)

            let ended = try await sandbox.swaggerctl("details")
            #expect(ended.status == 4, "\(ended)")
            #expect(
                ended.stderr.hasPrefix(
                    "swaggerctl: warning: demo@example.com is now the active account on \(server.apiURL); `swaggerctl "
                        + "switch -s \(server.apiURL)` picks another.\nswaggerctl: The session has ended"),
                "\(ended)")
            #expect(try await Self.inUse(sandbox).email == Sandbox.demo.email)
        }
    }

    @Test("a new machine has no default server: login off a terminal says -s, on one asks; others exit 4")
    func newMachine() async throws {
        let sandbox = try Sandbox()
        let login = try await sandbox.swaggerctl(["login", "-e", "a@example.com", "--password-stdin"], stdin: "pw\n")
        #expect(login.status == 64, "\(login)")
        #expect(login.stderr == "swaggerctl: Which server? Give its URL with -s URL, or set SWAGGERCTL_SERVER.\n")
        for command in ["details", "token", "refresh", "api"] {
            let arguments = command == "api" ? [command, "/me"] : [command]
            let result = try await sandbox.swaggerctl(arguments)
            #expect(result.status == 4, "\(command): \(result)")
            #expect(
                result.stderr
                    == "swaggerctl: No server named and none logged in to. Run `swaggerctl login -s URL -e "
                    + "you@example.com`.\n", "\(command)")
        }
        let logout = try await sandbox.swaggerctl("logout")
        #expect(logout.status == 0 && logout.stderr == "Not logged in anywhere; nothing to remove.\n", "\(logout)")
        let token = try await sandbox.swaggerctl(["token"], environment: ["SWAGGERCTL_TOKEN": "abc"])
        #expect(token.status == 64 && token.stderr.contains("SWAGGERCTL_SERVER"), "\(token)")

        try await withDemoServer { server in
            let terminal = try await sandbox.onTerminal("login", "-e", Sandbox.demo.email)
            let status = try await terminal.answer([
                ("Server URL: ", "\(server.apiURL)\n"),
                // The server the login goes to is named: it came from no flag.
                ("Password for \(Sandbox.demo.email) on \(server.apiURL): ", "\(Sandbox.demo.password)\n"),
            ])
            #expect(status == 0, "\(terminal.transcript)")
            #expect(try sandbox.sessions.records().map(\.server.string) == [server.apiURL])
            #expect(try await sandbox.swaggerctl("token").status == 0, "the server asked for is the default now")
        }
    }

    @Test("a root URL typed at the prompt is offered its API: Enter logs in there, n exits 64 and stores nothing")
    func promptOffersTheAPI() async throws {
        try await withDemoServer { server in
            let root = try #require(URL(string: server.apiURL)).deletingLastPathComponent().absoluteString
            let typed = String(root.dropLast())
            for (answer, status) in [("\n", 0 as Int32), ("n\n", 64)] {
                let sandbox = try Sandbox()
                let terminal = try await sandbox.onTerminal("login", "-e", Sandbox.demo.email)
                var exchanges = [
                    ("Server URL: ", "\(typed)\n"),
                    ("Use \(server.apiURL)? [Y/n] ", answer),
                ]
                if status == 0 {
                    exchanges.append(
                        ("Password for \(Sandbox.demo.email) on \(server.apiURL): ", "\(Sandbox.demo.password)\n"))
                }
                let ended = try await terminal.answer(exchanges)
                #expect(ended == status, "\(terminal.transcript)")
                #expect(
                    terminal.transcript.contains(
                        "Nothing at \(typed) says how to log in; the API at \(server.apiURL) does."),
                    "\(terminal.transcript)")
                let stored = try sandbox.sessions.records().map(\.server.string)
                #expect(stored == (status == 0 ? [server.apiURL] : []), "\(terminal.transcript)")
            }
        }
    }

    @Test("logout --all removes every session on every server, keyring and file, and revokes each on its server")
    func logoutAll() async throws {
        let bus = try TestKeyring.busAddress()
        let sandbox = try Sandbox(environment: ["SWAGGERCTL_KEYRING": "auto", "DBUS_SESSION_BUS_ADDRESS": bus])
        try await Self.withTwoAccounts(sandbox) { first in
            try await withDemoServer { second in
                try #require(try await sandbox.loginAsDemo(first.apiURL).status == 0)
                let ana = try await sandbox.login(
                    first.apiURL, email: Self.ana.email, password: Self.ana.password, extra: ["--keyring", "file"])
                try #require(ana.status == 0, "\(ana)")
                try #require(try await sandbox.loginAsDemo(second.apiURL).status == 0)
                let records = try sandbox.sessions.records()
                #expect(Set(records.map(\.backend)) == [.keyring, .file])
                let keyring = TestKeyring.keyring(bus)
                var tokens: [String] = []
                for record in records {
                    let stored = try await sandbox.file.credentials(for: record.account)
                    let inKeyring = try await keyring.credentials(for: record.account)
                    tokens += [stored, inKeyring].compactMap { $0 }.flatMap { [$0.accessToken, $0.refreshToken] }
                        .compactMap { $0 }
                }
                #expect(tokens.count == 6)

                let result = try await sandbox.swaggerctl("logout", "--all")
                #expect(result.status == 0, "\(result)")
                #expect(result.stderr == "Logged out 3 sessions on 2 servers.\n")

                #expect(try sandbox.sessions.records().isEmpty)
                for record in records {
                    #expect(try await sandbox.file.credentials(for: record.account) == nil)
                    #expect(try await keyring.credentials(for: record.account) == nil)
                    #expect(try sandbox.profiles.profile(for: record.account) == nil)
                }
                let leftovers = try sandbox.allFileContents()
                for token in tokens { #expect(!leftovers.contains(token)) }
                // Each server revoked its sessions: the old refresh tokens no longer work.
                #expect(
                    first.logLines(containing: "logout: session revoked")
                        + second.logLines(containing: "logout: session revoked") == 3)

                let again = try await sandbox.swaggerctl("logout", "--all")
                #expect(again.status == 0)
                #expect(again.stderr == "Not logged in anywhere; nothing to remove.\n")
            }
        }
    }

    @Test("a session whose token is gone from its store is removed, and logout says the server was not told (exit 1)")
    func logoutWithoutToken() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            let account = try #require(try sandbox.sessions.records().first).account
            #expect(try await sandbox.file.removeCredentials(for: account))

            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 1, "\(logout)")
            #expect(
                logout.stderr
                    == "swaggerctl: Logged out here, but the server was not told: no store held the token, which "
                    + "\(server.apiURL) may still take.\n", "\(logout)")
            #expect(try sandbox.sessions.records().isEmpty)
            #expect(server.logLines(containing: "logout: session revoked") == 0)
        }
    }

    @Test(
        "logout --all goes on past a session whose keyring is out of reach; --local then forgets it, saying where its token may remain"
    )
    func logoutAllPastUnreachableKeyring() async throws {
        let bus = try TestKeyring.busAddress()
        let sandbox = try Sandbox(environment: ["SWAGGERCTL_KEYRING": "auto", "DBUS_SESSION_BUS_ADDRESS": bus])
        try await Self.withTwoAccounts(sandbox) { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            let ana = try await sandbox.login(
                server.apiURL, email: Self.ana.email, password: Self.ana.password, extra: ["--keyring", "file"])
            try #require(ana.status == 0, "\(ana)")
            let demo = Account(server: server.apiURL, name: Sandbox.demo.email)

            // Without the bus, the keyring's session cannot be removed; the file's is, and the server told.
            let noBus = ["DBUS_SESSION_BUS_ADDRESS": ""]
            let all = try await sandbox.swaggerctl(["logout", "--all"], environment: noBus)
            #expect(all.status == 1, "\(all)")
            let lines = all.stderr.split(separator: "\n")
            #expect(lines.first == "Logged out 1 session on 1 server.", "\(all)")
            #expect(lines.count == 2 && lines[1].hasPrefix("swaggerctl: \(Sandbox.demo.email): "), "\(all)")
            #expect(all.stderr.contains("`logout --local` forgets the session without it."), "\(all)")
            #expect(try sandbox.sessions.records().map(\.account) == [demo])
            #expect(server.logLines(containing: "logout: session revoked") == 1)

            let local = try await sandbox.swaggerctl(["logout", "--local"], environment: noBus)
            #expect(local.status == 0, "\(local)")
            #expect(
                local.stderr.hasPrefix(
                    "swaggerctl: warning: forgotten here, but its token may remain in the keyring, which refused to "
                        + "remove it.\n"),
                "\(local)")
            #expect(local.stderr.hasSuffix("Logged out \(Sandbox.demo.email) from \(server.apiURL).\n"), "\(local)")
            #expect(try sandbox.sessions.records().isEmpty)
            // The token is where the warning says: in the keyring, untouched.
            #expect(try await TestKeyring.keyring(bus).credentials(for: demo) != nil)
        }
    }
}
