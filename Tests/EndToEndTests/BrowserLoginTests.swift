import Foundation
import Testing

/// Logins that a person finishes in a browser, against Django OAuth Toolkit: the authorization code grant with
/// PKCE and a loopback redirect (`--web`), and the device authorization grant (`--device`). The browser is
/// `browser.py`, which signs in on DOT's real login page and approves or refuses on DOT's real pages.
@Suite(
    "Browser logins: --web (PKCE, loopback redirect) and --device (RFC 8628) against Django OAuth Toolkit",
    .timeLimit(.minutes(15)))
struct BrowserLoginTests {
    static let ana = (email: "ana@example.com", password: "Passw0rd!")

    /// The environment in which `$BROWSER` is the scripted browser, doing `action`.
    static func browser(_ action: String, _ sandbox: Sandbox) -> [String: String] {
        [
            "BROWSER": PythonServer.browser.path, "BROWSER_USER": ana.email, "BROWSER_PASSWORD": ana.password,
            "BROWSER_ACTION": action, "BROWSER_LOG": sandbox.root.appending(path: "browser.log").path,
        ]
    }

    /// What DOT holds: live access tokens, refresh tokens and unspent authorization codes.
    static func issued(_ server: PythonServer) async throws -> (access: Int, refresh: Int, grants: Int) {
        let counts = try await server.json(["\(server.origin)/test/tokens/"])
        return (counts["access"] as? Int ?? -1, counts["refresh"] as? Int ?? -1, counts["grants"] as? Int ?? -1)
    }

    static func web(_ server: PythonServer, extra: [String] = []) -> [String] {
        [
            "login", "--web", "--kind", "oauth2", "-s", "\(server.origin)/o", "--client-id", "swaggerctl-web",
            "--scope", "openid", "-e", ana.email,
        ] + extra
    }

    static func device(_ server: PythonServer) -> [String] {
        [
            "login", "--device", "--kind", "oauth2", "-s", "\(server.origin)/o", "--client-id", "swaggerctl-device",
            "-e", ana.email,
        ]
    }

    @Test("--web: the browser signs in and approves; details, refresh and a revoking logout follow as for a password")
    func web() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.dot) { server in
            let login = try await sandbox.swaggerctl(
                Self.web(server, extra: ["--verbose"]), environment: Self.browser("approve", sandbox))
            try #require(login.status == 0, "\(login)")
            // --verbose shows the exchange, without the code or the verifier.
            #expect(login.stderr.contains("grant_type=authorization_code&code=[redacted]&"), "\(login)")
            #expect(login.stderr.contains("&code_verifier=[redacted]&"), "\(login)")
            #expect(login.stdout.contains("email  ana@example.com\n"), "\(login)")
            // The address is printed whole, for a browser elsewhere, with PKCE's challenge and never its verifier.
            let printed = try #require(
                login.stderr.split(separator: "\n").first { $0.hasPrefix("Opened your browser") })
            #expect(
                printed.contains("code_challenge_method=S256") && printed.contains("redirect_uri=http://127.0.0.1:"))
            #expect(!printed.contains("code_verifier"))
            let log = try String(contentsOf: sandbox.root.appending(path: "browser.log"), encoding: .utf8)
            #expect(log.contains("/callback"), "the browser was sent back to the listener: \(log)")

            let details = try await sandbox.swaggerctl("details")
            #expect(details.status == 0 && details.stdout.contains("Ana Horvat"), "\(details)")
            let refresh = try await sandbox.swaggerctl("refresh")
            #expect(refresh.status == 0, "\(refresh)")
            let status = try await sandbox.swaggerctl("status", "--verbose")
            #expect(
                status.row("Sends")
                    == "login in the browser (authorization code with PKCE); refresh as the OAuth 2 refresh grant; "
                    + "logout as RFC 7009 revocation", "\(status)")

            // A later login on a terminal, with no flag, signs in the way the last one did.
            let again = try await onDedicatedThread {
                try PseudoTerminalProcess(
                    ["login", "-s", "\(server.origin)/o", "-e", Self.ana.email],
                    environment: sandbox.environment.merging(Self.browser("approve", sandbox)) { $1 }
                        .merging(["TERM": "xterm"]) { $1 })
            }
            #expect(try await onDedicatedThread { try again.finish() } == 0, "\(again.transcript)")
            #expect(
                again.transcript.contains("Opened your browser") && !again.transcript.contains("Password for"),
                "\(again.transcript)")
            let before = try await Self.issued(server)
            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0 && !logout.stderr.contains("warning"), "\(logout)")
            let after = try await Self.issued(server)
            #expect(after.refresh == before.refresh - 1, "the logout revoked the refresh token: \(before) \(after)")
        }
    }

    @Test(
        "--web: a refusal in the browser, an answer with another state, and no answer at all each end in one line",
        arguments: [
            ("deny", Int32(4), "was refused in the browser"),
            ("none", 3, "No answer came from the browser within 1 s"),
        ])
    func webFailures(action: String, status: Int32, said: String) async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.dot) { server in
            let before = try await Self.issued(server)
            // Only the browser that never answers meets the deadline; the others have all the time they need.
            let deadline = action == "none" ? ["--browser-timeout", "1"] : []
            let login = try await sandbox.swaggerctl(
                Self.web(server, extra: deadline), environment: Self.browser(action, sandbox))
            #expect(login.status == status, "\(login)")
            #expect(login.stdout.isEmpty, "\(login)")
            let error = login.stderr.split(separator: "\n").filter { $0.hasPrefix("swaggerctl: ") }
            #expect(error.count == 1 && error.first?.contains(said) == true, "\(login)")
            #expect(try sandbox.sessions.records().isEmpty, "nothing was stored")
            let after = try await Self.issued(server)
            #expect(after.access == before.access && after.refresh == before.refresh, "no tokens were issued")
        }
    }

    @Test(
        "--web: a browser that cannot start, or ends with a failure, is said in a warning, and the address is printed",
        arguments: [
            ("false", "swaggerctl: warning: the browser (false) exited with status 1; open the address yourself."),
            (
                "/nonexistent/browser",
                "swaggerctl: warning: could not start the browser (/nonexistent/browser: No such file or directory); "
                    + "open the address yourself."
            ),
        ])
    func browserFails(browser: String, warning: String) async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.dot) { server in
            // Nobody signs in, so the login meets its deadline after the warning.
            let login = try await sandbox.swaggerctl(
                Self.web(server, extra: ["--browser-timeout", "1"]), environment: ["BROWSER": browser])
            #expect(login.status == 3, "\(login)")
            let lines = login.stderr.split(separator: "\n").map(String.init)
            #expect(lines.contains(warning), "\(login)")
            #expect(
                lines.contains { $0.contains("\(server.origin)/o/authorize/?") && $0.contains("response_type=code") },
                "the address is printed: \(login)")
        }
    }

    @Test("--web: the browser inherits descriptors 0 to 2 alone, and no variable of swaggerctl's or with a token")
    func browserInheritsNothing() async throws {
        let sandbox = try Sandbox()
        // The browser records what it was given, then goes on as the scripted browser.
        let inspector = sandbox.root.appending(path: "inspect.py")
        let record = sandbox.root.appending(path: "inherited.txt")
        try Data(
            """
            #!/usr/bin/env python3
            import os, sys
            held = []
            for name in os.listdir("/proc/self/fd"):
                try:
                    held.append(name + " " + os.readlink("/proc/self/fd/" + name))
                except OSError:
                    pass  # the listing's own descriptor, closed once it was read
            with open("\(record.path)", "w") as out:
                out.write("\\n".join(sorted(held)) + "\\n--\\n" + "\\n".join(sorted(os.environ)) + "\\n--\\n"
                          + "\\n".join(sys.argv[1:]) + "\\n--\\n" + oct(os.stat(sys.argv[1]).st_mode & 0o777) + "\\n")
            os.execv("\(PythonServer.python.path)", ["python", "\(PythonServer.browser.path)"] + sys.argv[1:])
            """.utf8
        ).write(to: inspector)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: inspector.path)
        try await withPythonServer(.dot) { server in
            var environment = Self.browser("approve", sandbox)
            environment["BROWSER"] = inspector.path
            environment["GITHUB_TOKEN"] = "ghp_not_for_the_browser"
            let login = try await sandbox.swaggerctl(Self.web(server), environment: environment)
            #expect(login.status == 0, "\(login)")
            let parts = try String(contentsOf: record, encoding: .utf8).components(separatedBy: "--\n")
            let descriptors = parts[0].split(separator: "\n").compactMap { Int($0.split(separator: " ")[0]) }
            #expect(descriptors.sorted() == [0, 1, 2], "\(parts[0])")
            let names = parts[1].split(separator: "\n")
            #expect(!names.contains { $0.hasPrefix("SWAGGERCTL_") || $0.contains("TOKEN") }, "\(names)")
            #expect(names.contains("BROWSER_LOG"), "the rest of the environment is the browser's: \(names)")
            // Its command line, which any local user can read, holds a private page's path and not the address.
            let arguments = parts[2].split(separator: "\n").map(String.init)
            #expect(
                arguments.count == 1 && arguments[0].hasPrefix(sandbox.configDirectory.path + "/.sign-in-")
                    && !arguments[0].contains("state"), "\(arguments)")
            #expect(parts[3] == "0o600\n", "the page is its owner's alone")
            #expect(!FileManager.default.fileExists(atPath: arguments[0]), "the page is removed when the login ends")
        }
    }

    @Test("--web: a request to the listener without the login's state is answered 400, and the login goes on")
    func webWrongStateFirst() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.dot) { server in
            let login = try await sandbox.swaggerctl(
                Self.web(server), environment: Self.browser("wrong-state", sandbox))
            #expect(login.status == 0, "\(login)")
            #expect(
                login.stderr.contains(
                    "swaggerctl: warning: a request to the login's address without this login's state was turned "
                        + "away; still waiting for the browser."), "\(login)")
            let log = try String(contentsOf: sandbox.root.appending(path: "browser.log"), encoding: .utf8)
            #expect(log.contains("the client answered HTTP 400"), "\(log)")
            #expect(try sandbox.sessions.records().count == 1)
        }
    }

    @Test("--web: a second answer to the listener is turned away and reported, and does not disturb the login")
    func webTwice() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.dot) { server in
            let login = try await sandbox.swaggerctl(Self.web(server), environment: Self.browser("twice", sandbox))
            #expect(login.status == 0, "\(login)")
            #expect(try sandbox.sessions.records().count == 1)
            // The second request comes while the code is exchanged, or after swaggerctl has stopped listening.
            let log = try String(contentsOf: sandbox.root.appending(path: "browser.log"), encoding: .utf8)
            let turnedAway = log.contains("the client answered HTTP 409")
            let warned = login.stderr.contains(
                "swaggerctl: warning: another answer came to the login's address after the browser's was taken; it "
                    + "was turned away.")
            #expect(turnedAway == warned, "\(login) \(log)")
            #expect(turnedAway || log.contains("the second request to the client failed"), "\(log)")
        }
    }

    @Test("--web: Ctrl-C while waiting for the browser exits 130 and stores nothing")
    func webInterrupted() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.dot) { server in
            let arguments = Self.web(server)
            let terminal = try await onDedicatedThread {
                try PseudoTerminalProcess(
                    arguments,
                    environment: sandbox.environment.merging(Self.browser("none", sandbox)) { $1 }
                        .merging(["TERM": "xterm"]) { $1 })
            }
            let status = try await terminal.answer("Waiting for the sign-in", with: "\u{03}")
            #expect(status == 130, "\(terminal.transcript)")
            #expect(try sandbox.sessions.records().isEmpty)
        }
    }

    @Test("a server whose metadata offers no password grant gets the browser without --web, and says so")
    func browserChosen() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.dot, environment: ["NO_PASSWORD_GRANT": "1"]) { server in
            let arguments = [
                "login", "-s", "\(server.origin)/o", "--client-id", "swaggerctl-web", "-e", Self.ana.email,
            ]
            // On a terminal, where a password login would ask for the password.
            let terminal = try await onDedicatedThread {
                try PseudoTerminalProcess(
                    arguments,
                    environment: sandbox.environment.merging(Self.browser("approve", sandbox)) { $1 }
                        .merging(["TERM": "xterm"]) { $1 })
            }
            let status = try await onDedicatedThread { try terminal.finish() }
            #expect(status == 0, "\(terminal.transcript)")
            #expect(
                terminal.transcript.contains(
                    "\(server.origin)/o takes no password; signing in in the browser (--web)."),
                "\(terminal.transcript)")
            #expect(!terminal.transcript.contains("Password for"), "\(terminal.transcript)")
            #expect(try sandbox.sessions.records().count == 1)
        }
    }

    @Test("--device: the code is shown, the browser enters it and approves; details, refresh and logout follow")
    func device() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.dot, environment: ["DEVICE_INTERVAL": "1"]) { server in
            let login = try await sandbox.swaggerctl(
                Self.device(server) + ["--verbose"], environment: Self.browser("approve", sandbox))
            try #require(login.status == 0, "\(login)")
            // --verbose shows the device code neither in the answer nor in the polls.
            #expect(login.stderr.contains("&device_code=[redacted]&"), "\(login)")
            #expect(login.stderr.firstMatch(of: /"device_code":"[A-Za-z0-9]{8,}"/) == nil, "\(login)")
            #expect(
                login.stderr.contains("To sign in, open \(server.origin)/o/device/ and enter the code "), "\(login)")
            #expect(login.stdout.contains("email  ana@example.com\n"), "\(login)")
            let details = try await sandbox.swaggerctl("details")
            #expect(details.status == 0, "\(details)")
            let refresh = try await sandbox.swaggerctl("refresh")
            #expect(refresh.status == 0, "\(refresh)")
            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0 && !logout.stderr.contains("warning"), "\(logout)")
        }
    }

    @Test(
        "--device: a refusal, and a code that expires unentered, exit 4 with one line and store nothing",
        arguments: [("deny", "was refused in the browser"), ("none", "expired before the sign-in was finished")])
    func deviceFailures(action: String, said: String) async throws {
        let sandbox = try Sandbox()
        // Only the code that nobody enters is let expire soon; the refusal has all the time it needs.
        let expires = action == "none" ? "2" : "600"
        try await withPythonServer(.dot, environment: ["DEVICE_INTERVAL": "1", "DEVICE_EXPIRES": expires]) { server in
            let login = try await sandbox.swaggerctl(Self.device(server), environment: Self.browser(action, sandbox))
            #expect(login.status == 4, "\(login)")
            let error = login.stderr.split(separator: "\n").filter { $0.hasPrefix("swaggerctl: ") }
            #expect(error.count == 1 && error.first?.contains(said) == true, "\(login)")
            #expect(try sandbox.sessions.records().isEmpty)
        }
    }

    @Test("--device against Authlib's device endpoint: the code is entered and approved; refresh; a revoking logout")
    func authlibDevice() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.authlib, environment: ["DEVICE_INTERVAL": "1"]) { server in
            let login = try await sandbox.swaggerctl(
                [
                    // No --kind: the metadata says it is an OAuth 2 server.
                    "login", "--device", "-s", server.origin, "--client-id", "swaggerctl-device", "-e", Self.ana.email,
                ], environment: Self.browser("approve", sandbox))
            try #require(login.status == 0, "\(login)")
            #expect(login.stderr.contains("To sign in, open \(server.origin)/device and enter the code "), "\(login)")
            #expect(login.stdout.contains("email  ana@example.com\n"), "\(login)")
            let refresh = try await sandbox.swaggerctl("refresh")
            #expect(refresh.status == 0, "\(refresh)")
            let details = try await sandbox.swaggerctl("details")
            #expect(details.status == 0 && details.stdout.contains("Ana Horvat"), "\(details)")
            let counts = { () async throws -> [String: Any] in try await server.json(["\(server.origin)/test/tokens"]) }
            #expect(try await counts()["refresh"] as? Int == 1)
            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0 && !logout.stderr.contains("warning"), "\(logout)")
            #expect(try await counts()["refresh"] as? Int == 0, "the logout revoked the session at Authlib")
        }
    }

    @Test("--device and --web need what the server does not name, and say which")
    func unavailable() async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.fastapi) { server in
            let login = try await sandbox.swaggerctl(
                [
                    "login", "--device", "-s", server.origin, "-e", Self.ana.email, "--kind", "oauth2",
                    "--profile-path",
                    "/users/me",
                ])
            #expect(login.status == 64, "\(login)")
            #expect(login.stderr.contains("names no device authorization endpoint"), "\(login)")
        }
    }
}
