import Foundation
import Testing

/// The server registry, servers.json: what swaggerctl knows of each server, apart from the sessions on it.
@Suite(
    "The server registry: list, export, forget and import; descriptions that outlive sessions; an upgrade",
    .timeLimit(.minutes(15)))
struct ServerRegistryTests {
    @Test("a description outlives its sessions, is exported, forgotten once nobody needs it, and imported again")
    func roundTrip() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let url = server.apiURL
            try #require(try await sandbox.loginAsDemo(url).status == 0)
            let listed = try await sandbox.swaggerctl("server", "list")
            #expect(
                listed.stdout == "\(url)  current; preset original; found in \(url)/openapi.yaml; 1 session\n",
                "\(listed)")
            let shown = try await sandbox.swaggerctl("server", "show")
            let export = try await sandbox.swaggerctl("server", "export")
            #expect(export.status == 0 && export.stdout.contains("\"preset\": \"original\""), "\(export)")
            let file = sandbox.root.appending(path: "demo.json")
            try Data(export.stdout.utf8).write(to: file)

            let refused = try await sandbox.swaggerctl("server", "forget", url)
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.stderr.contains("log out first: `swaggerctl logout -s \(url) -e demo@example.com`."))

            // Logging out keeps the description, and the server stays the one commands use.
            try #require(try await sandbox.swaggerctl("logout").status == 0)
            #expect(
                try await sandbox.swaggerctl("server", "list").stdout.hasSuffix(
                    "current; preset original; found in \(url)/openapi.yaml; no session\n"))
            #expect(try await sandbox.swaggerctl("server", "show").row("Server") == "\(url) (current)")

            let forgot = try await sandbox.swaggerctl("server", "forget", url)
            #expect(forgot.status == 0 && forgot.stderr == "Forgot \(url).\n", "\(forgot)")
            let empty = try await sandbox.swaggerctl("server", "list")
            #expect(
                empty.status == 0 && empty.stdout.isEmpty && empty.stderr.contains("knows no server yet"), "\(empty)")

            let imported = try await sandbox.swaggerctl("server", "import", file.path)
            #expect(imported.status == 0, "\(imported)")
            let again = try await sandbox.swaggerctl("server", "show")
            // The same description, now with no account on it, and no copy of the document, which is a cache.
            let rows = { (result: CommandResult) in
                result.stdout.split(separator: "\n").filter {
                    !$0.hasPrefix("Accounts") && !$0.hasPrefix("Document copy")
                }
                // The keys' column is as wide as the widest key shown; a part's source is now the file's.
                .map { $0.split(separator: " (from ").first.map(String.init) ?? "" }
                .map { $0.split(separator: " ").joined(separator: " ") }
            }
            #expect(rows(again) == rows(shown), "\(again)\n\(shown)")
            // And a login needs only the account.
            let login = try await sandbox.swaggerctl(
                ["login", "-e", Sandbox.demo.email, "--password-stdin"], stdin: Sandbox.demo.password + "\n")
            #expect(login.status == 0 && login.stderr == "Logged in to \(url) as demo@example.com.\n", "\(login)")
        }
    }

    @Test("a session saved with its description in sessions.json, as before the registry, is used and migrated")
    func upgrade() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.drf) { server in
            let api = "\(server.origin)/api"
            let login = try await sandbox.swaggerctl(
                ["login", "-s", api, "-u", "ana", "--password-stdin"], stdin: "Passw0rd!\n")
            try #require(login.status == 0, "\(login)")

            // The files as the version before the registry left them: no servers.json, and each record with its
            // server's description, as the flags described a simplejwt server then.
            try FileManager.default.removeItem(at: sandbox.configDirectory.appending(path: "servers.json"))
            let old: [String: Any] = [
                "kind": "simplejwt", "loginURL": "\(api)/token/", "refreshURL": "\(api)/token/refresh/",
                "revocationURL": "\(api)/token/blacklist/", "profileURL": "\(api)/users/me/",
                "fields": ["accessToken": "access", "refreshToken": "refresh", "expiresIn": "expires_in"],
                "usesClientSecret": false, "login": "json:username", "refresh": "json:refresh",
                "revocation": "json:refresh",
            ]
            var list = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: sandbox.sessionsFile)) as? [String: Any])
            var records = try #require(list["content"] as? [[String: Any]])
            records[0]["dialect"] = old
            list["content"] = records
            try JSONSerialization.data(withJSONObject: list).write(to: sandbox.sessionsFile)

            let details = try await sandbox.swaggerctl("details", "-s", api)
            #expect(details.status == 0 && details.stdout.contains("username    ana\n"), "\(details)")
            let refresh = try await sandbox.swaggerctl("refresh", "-s", api)
            #expect(refresh.status == 0, "\(refresh)")
            // The registry has it now, as the preset it was and the URLs it had, and the default server is its.
            let show = try await sandbox.swaggerctl("server", "show")
            #expect(show.row("Server") == "\(api) (current)", "\(show)")
            #expect(show.row("Preset") == "simplejwt", "\(show)")
            #expect(show.row("Profile") == "GET \(api)/users/me/ Authorization: Bearer {access}", "\(show)")
            let registry = try String(
                contentsOf: sandbox.configDirectory.appending(path: "servers.json"), encoding: .utf8)
            #expect(registry.contains("\"preset\" : \"simplejwt\""), "\(registry)")
            // The record keeps what it had, for the version before, should it run again.
            #expect(try String(contentsOf: sandbox.sessionsFile, encoding: .utf8).contains("\"dialect\""))

            let blacklisted = { () async throws -> Int? in
                try await server.json(["\(server.origin)/api/test/blacklisted/"])["count"] as? Int
            }
            let before = try await blacklisted()
            let logout = try await sandbox.swaggerctl("logout")
            // Told, the server blacklisted the refresh token; the access token, a JWT, works on, as the line says.
            #expect(
                logout.status == 0
                    && logout.stderr.hasPrefix("swaggerctl: warning: \(api) ended the refresh token; its access token "),
                "\(logout)")
            #expect(try await blacklisted() == (before ?? -1) + 1, "the logout blacklisted the refresh token")
        }
    }
}
