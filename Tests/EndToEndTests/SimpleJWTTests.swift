import Foundation
import Testing

/// Django REST framework with djangorestframework-simplejwt, set up as its documentation does, with rotation
/// and the blacklist: `--kind simplejwt` and the profile's path are all a login needs.
@Suite("simplejwt: Django REST framework's JWT login, with rotation and the blacklist")
struct SimpleJWTTests {
    static let ana = (user: "ana", password: "Passw0rd!")

    /// How many refresh tokens the server has blacklisted: spent by a rotation, or by a logout.
    static func blacklisted(_ server: PythonServer) async throws -> Int {
        try await server.json(["\(server.origin)/api/test/blacklisted/"])["count"] as? Int ?? -1
    }

    @Test(
        "login, details, token, status, refresh with rotation, every page of each paginator, and a logout that blacklists"
    )
    func session() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.drf) { server in
            let api = "\(server.origin)/api"
            let login = try await sandbox.swaggerctl(
                [
                    "login", "-s", api, "-e", Self.ana.user, "--password-stdin", "--kind", "simplejwt",
                    "--profile-path",
                    "/users/me/",
                ], stdin: Self.ana.password + "\n")
            try #require(login.status == 0, "\(login)")
            #expect(login.stdout.contains("username    ana\n"), "\(login)")
            let first = try await sandbox.swaggerctl("token").stdout

            let status = try await sandbox.swaggerctl("status")
            for row in [
                "Kind         simplejwt", "Login URL    \(api)/token/", "Refresh URL  \(api)/token/refresh/",
                "Revoke URL   \(api)/token/blacklist/", "Profile URL  \(api)/users/me/",
                "Sends        login JSON {username, password}; refresh JSON {refresh}; logout JSON {refresh}",
            ] {
                #expect(status.stdout.contains(row + "\n"), "\(row): \(status)")
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
                let result = try await sandbox.swaggerctl("api", path, "--paginate", "--slurp")
                #expect(result.status == 0 && result.stderr.isEmpty, "\(path): \(result)")
                let items = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
                #expect(items?.compactMap { $0["id"] as? Int } == Array(1...25), "\(path): \(result)")
            }

            // With swaggerctl's clock ahead, each api command renewed the token too.
            let before = try await Self.blacklisted(server)
            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0 && !logout.stderr.contains("warning"), "\(logout)")
            #expect(try await Self.blacklisted(server) == before + 1, "the logout blacklisted the refresh token")
        }
    }

    @Test("a wrong password is refused with the server's words, and no profile path is a usage error")
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
            let noProfile = try await sandbox.swaggerctl(
                [
                    "login", "-s", "\(server.origin)/api", "-e", Self.ana.user, "--password-stdin", "--kind",
                    "simplejwt",
                ],
                stdin: Self.ana.password + "\n")
            #expect(noProfile.status == 64, "\(noProfile)")
            #expect(noProfile.stderr.contains("--profile-path"), "\(noProfile)")
        }
    }
}
