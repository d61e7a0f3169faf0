import Foundation
import Testing

/// flask-jwt-extended as its documentation's examples set it up, whose refresh takes the refresh token as the
/// bearer and whose logout is a `DELETE`: described once in a `--server-file`, and by its kind.
@Suite(
    "flask-jwt-extended, refreshed by the bearer and logged out with DELETE: in a server file, and by its kind",
    .timeLimit(.minutes(15)))
struct DescribedServerTests {
    static let description = #"""
        {"kind": "custom", "login-path": "/login", "refresh-path": "/refresh", "refresh-with": "bearer",
         "revoke-path": "/logout", "revoke-with": "bearer:DELETE", "profile-path": "/me"}
        """#

    /// How many tokens the server has revoked.
    static func revoked(_ server: PythonServer) async throws -> Int {
        try await server.json(["\(server.origin)/test/revoked"])["count"] as? Int ?? -1
    }

    @Test(
        "login, status, refresh by the bearer, renewal, and a logout that revokes both tokens",
        arguments: [false, true])
    func flask(preset: Bool) async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.flask) { server in
            let file = sandbox.root.appending(path: "server.json")
            try Data(Self.description.utf8).write(to: file)
            let described =
                preset ? ["--kind", "flask-jwt-extended", "--profile-path", "/me"] : ["--server-file", file.path]
            let login = try await sandbox.swaggerctl(
                ["login", "-s", server.origin, "-u", "ana", "--password-stdin"] + described, stdin: "Passw0rd!\n")
            try #require(login.status == 0, "\(login)")
            #expect(login.stdout.contains("Ana Horvat"), "\(login)")

            // The server's description is kept apart from the session, with where each part came from.
            let show = try await sandbox.swaggerctl("server", "show")
            let from = preset ? "" : " (from \(file.path))"
            for (key, value) in [
                ("Preset", preset ? "flask-jwt-extended" : nil), ("Login", "\(server.origin)/login\(from)"),
                ("Refresh", "\(server.origin)/refresh\(from)"), ("Logout", "\(server.origin)/logout\(from)"),
                ("Profile", "\(server.origin)/me\(preset ? " (given)" : from)"),
                (
                    "Sends",
                    "login JSON {username, password}; refresh token as the bearer; logout DELETE with each token as the "
                        + "bearer"
                ),
            ] {
                #expect(show.stepURL(key) == value, "\(key): \(show)")
            }
            #expect(try await sandbox.swaggerctl("status", "--verbose").row("Sends") == show.row("Sends"))

            let first = try await sandbox.swaggerctl("token").stdout
            let refresh = try await sandbox.swaggerctl("refresh")
            #expect(refresh.status == 0, "\(refresh)")
            // The server sends no new refresh token; the one it has stays good, and is kept.
            let second = try await sandbox.swaggerctl("token").stdout
            #expect(second != first)
            sandbox.advanceClock(by: .seconds(600))
            let details = try await sandbox.swaggerctl("details")
            #expect(details.status == 0 && details.stdout.contains("Ana Horvat"), "\(details)")

            #expect(try await Self.revoked(server) == 0)
            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0 && !logout.stderr.contains("warning"), "\(logout)")
            #expect(try await Self.revoked(server) == 2, "the refresh token and the access token were revoked")
        }
    }
}
