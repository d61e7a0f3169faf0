import Foundation
import SessionMachine
import SessionStorage
import SwaggerClient
import SwaggerHTTP
import SwaggerModel
import TestSupport
import Testing

/// Sessions that outlive their access token: refresh and rotation across processes, revocation, the saved
/// profile, and `SWAGGERCTL_TOKEN`, against the demo server, whose clock and swaggerctl's the tests move.
@Suite("Sessions that last: refresh, rotation, revoke, offline", .timeLimit(.minutes(15)))
struct SessionRefreshTests {
    @Test("a refresh the server never answers is waited out once: the commands waiting for it fail the same way")
    func refreshTimeoutShared() async throws {
        let sandbox = try Sandbox(environment: ["SWAGGERCTL_TIMEOUT": "3"])
        let access = Fixtures.jwt(exp: Int(Date().timeIntervalSince1970) + 600)
        let login = FaultServer.Reply(body: #"{"accessToken":"\#(access)","refreshToken":"r1"}"#)
        let refreshes = FaultServer.Replies([FaultServer.Reply(body: "{}", held: true)])
        try await FaultServer.run(
            logins: .init([login]), profiles: .init([FaultServer.Reply(body: "{}")]), refreshes: refreshes
        ) { url in
            try #require(try await sandbox.login(url, email: "ana@example.com", password: "pw").status == 0)
            sandbox.advanceClock(by: .seconds(1200))
            let results = try await withThrowingTaskGroup(of: CommandResult.self) { group in
                for _ in 0..<6 { group.addTask { try await sandbox.swaggerctl("token") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.allSatisfy { $0.status == 3 }, "\(results)")
            #expect(Set(results.map(\.stderr)).count == 1, "\(results)")
            // One refresh, which every other command waited for; a second only from a command so slow to start
            // on a busy machine that it began waiting after the first had failed.
            #expect(refreshes.count <= 2, "\(refreshes.count) refreshes")
        }
    }

    static let rotated = "refresh token rotated"
    static let revoked = "session revoked"

    /// Logs in to a demo server, then stops the server: what a person on a train finds.
    static func loginThenStopServer(_ sandbox: Sandbox) async throws -> (apiURL: String, login: CommandResult) {
        let (apiURL, login) = try await withDemoServer(alone: true) { server in
            (server.apiURL, try await sandbox.loginAsDemo(server.apiURL))
        }
        try #require(login.status == 0, "\(login)")
        return (apiURL, login)
    }

    /// Logs in, then moves both clocks past the access token's expiry.
    static func loginAndExpire(_ sandbox: Sandbox, _ server: DemoServerProcess) async throws {
        let login = try await sandbox.loginAsDemo(server.apiURL)
        try #require(login.status == 0, "\(login)")
        try await sandbox.advanceClock(by: DemoServerProcess.pastExpiry, with: server)
    }

    static func storedCredentials(_ sandbox: Sandbox, _ server: DemoServerProcess) async throws -> Credentials {
        try #require(
            try await sandbox.file.credentials(for: Account(server: server.apiURL, name: Sandbox.demo.email)))
    }

    /// `curl` with the bearer token on the profile, as a script would use `swaggerctl token`.
    static func curlProfile(_ server: DemoServerProcess, token: String) async throws -> CommandResult {
        try await curl([
            "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)",
            "\(server.apiURL)/User/User",
        ])
    }

    /// `curl` spending `refreshToken` directly, as a thief who copied it would.
    static func curlRefresh(_ server: DemoServerProcess, refreshToken: String) async throws -> String {
        let body = #"{"refreshToken":"\#(refreshToken)","appId":"swaggerctl-demo"}"#
        return try await curl([
            "-o", "/dev/null", "-w", "%{http_code}", "-H", "Content-Type: application/json", "-d", body,
            "\(server.apiURL)/User/RefreshToken",
        ]).stdout
    }

    @Test("after the access token expires, details in a new process refreshes once; token then prints a usable token")
    func refreshAfterExpiry() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            try await Self.loginAndExpire(sandbox, server)
            let before = try await Self.storedCredentials(sandbox, server)

            let details = try await sandbox.swaggerctl("details")
            #expect(details.status == 0, "\(details)")
            #expect(details.stdout.hasPrefix("ID                 1024\n"))
            #expect(details.stderr.isEmpty, "\(details)")
            #expect(server.logLines(containing: Self.rotated) == 1, "\(server.log)")

            // Rotation: both tokens are new, and stored before they were used.
            let after = try await Self.storedCredentials(sandbox, server)
            #expect(after.accessToken != before.accessToken)
            #expect(after.refreshToken != before.refreshToken)

            let token = try await sandbox.swaggerctl("token")
            #expect(token.status == 0, "\(token)")
            let printed = token.stdout.trimmingCharacters(in: .newlines)
            #expect(try await Self.curlProfile(server, token: printed).stdout == "200")
        }
    }

    @Test("20 processes that start at once after the expiry all succeed with exactly one refresh between them")
    func concurrentRefresh() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            try await Self.loginAndExpire(sandbox, server)

            let results = try await withThrowingTaskGroup(of: CommandResult.self) { group in
                for _ in 0..<20 { group.addTask { try await sandbox.swaggerctl("details") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            for result in results { #expect(result.status == 0, "\(result)") }
            #expect(server.logLines(containing: Self.rotated) == 1, "\(server.log)")
            #expect(server.logLines(containing: Self.revoked) == 0, "\(server.log)")
        }
    }

    @Test("a refresh token replayed after rotation revokes the session; swaggerctl reports it ended and removes it")
    func replayRevokes() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let login = try await sandbox.loginAsDemo(server.apiURL)
            try #require(login.status == 0, "\(login)")
            let stolen = try #require(try await Self.storedCredentials(sandbox, server).refreshToken)
            let refresh = try await sandbox.swaggerctl("refresh")
            #expect(refresh.status == 0, "\(refresh)")
            #expect(refresh.stdout.hasPrefix("Refreshed the session for demo@example.com on \(server.apiURL): "))

            #expect(try await Self.curlRefresh(server, refreshToken: stolen) == "401")
            #expect(server.logLines(containing: "a spent refresh token was presented again") == 1, "\(server.log)")

            let details = try await sandbox.swaggerctl("details")
            #expect(details.status == 4, "\(details)")
            #expect(
                details.stderr
                    == "swaggerctl: The session has ended: the server refuses it. Run `swaggerctl login -s "
                    + "\(server.apiURL) -e demo@example.com`.\n")
            #expect(try sandbox.sessions.records().isEmpty)
            #expect(
                try await sandbox.file.credentials(for: Account(server: server.apiURL, name: Sandbox.demo.email))
                    == nil)
            #expect(try sandbox.profiles.profile(for: Account(server: server.apiURL, name: Sandbox.demo.email)) == nil)
        }
    }

    @Test("logout revokes the session on the server: its refresh token is refused afterwards")
    func logoutRevokes() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let login = try await sandbox.loginAsDemo(server.apiURL)
            try #require(login.status == 0, "\(login)")
            let credentials = try await Self.storedCredentials(sandbox, server)

            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0, "\(logout)")
            #expect(logout.stderr == "Logged out demo@example.com from \(server.apiURL).\n")
            #expect(try await Self.curlRefresh(server, refreshToken: try #require(credentials.refreshToken)) == "401")
            #expect(try await Self.curlProfile(server, token: try #require(credentials.accessToken)).stdout == "401")

            // Logging out twice is not an error, here or on the server.
            let again = try await sandbox.swaggerctl("logout")
            #expect(again.status == 0, "\(again)")
        }
    }

    @Test("logout --local removes the session here and leaves it alive on the server")
    func logoutLocal() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let login = try await sandbox.loginAsDemo(server.apiURL)
            try #require(login.status == 0, "\(login)")
            let credentials = try await Self.storedCredentials(sandbox, server)

            let logout = try await sandbox.swaggerctl("logout", "--local")
            #expect(logout.status == 0, "\(logout)")
            #expect(try sandbox.sessions.records().isEmpty)
            #expect(try await Self.curlProfile(server, token: try #require(credentials.accessToken)).stdout == "200")
            #expect(server.logLines(containing: Self.revoked) == 0)
        }
    }

    @Test("with the server down, logout still removes everything here, and exits 1: the server did not end it")
    func logoutWithServerDown() async throws {
        let sandbox = try Sandbox()
        let (apiURL, _) = try await Self.loginThenStopServer(sandbox)

        let logout = try await sandbox.swaggerctl("logout")
        #expect(logout.status == 1, "\(logout)")
        let lines = logout.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(logout)")
        // Nothing the line says is for the person to act on but what the session still is there: no "check the URL".
        let told =
            "swaggerctl: Logged out here, but the server was not told: it could not be reached (connection refused), "
            + "and the session works there until it expires."
        #expect(lines.first.map(String.init) == told, "\(logout)")
        #expect(try sandbox.sessions.records().isEmpty)
        #expect(
            try await sandbox.file.credentials(for: Account(server: apiURL, name: Sandbox.demo.email))
                == nil)
        #expect(try sandbox.profiles.profile(for: Account(server: apiURL, name: Sandbox.demo.email)) == nil)
        let left = try FileManager.default.contentsOfDirectory(atPath: sandbox.configDirectory.path)
        #expect(!left.contains { $0.hasPrefix(".refresh-") }, "\(left)")
    }

    @Test("offline: the saved profile with a notice; --no-cache exits 3; logout deletes the saved profile")
    func offlineProfile() async throws {
        let sandbox = try Sandbox()
        let (apiURL, login) = try await Self.loginThenStopServer(sandbox)

        let details = try await sandbox.swaggerctl("details")
        #expect(details.status == 0, "\(details)")
        #expect(details.stdout == login.stdout)
        #expect(
            details.stderr.wholeMatch(
                of:
                    /Showing your profile as saved (just now|\d+ s ago|\d+ min ago): .+ could not be reached \(connection refused\)\.\n/
            )
                != nil, "\(details)")
        let json = try await sandbox.swaggerctl("details", "--format", "json")
        #expect(json.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["id"] as? Int == 1024)

        let noCache = try await sandbox.swaggerctl("details", "--no-cache")
        #expect(noCache.status == 3, "\(noCache)")
        #expect(noCache.stdout.isEmpty)

        // The saved profile is private: 0600 in a 0700 folder.
        let manager = FileManager.default
        #expect(try manager.attributesOfItem(atPath: sandbox.cacheDirectory.path)[.posixPermissions] as? Int == 0o700)
        let saved = sandbox.cacheDirectory.appending(path: ProfileCache.fileName).path
        #expect(try manager.attributesOfItem(atPath: saved)[.posixPermissions] as? Int == 0o600)

        let logout = try await sandbox.swaggerctl("logout", "--local")
        #expect(logout.status == 0, "\(logout)")
        #expect(try sandbox.profiles.profile(for: Account(server: apiURL, name: Sandbox.demo.email)) == nil)
        let afterLogout = try await sandbox.swaggerctl("details", "-s", apiURL)
        #expect(afterLogout.status == 4, "\(afterLogout)")
    }

    @Test("a demo server restarted on the same --database still accepts the session, and refreshes it")
    func databaseSurvivesRestart() async throws {
        let sandbox = try Sandbox()
        let database = sandbox.root.appending(path: "demo.sqlite").path
        let first = try await withDemoServer(["--database", database], alone: true) { first in
            let login = try await sandbox.loginAsDemo(first.apiURL)
            try #require(login.status == 0, "\(login)")
            return first
        }

        try await withDemoServer(["--database", database] + first.hostAndPort) { second in
            #expect(second.apiURL == first.apiURL)
            let details = try await sandbox.swaggerctl("details")
            #expect(details.status == 0, "\(details)")
            #expect(details.stderr.isEmpty, "\(details)")
            let refresh = try await sandbox.swaggerctl("refresh")
            #expect(refresh.status == 0, "\(refresh)")
            #expect(second.logLines(containing: Self.rotated) == 1)
        }
    }

    @Test("SWAGGERCTL_TOKEN is used by details and token, and nothing is read or written in the store")
    func environmentToken() async throws {
        let owner = try Sandbox()
        try await withDemoServer { server in
            let login = try await owner.loginAsDemo(server.apiURL)
            try #require(login.status == 0, "\(login)")
            let token = try #require(try await Self.storedCredentials(owner, server).accessToken)

            let ci = try Sandbox(environment: ["SWAGGERCTL_TOKEN": token, "SWAGGERCTL_SERVER": server.apiURL])
            let details = try await ci.swaggerctl("details")
            #expect(details.status == 0, "\(details)")
            #expect(details.stdout == login.stdout)
            let printed = try await ci.swaggerctl("token")
            #expect(printed.status == 0, "\(printed)")
            #expect(printed.stdout == token + "\n")
            let status = try await ci.swaggerctl("status")
            #expect(status.status == 0, "\(status)")
            #expect(
                status.stderr.hasPrefix("SWAGGERCTL_TOKEN is set: details and token use it instead of a stored session")
            )

            #expect(!FileManager.default.fileExists(atPath: ci.configDirectory.path))
            #expect(!FileManager.default.fileExists(atPath: ci.cacheDirectory.path))

            let rejected = try await ci.swaggerctl(["details"], environment: ["SWAGGERCTL_TOKEN": "forged"])
            #expect(rejected.status == 4, "\(rejected)")
            #expect(rejected.stderr.contains("rejected SWAGGERCTL_TOKEN: it has expired or been revoked."))
        }
    }

    @Test("status: exit 4 with nothing stored; --check says valid, refreshed, or ended (4)")
    func statusCheck() async throws {
        let sandbox = try Sandbox()
        let empty = try await sandbox.swaggerctl("status")
        #expect(empty.status == 4, "\(empty)")
        let emptyJSON = try await sandbox.swaggerctl("status", "--format", "json")
        #expect(emptyJSON.status == 4)
        #expect(try JSONSerialization.jsonObject(with: Data(emptyJSON.stdout.utf8)) as? [Any] != nil)

        try await withDemoServer { server in
            try await Self.loginAndExpire(sandbox, server)
            let refreshed = try await sandbox.swaggerctl("status", "--check")
            #expect(refreshed.status == 0, "\(refreshed)")
            #expect(
                refreshed.stdout.contains("Checked   refreshed: the server accepts the new token\n"), "\(refreshed)")

            sandbox.advanceClock(by: DemoServerProcess.pastExpiry)
            let expired = try await sandbox.swaggerctl("status")
            #expect(
                expired.stdout.contains(
                    "(default; active; the access token has expired, and is refreshed on next use)\n"),
                "an expired token is never plainly active: \(expired)")

            let stolen = try #require(try await Self.storedCredentials(sandbox, server).refreshToken)
            _ = try await sandbox.swaggerctl("refresh")
            #expect(try await Self.curlRefresh(server, refreshToken: stolen) == "401")
            let ended = try await sandbox.swaggerctl("status", "--check")
            #expect(ended.status == 4, "\(ended)")
            #expect(ended.stderr.contains("has ended"))
        }

        let onTime = try Sandbox()
        try await withDemoServer { server in
            let login = try await onTime.loginAsDemo(server.apiURL)
            try #require(login.status == 0, "\(login)")
            let valid = try await onTime.swaggerctl("status", "--check", "--format", "json")
            #expect(valid.status == 0, "\(valid)")
            let sessions = try JSONSerialization.jsonObject(with: Data(valid.stdout.utf8)) as? [[String: Any]]
            #expect(sessions?.first?["check"] as? String == "valid")
            #expect(sessions?.first?["expired"] as? Bool == false)
        }
    }

    @Test("a login whose profile request fails keeps the session, says both, and exits with the request's code")
    func halfSuccessfulLogin() async throws {
        let sandbox = try Sandbox()
        let profiles = FaultServer.Replies([.init(status: .serviceUnavailable, body: "")])
        try await FaultServer.run(profiles: profiles) { url in
            let login = try await sandbox.login(url, email: "a@example.com", password: "pw")
            #expect(login.status == 5, "\(login)")
            #expect(
                login.stderr
                    == "swaggerctl: Logged in, but the profile could not be fetched: it failed (HTTP 503). Try again "
                    + "later.\n")
            #expect(try sandbox.sessions.records().map(\.name) == ["a@example.com"])
            let status = try await sandbox.swaggerctl("status")
            #expect(status.status == 0, "\(status)")
        }
    }
}
