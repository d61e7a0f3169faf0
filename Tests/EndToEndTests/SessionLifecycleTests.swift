import Foundation
import SessionMachine
import SessionStorage
import SwaggerClient
import SwaggerHTTP
import SwaggerModel
import TestSupport
import Testing

@Suite("A session, from login to logout, across processes", .timeLimit(.minutes(15)))
struct SessionLifecycleTests {
    @Test("login stores the token and prints the profile; details in a new process reuses it; logout removes it")
    func loginDetailsLogout() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let login = try await sandbox.login(server.apiURL, email: "demo@example.com", password: "demo-password")
            #expect(login.status == 0, "\(login)")
            #expect(login.stdout.contains("First name         Ana\n"))
            #expect(login.stderr == "Logged in to \(server.apiURL) as demo@example.com.\n")

            // A new process with no flags finds the server last logged in to and its session.
            let details = try await sandbox.swaggerctl("details")
            #expect(details.status == 0, "\(details)")
            #expect(details.stdout == login.stdout)
            #expect(
                details.stdout.hasPrefix("ID                 1024\nFirst name         Ana\nLast name          Horvat\n")
            )

            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0, "\(logout)")
            #expect(logout.stderr == "Logged out demo@example.com from \(server.apiURL).\n")
            #expect(
                try await sandbox.file.credentials(for: Account(server: server.apiURL, name: "demo@example.com"))
                    == nil)
            #expect(try sandbox.sessions.records().isEmpty)

            let after = try await sandbox.swaggerctl("details", "-s", server.apiURL)
            #expect(after.status == 4)
            #expect(after.stderr.contains("not logged in to \(server.apiURL)"))
        }
    }

    @Test("a second login to the same account replaces its session: the earlier one is ended on the server, and said")
    func secondLogin() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let first = try await sandbox.login(server.apiURL, email: "demo@example.com", password: "demo-password")
            #expect(first.status == 0, "\(first)")
            let earlier = try await sandbox.swaggerctl("token").stdout.trimmingCharacters(in: .newlines)
            #expect(try await sandbox.swaggerctl(["details"], environment: ["SWAGGERCTL_TOKEN": earlier]).status == 0)

            let second = try await sandbox.login(server.apiURL, email: "demo@example.com", password: "demo-password")
            #expect(second.status == 0, "\(second)")
            #expect(
                second.stderr
                    == "Logged in to \(server.apiURL) as demo@example.com. This session replaces your earlier one, "
                    + "which the server ended.\n", "\(second)")
            // Another process with the earlier token: the server no longer takes it.
            let stale = try await sandbox.swaggerctl(["details"], environment: ["SWAGGERCTL_TOKEN": earlier])
            #expect(stale.status == 4, "\(stale)")
            #expect(try await sandbox.swaggerctl("details", "--no-cache").status == 0, "the new session works")
            #expect(try sandbox.sessions.records().count == 1)
        }
    }

    @Test("every request says User-Agent: swaggerctl/<version>; only the profile request carries the token")
    func requestHeaders() async throws {
        let sandbox = try Sandbox()
        let logins = FaultServer.Replies([.init(body: #"{"accessToken": "header-test-token"}"#)])
        let profiles = FaultServer.Replies([.init(body: "{}")])
        try await FaultServer.run(logins: logins, profiles: profiles) { url in
            let result = try await sandbox.login(url, email: "a@example.com", password: "pw")
            #expect(result.status == 0, "\(result)")
        }
        let userAgent = "swaggerctl/\(SwaggerctlVersion.current)"
        #expect(logins.headers.map { $0[.userAgent] } == [userAgent])
        #expect(logins.headers.map { $0[.authorization] } == [nil])
        #expect(profiles.headers.map { $0[.userAgent] } == [userAgent])
        #expect(profiles.headers.map { $0[.authorization] } == ["Bearer header-test-token"])
    }

    @Test("a logout killed at each of its writes leaves the session whole or gone, never a record without its tokens")
    func killedLogout() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            let account = Account(server: server.apiURL, name: Sandbox.demo.email)
            let session = try Data(contentsOf: sandbox.sessionsFile)
            let tokens = try Data(contentsOf: sandbox.credentialsFile)
            func restore() throws {
                try session.writePrivately(to: sandbox.sessionsFile)
                try tokens.writePrivately(to: sandbox.credentialsFile)
            }
            let log = sandbox.root.appending(path: "strace.log")
            func logout(killedAt point: (call: String, count: Int)?) async throws -> CommandResult {
                try await RefreshCrashTests.Trace.run(["logout", "--local"], in: sandbox, log: log, killedAt: point)
            }
            // Every write of a whole logout: each is a point to kill at.
            try #require(try await logout(killedAt: nil).status == 0)
            let points = try RefreshCrashTests.Trace(log).writePoints
            try #require(points.count >= 4, "\(points)")
            var outcomes = (whole: 0, gone: 0)
            for point in points {
                try restore()
                let killed = try await logout(killedAt: point)
                let place = "killed at \(point.call) #\(point.count) (exit \(killed.status))"
                let listed = try sandbox.sessions.records().contains { $0.account == account }
                let stored = try await sandbox.file.credentials(for: account) != nil
                if listed {
                    #expect(stored, "\(place): the session is listed, and its tokens are gone")
                    outcomes.whole += 1
                    continue
                }
                outcomes.gone += 1
                // Gone, perhaps with tokens left: the next logout on the server removes them.
                if stored {
                    #expect(try await sandbox.swaggerctl("logout", "--local").status == 0, "\(place)")
                    #expect(try await sandbox.file.credentials(for: account) == nil, "\(place)")
                }
            }
            // Both kinds of end were reached: killed before the record went, and after.
            #expect(outcomes.whole > 0 && outcomes.gone > 0, "\(outcomes)")
        }
    }

    @Test("logout when not logged in says so and exits 0")
    func logoutWhenLoggedOut() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.swaggerctl("logout", "-s", "http://127.0.0.1:9/api")
        #expect(result.status == 0)
        #expect(result.stderr == "Not logged in to http://127.0.0.1:9/api. Nothing to remove.\n")
    }

    @Test("the configuration folder is 0700 and every file in it 0600")
    func filePermissions() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let login = try await sandbox.login(server.apiURL, email: "demo@example.com", password: "demo-password")
            try #require(login.status == 0, "\(login)")
        }
        let manager = FileManager.default
        let folderMode = try manager.attributesOfItem(atPath: sandbox.configDirectory.path)[.posixPermissions] as? Int
        #expect(folderMode == 0o700)
        let names = try manager.contentsOfDirectory(atPath: sandbox.configDirectory.path).sorted()
        #expect(
            names == [
                ".credentials.json.lock", ".servers.json.lock", ".sessions.json.lock", "credentials.json",
                "servers.json", "sessions.json",
            ])
        for name in names {
            let mode =
                try manager.attributesOfItem(atPath: sandbox.configDirectory.appending(path: name).path)[
                    .posixPermissions] as? Int
            #expect(mode == 0o600, "\(name)")
        }
    }

    @Test("token prints the access token alone; status lists the session and never the token")
    func tokenAndStatus() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let login = try await sandbox.login(server.apiURL, email: "demo@example.com", password: "demo-password")
            try #require(login.status == 0, "\(login)")
            let stored = try #require(
                try await sandbox.file.credentials(for: Account(server: server.apiURL, name: "demo@example.com")))
            let accessToken = try #require(stored.accessToken)

            let token = try await sandbox.swaggerctl("token")
            #expect(token.status == 0)
            #expect(token.stdout == accessToken + "\n")
            #expect(token.stderr.isEmpty)

            for format in ["table", "json"] {
                let status = try await sandbox.swaggerctl("status", "--format", format)
                #expect(status.status == 0)
                #expect(status.stdout.contains(server.apiURL))
                #expect(status.stdout.contains("demo@example.com"))
                #expect(!status.stdout.contains(accessToken))
                #expect(!status.stdout.contains(try #require(stored.refreshToken)))
            }
            let json = try await sandbox.swaggerctl("status", "--format", "json")
            let sessions = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
            #expect(sessions?.count == 1)
            #expect(sessions?.first?["keystore"] as? String == "file")
            #expect(sessions?.first?["expiresAt"] is String)
            #expect(sessions?.first?["active"] as? Bool == true)
        }
    }

    @Test("no output, file or error ever contains the password")
    func passwordNeverLeaks() async throws {
        let sandbox = try Sandbox()
        let password = "demo-password"
        try await withDemoServer { server in
            var outputs = [try await sandbox.login(server.apiURL, email: "demo@example.com", password: password)]
            outputs.append(try await sandbox.login(server.apiURL, email: "demo@example.com", password: password + "x"))
            outputs.append(try await sandbox.swaggerctl("details"))
            outputs.append(try await sandbox.swaggerctl("status"))
            for output in outputs {
                #expect(!output.stdout.contains(password) && !output.stderr.contains(password))
            }
            #expect(!(try sandbox.allFileContents()).contains(password))
        }
    }

    @Test("--format json prints the profile with every field")
    func jsonDetails() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let login = try await sandbox.login(
                server.apiURL, email: "demo@example.com", password: "demo-password", extra: ["--format", "json"])
            #expect(login.status == 0, "\(login)")
            let object = try JSONSerialization.jsonObject(with: Data(login.stdout.utf8)) as? [String: Any]
            #expect(object?["id"] as? Int == 1024)
            #expect(object?["adress"] as? String == "Ulica kralja Zvonimira 12, 40000 Čakovec")
            #expect((object?["organisation"] as? [String: Any])?["city"] as? String == "Zagreb")
        }
    }
}
