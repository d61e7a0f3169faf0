import Foundation
import Testing

/// Debian's glewlwyd, an OpenID Connect provider nobody here wrote, set up through its own admin API: its metadata
/// describes it, its endpoints are spelt with a double slash, its public client has no password grant, and the
/// account is whoever the ID token says signed in.
@Suite(
    "glewlwyd: an OpenID Connect provider described by its metadata, signed in to with a device code",
    .timeLimit(.minutes(15)))
struct GlewlwydTests {
    static func browser(_ sandbox: Sandbox) -> [String: String] {
        ["BROWSER": Glewlwyd.browser.path, "BROWSER_LOG": sandbox.root.appending(path: "browser.log").path]
    }

    @Test("server set from the issuer; a device login, unasked, as whoever signs in; refresh; a revoking logout")
    func deviceSession() async throws {
        let sandbox = try Sandbox()
        try await withGlewlwyd { server in
            let set = try await sandbox.swaggerctl("server", "set", server.issuer, "--client-id", "swaggerctl")
            try #require(set.status == 0, "\(set)")
            let metadata = "\(server.issuer)/.well-known/openid-configuration"
            #expect(
                set.stderr.hasPrefix(
                    "Found in \(URL(string: metadata)?.path ?? metadata): login POST //api/oidc/token, refresh POST //api/oidc/token, logout POST "
                        + "//api/oidc/revoke, profile GET //api/oidc/userinfo.\n"),
                "\(set)")
            let show = try await sandbox.swaggerctl("server", "show")
            #expect(show.row("Login")?.hasPrefix("POST \(server.origin)//api/oidc/token ") == true, "\(show)")
            #expect(show.row("Login")?.hasSuffix(" (from \(metadata))") == true, "\(show)")
            #expect(
                show.row("Sends")
                    == "no password login: sign-in in the browser or with a device code; refresh as the OAuth 2 "
                    + "refresh grant; logout as RFC 7009 revocation", "\(show)")

            // The public client has no password grant: the login says how to sign in instead, and sends nothing.
            let password = try await sandbox.swaggerctl(["login", "-u", "ana", "--password-stdin"], stdin: "x\n")
            #expect(password.status == 64, "\(password)")
            #expect(password.stderr.contains("; sign in with --web or --device instead. Nothing was sent."))

            // Without --device, off a terminal: the device code is the way left, and the login says so.
            let login = try await sandbox.swaggerctl(["login"], environment: Self.browser(sandbox))
            try #require(login.status == 0, "\(login)")
            #expect(
                login.stderr.hasPrefix(
                    "\(server.issuer) takes no password; signing in with a code (--device): there is no browser here."),
                "\(login)")
            #expect(login.stderr.contains("and enter the code "), "\(login)")
            #expect(login.stderr.hasSuffix("Logged in to \(server.issuer) as ana@example.com.\n"), "\(login)")
            #expect(login.stdout.contains("name   Ana Horvat\n"), "\(login)")

            let refresh = try await sandbox.swaggerctl("refresh")
            #expect(refresh.status == 0, "\(refresh)")
            let token = try await sandbox.swaggerctl("token").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(try await server.isActive(token))
            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0 && !logout.stderr.contains("warning"), "\(logout)")
            #expect(try await !server.isActive(token), "the logout revoked the token at glewlwyd")
        }
    }

    @Test("a device login for one account that another signs in to is refused, and stores nothing")
    func otherAccount() async throws {
        let sandbox = try Sandbox()
        try await withGlewlwyd { server in
            let set = try await sandbox.swaggerctl("server", "set", server.issuer, "--client-id", "swaggerctl")
            try #require(set.status == 0, "\(set)")
            let login = try await sandbox.swaggerctl(
                ["login", "--device", "-e", "bob@example.com"], environment: Self.browser(sandbox))
            #expect(login.status == 4, "\(login)")
            #expect(
                login.stderr.hasSuffix(
                    "swaggerctl: ana@example.com signed in, not bob@example.com; nothing was stored. Sign in as "
                        + "bob@example.com, or drop -e and -u.\n"),
                "\(login)")
            #expect(try sandbox.sessions.records().isEmpty)
        }
    }
}
