import Foundation
import Hummingbird
import SessionMachine
import SessionStorage
import SwaggerClient
import SwaggerHTTP
import SwaggerModel
import SwaggerOutput
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a hostile or broken server found in swaggerctl, each reproduced against a small local server: the
/// defects that fuzzing and probing turned up, and the risks closed with them.
@Suite("Hostile servers: each defect found by fuzzing and probing", .timeLimit(.minutes(15)))
struct HostileServerTests {
    /// Escape sequences and invisible characters a server may send: an OSC 52 clipboard write, a screen
    /// clear, a forged second line, a bidi override, a zero-width space, a C1 CSI and DEL.
    static let hostile =
        "\u{1B}]52;c;cGF5bG9hZA==\u{7}\u{1B}[2J\nswaggerctl: forged\u{202E}gnp.exe\u{200B}\u{9B}31m\u{7F}"

    /// Nothing that reached a terminal holds a raw control or invisible character, and stderr is one line.
    private func expectClean(
        _ result: CommandResult, lines: Int = 1, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (name, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
            let raw = text.unicodeScalars.filter { $0 != "\n" && TerminalText.isUnsafe($0) }
            #expect(
                raw.isEmpty, "raw \(raw.map { String($0.value, radix: 16) }) on \(name)", sourceLocation: sourceLocation
            )
        }
        #expect(result.stderr.filter { $0 == "\n" }.count == lines, "\(result)", sourceLocation: sourceLocation)
    }

    // MARK: - 1: dates outside any sane range

    @Test(
        "a JWT exp before year 0, after 9999 or not a number is no expiry, and every command keeps working",
        arguments: [#"{"exp": -210866803200}"#, #"{"exp": 9999999999999}"#, #"{"exp": 1e300}"#, #"{"exp": "soon"}"#])
    func absurdExpiry(claims: String) async throws {
        let sandbox = try Sandbox()
        let login = FaultServer.Reply(
            body: #"{"accessToken": "\#(Fixtures.jwt(claims: claims))", "refreshToken": "r"}"#)
        try await FaultServer.run(login: login, profile: .init(body: #"{"id": 1}"#)) { url in
            #expect(try await sandbox.login(url, email: "a@example.com", password: "pw").status == 0)
            #expect(try sandbox.sessions.records().first?.expiresAt == nil)
            for arguments in [["status"], ["details"], ["token"], ["logout", "--local"]] {
                let result = try await sandbox.swaggerctl(arguments)
                #expect(result.status == 0, "\(arguments): \(result)")
            }
        }
    }

    @Test("a record that cannot be read affects only its own session, and logout removes it")
    func damagedRecord() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            #expect(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            // Another session, written by a swaggerctl that stored a date no parser reads.
            let text = try String(contentsOf: sandbox.sessionsFile, encoding: .utf8)
            let damaged = #"""
                {"appId": "x", "email": "broken@example.com", "keystore": "file", "savedAt": "-4712-01-01T00:00:00.000Z", "server": "\#(server.apiURL)"},
                """#
            try Data(text.replacingOccurrences(of: #""content" : ["#, with: #""content" : ["# + damaged).utf8)
                .writePrivately(to: sandbox.sessionsFile)

            let status = try await sandbox.swaggerctl("status")
            #expect(status.status == 0, "\(status)")
            #expect(status.stdout.contains("demo@example.com"))
            #expect(
                status.stderr.contains(
                    "the session record for broken@example.com on \(server.apiURL) in \(sandbox.sessionsFile.path) "
                        + "cannot be read; `swaggerctl logout -s \(server.apiURL) -e broken@example.com` removes it."),
                "\(status)")
            #expect(try await sandbox.swaggerctl("details").status == 0)
            #expect(try await sandbox.swaggerctl("token").status == 0)

            let broken = try await sandbox.swaggerctl("details", "-e", "broken@example.com")
            #expect(broken.status == 1, "\(broken)")
            #expect(broken.stderr.contains("cannot be read; `swaggerctl logout -s "))

            let logout = try await sandbox.swaggerctl("logout", "-e", "broken@example.com")
            #expect(logout.status == 0, "\(logout)")
            #expect(try sandbox.sessions.damaged().isEmpty)
            #expect(try sandbox.sessions.records().map(\.name) == [Sandbox.demo.email])
        }
    }

    // MARK: - 2: a whole-request deadline

    @Test("SWAGGERCTL_TIMEOUT bounds the whole request: a body dripped a byte at a time is cut off in time")
    func drippedBody() async throws {
        let sandbox = try Sandbox(environment: ["SWAGGERCTL_TIMEOUT": "2"])
        let login = FaultServer.Reply(body: #"{"accessToken": "slow-token-0123456789"}"#, drip: .milliseconds(300))
        try await FaultServer.run(login: login) { url in
            let result = try await sandbox.login(url, email: "a@example.com", password: "pw")
            // Without the deadline the whole body would arrive, after twelve seconds, and the login succeed.
            #expect(result.status == 3, "\(result)")
            #expect(result.stderr.contains("did not answer within 2 s"))
        }
    }

    // MARK: - 3: server text on the terminal

    @Test("a hostile message in a 4xx body reaches stderr quoted, escaped, and on one line")
    func hostileMessage() async throws {
        let sandbox = try Sandbox()
        let body = try String(decoding: JSONEncoder().encode(["message": Self.hostile]), as: UTF8.self)
        for status in [HTTPResponse.Status.badRequest, .forbidden, .unauthorized] {
            try await FaultServer.run(login: .init(status: status, body: body)) { url in
                let result = try await sandbox.login(url, email: "a@example.com", password: "pw")
                #expect(result.status == (status == .badRequest ? 1 : 4), "\(result)")
                expectClean(result)
                #expect(result.stderr.contains(#"\u{1b}]52;c;cGF5bG9hZA==\u{7}"#), "\(result)")
                #expect(result.stderr.contains(#"\u{a}swaggerctl: forged\u{202e}"#), "\(result)")
            }
        }
    }

    @Test("a server that quotes the password, the refresh token or the client secret back never gets it shown")
    func echoedSecrets() async throws {
        let password = "hostile-Passw0rd!"
        let refresh = "rt-0a1b2c3d4e5f"
        let clientSecret = "s3cr3t-client-value"
        let sandbox = try Sandbox()
        let wrong = FaultServer.Reply(
            status: .unauthorized, body: #"{"message":"Wrong password \#(password) for ana"}"#)
        try await FaultServer.run(login: wrong) { url in
            for extra in [[], ["--verbose"]] {
                let result = try await sandbox.login(url, email: "ana@example.com", password: password, extra: extra)
                #expect(result.status == 4, "\(result)")
                #expect(!result.stderr.contains(password), "\(extra)")
                #expect(result.stderr.contains("Wrong password [redacted] for ana"), "\(result)")
            }
        }

        let login = FaultServer.Reply(body: #"{"accessToken":"fault-token","refreshToken":"\#(refresh)"}"#)
        let bad = FaultServer.Reply(status: .badRequest, body: #"{"message":"bad refresh token \#(refresh)"}"#)
        try await FaultServer.run(logins: .init([login]), profiles: .init([.init(body: "{}")]), refreshes: .init([bad]))
        {
            url in
            #expect(try await sandbox.login(url, email: "ana@example.com", password: "pw").status == 0)
            let result = try await sandbox.swaggerctl("refresh")
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("bad refresh token [redacted]"), "\(result)")
            #expect(!result.stderr.contains(refresh))
        }

        let refused = FaultServer.Reply(
            status: .badRequest,
            body: #"{"error":"invalid_client","error_description":"client secret \#(clientSecret) is wrong"}"#)
        try await FaultServer.run(login: refused) { url in
            let result = try await sandbox.swaggerctl(
                [
                    "login", "-s", url, "-e", "ana", "--password-stdin", "--kind", "oauth2", "--login-path",
                    "/User/AdminLogin", "--profile-path", "/User/User", "--client-id", "cli", "--client-secret-stdin",
                ], stdin: "pw\n\(clientSecret)\n")
            // The client was refused, not the password: a request the server could not take.
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("client secret [redacted] is wrong"), "\(result)")
            #expect(!result.stderr.contains(clientSecret))
        }
    }

    @Test("a later answer of the same command that quotes an earlier one's secrets never gets them shown")
    func secretsOfTheCommand() async throws {
        let password = "hostile-Passw0rd!"
        let access = "new-access-5e4d3c2b1a09f8e7"
        let refresh = "new-refresh-0f1e2d3c4b5a6978"
        let sandbox = try Sandbox()
        // The profile request after a login quotes the login's password and the refresh token it issued.
        let login = FaultServer.Reply(body: #"{"accessToken":"\#(access)","refreshToken":"\#(refresh)"}"#)
        let echo = FaultServer.Reply(
            status: .forbidden, body: #"{"message":"no profile for \#(password) with \#(refresh)"}"#)
        try await FaultServer.run(logins: .init([login, login]), profiles: .init([echo, echo])) { url in
            for extra in [[], ["--verbose"]] {
                let result = try await sandbox.login(url, email: "ana@example.com", password: password, extra: extra)
                #expect(result.status == 4, "\(result)")
                #expect(result.stderr.contains("no profile for [redacted] with [redacted]"), "\(result)")
                #expect(!result.stderr.contains(password) && !result.stderr.contains(refresh), "\(result)")
            }
        }

        // An answer that is not a grant, read after the exchange: its words quote the password and the new
        // token, and cutting them short must not leave part of a secret that the scrubber would not know.
        let typed = FaultServer.Reply(
            contentType: "application/json; echo=\(password)",
            body: #"{"access_token":"\#(access)","token_type":"\#(String(repeating: "x", count: 25)) \#(access)"}"#)
        let notJSON = FaultServer.Reply(contentType: "text/plain; echo=\(password)", body: "no")
        try await FaultServer.run(logins: .init([typed, typed, notJSON, notJSON]), profiles: .init([])) { url in
            for extra in [[], ["--verbose"], [], ["--verbose"]] {
                let result = try await sandbox.swaggerctl(
                    [
                        "login", "-s", url, "-e", "ana", "--password-stdin", "--kind", "oauth2", "--login-path",
                        "/User/AdminLogin", "--profile-path", "/User/User",
                    ] + extra, stdin: "\(password)\n")
                #expect(result.status == 5, "\(result)")
                // The error line cuts the server's words short; --verbose shows them whole, with the secrets hidden.
                if extra == ["--verbose"] { #expect(result.stderr.contains("[redacted]"), "\(result)") }
                #expect(!result.stderr.contains(password) && !result.stderr.contains("new-access"), "\(result)")
                // No part of a secret either, where a cut would leave one: its distinctive characters, six at a time.
                for fragment in ["Passw0rd", "5e4d3c2b1a09f8e7"].flatMap({ secret in
                    (0...(secret.count - 6)).map { String(secret.dropFirst($0).prefix(6)) }
                }) {
                    #expect(!result.stderr.contains(fragment), "part of a secret: \(fragment)")
                }
            }
        }
    }

    @Test("hostile text in profile keys and values is escaped in the table and in JSON")
    func hostileProfile() async throws {
        let sandbox = try Sandbox()
        let profile = try String(
            decoding: JSONEncoder().encode(["name": Self.hostile, "x\u{1B}[2J\u{202E}": "value"]), as: UTF8.self)
        try await FaultServer.run(profile: .init(body: profile)) { url in
            let table = try await sandbox.login(url, email: "a@example.com", password: "pw")
            #expect(table.status == 0, "\(table)")
            expectClean(table)
            #expect(table.stdout.contains(#"\u{1b}]52;c;cGF5bG9hZA==\u{7}\u{1b}[2J\u{a}swaggerctl: forged"#))
            let json = try await sandbox.swaggerctl("details", "--format", "json")
            expectClean(json, lines: 0)
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            #expect(object?["name"] as? String == Self.hostile, "the JSON value is intact")
            #expect(json.stdout.contains(#"\u007f"#) && json.stdout.contains(#"\u009b"#))
        }
    }

    @Test("hostile Location and Content-Type headers are escaped in the one line that quotes them")
    func hostileHeaders() async throws {
        let sandbox = try Sandbox()
        // The HTTP parser refuses C0 controls in a header value, so a server can only get the bytes it allows
        // past it (obs-text): a bidi override, a C1 CSI, a zero-width space.
        let hidden = "\u{202E}\u{9B}31m\u{200B}"
        let location = "HTTP/1.1 302 Found\r\nLocation: https://evil.example/\(hidden)x\r\nContent-Length: 0\r\n\r\n"
        let contentType = "HTTP/1.1 200 OK\r\nContent-Type: text/\(hidden)html\r\nContent-Length: 2\r\n\r\nhi"
        let control = "HTTP/1.1 302 Found\r\nLocation: https://evil.example/\u{1B}[2J\r\nContent-Length: 0\r\n\r\n"
        for (reply, code) in [(location, Int32(1)), (contentType, 5), (control, 5)] {
            try await RudeServer.run(.scripted(reply)) { url in
                // The kind is said: the server answers once, and it is the login's answer that is tested.
                let result = try await sandbox.login(
                    url, email: "a@example.com", password: "pw", extra: ["--kind", "original"])
                #expect(result.status == code, "\(result)")
                expectClean(result)
                if reply != control { #expect(result.stderr.contains(#"\u{202e}\u{9b}31m\u{200b}"#), "\(result)") }
            }
        }
    }

    @Test("a token with control characters or a line break is no token: the login stores nothing")
    func hostileToken() async throws {
        let sandbox = try Sandbox()
        for token in ["abc\u{1B}]52;c;eA==\u{7}", "abc\r\nX-Injected: 1", "with space"] {
            let body = try String(decoding: JSONEncoder().encode(["accessToken": token]), as: UTF8.self)
            try await FaultServer.run(login: .init(body: body)) { url in
                let result = try await sandbox.login(url, email: "a@example.com", password: "pw")
                #expect(result.status == 5, "\(result)")
                expectClean(result)
                #expect(try sandbox.sessions.records().isEmpty)
            }
        }
        let environment = try await sandbox.swaggerctl(["token"], environment: ["SWAGGERCTL_TOKEN": "a\u{1B}[2Jb"])
        #expect(environment.status == 64, "\(environment)")
        #expect(environment.stdout.isEmpty)
    }

    @Test("a malformed SWAGGERCTL_TOKEN stops only the commands that use it: login, status and logout go on")
    func malformedEnvironmentToken() async throws {
        try await withDemoServer { server in
            let sandbox = try Sandbox(environment: ["SWAGGERCTL_TOKEN": "not a token"])
            #expect(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            let status = try await sandbox.swaggerctl("status")
            #expect(status.status == 0, "\(status)")
            #expect(status.stdout.contains(Sandbox.demo.email), "\(status)")
            for command in ["details", "token"] {
                let refused = try await sandbox.swaggerctl(command)
                #expect(refused.status == 64, "\(command): \(refused)")
                #expect(refused.stderr.contains("SWAGGERCTL_TOKEN is not a token"), "\(refused)")
            }
            let logout = try await sandbox.swaggerctl("logout", "--local")
            #expect(logout.status == 0, "\(logout)")
            #expect(try sandbox.sessions.records().isEmpty)
        }
    }

    // MARK: - 4: a port above 65535

    @Test(
        "a port above 65535 is a usage error, never a crash",
        arguments: ["99999", "65536", "0", "99999999999999999999"])
    func portOutOfRange(port: String) async throws {
        let sandbox = try Sandbox()
        for arguments in [["details", "-s", "http://127.0.0.1:\(port)/api"], ["status"]] {
            let result = try await sandbox.swaggerctl(
                arguments, environment: ["SWAGGERCTL_SERVER": "http://127.0.0.1:\(port)/api"])
            #expect(result.status == (arguments[0] == "status" ? 4 : 64), "\(arguments): \(result)")
            expectClean(result)
        }
    }

    // MARK: - 5: a read-only configuration folder

    @Test("status, details and token work in a configuration folder that cannot be written")
    func readOnlyFolder() async throws {
        try await withDemoServer { server in
            let sandbox = try Sandbox()
            // Root may write anywhere, so the folder is read-only for the user that runs swaggerctl: nobody.
            let asNobody = geteuid() == 0
            let run: ([String], String?) async throws -> CommandResult = { arguments, stdin in
                guard asNobody else { return try await sandbox.swaggerctl(arguments, stdin: stdin) }
                return try await runProgram(
                    URL(filePath: "/usr/bin/setpriv"),
                    ["--reuid=65534", "--regid=65534", "--clear-groups", "--", Binaries.swaggerctl.path] + arguments,
                    environment: sandbox.environment, stdin: stdin)
            }
            if asNobody { try chown(sandbox.root, to: 65534) }
            let login = try await run(
                ["login", "-s", server.apiURL, "-e", Sandbox.demo.email, "--password-stdin"],
                Sandbox.demo.password + "\n")
            try #require(login.status == 0, "\(login)")
            // The account's refresh lock is made now, so that a refresh below goes as far as its trial of the stores.
            try #require(try await run(["refresh"], nil).status == 0)
            // Without the lock files a writer leaves, reads must not try to create them.
            for name in [".sessions.json.lock", ".credentials.json.lock"] {
                try FileManager.default.removeItem(at: sandbox.configDirectory.appending(path: name))
            }
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o500], ofItemAtPath: sandbox.configDirectory.path)
            defer {
                try? FileManager.default.setAttributes(
                    [.posixPermissions: 0o700], ofItemAtPath: sandbox.configDirectory.path)
            }
            for arguments in [["status"], ["details"], ["token"]] {
                let result = try await run(arguments, nil)
                #expect(result.status == 0, "\(arguments): \(result)")
            }
            // A write fails and says so; the folder is never made writable behind its owner's back.
            let refresh = try await run(["refresh"], nil)
            #expect(refresh.status == 1, "\(refresh)")
            expectClean(refresh)
            let mode = try FileManager.default.attributesOfItem(atPath: sandbox.configDirectory.path)[.posixPermissions]
            #expect(mode as? Int == 0o500)
            #expect(try await run(["token"], nil).status == 0)
            // The refresh that could not be stored was never sent: the refresh token is still good.
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o700], ofItemAtPath: sandbox.configDirectory.path)
            let again = try await run(["refresh"], nil)
            #expect(again.status == 0, "\(again)")
        }
    }

    @Test("a symbolic link in place of a lock file is refused, and its target never created")
    func symlinkedLock() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            #expect(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            let target = sandbox.root.appending(path: "planted")
            let lock = sandbox.configDirectory.appending(path: ".sessions.json.lock")
            try? FileManager.default.removeItem(at: lock)
            try FileManager.default.createSymbolicLink(at: lock, withDestinationURL: target)
            let result = try await sandbox.loginAsDemo(server.apiURL)
            #expect(result.status == 1, "\(result)")
            expectClean(result)
            #expect(result.stderr.contains(lock.path), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: target.path))
        }
    }

    @Test("a lock file another user planted is refused, naming it, and the session is left as it was")
    func foreignLock() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            #expect(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            let lock = sandbox.configDirectory.appending(path: ".sessions.json.lock")
            // nobody's: the uid a second local user would have, made here as root can.
            #expect(chown(lock.path, 65534, 65534) == 0)
            let result = try await sandbox.swaggerctl("logout")
            #expect(result.status == 1, "\(result)")
            expectClean(result)
            #expect(result.stderr.contains("\(lock.path) belongs to another user"), "\(result)")
            #expect(chown(lock.path, geteuid(), getegid()) == 0)
            #expect(try sandbox.sessions.records().count == 1)
        }
    }

    @Test("an account's refresh lock another user planted is refused at once, naming it; the session stays")
    func foreignRefreshLock() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            #expect(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            // A renewal takes the account's lock, whose file stays for the next.
            #expect(try await sandbox.swaggerctl("refresh").status == 0)
            let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.configDirectory.path)
            let name = try #require(names.first { $0.hasPrefix(".refresh-") && $0.hasSuffix(".lock") }, "\(names)")
            let lock = sandbox.configDirectory.appending(path: name)
            #expect(chown(lock.path, 65534, 65534) == 0)
            for command in ["refresh", "logout"] {
                let result = try await sandbox.swaggerctl(command)
                #expect(result.status == 1, "\(command): \(result)")
                expectClean(result)
                #expect(result.stderr.contains("\(lock.path) belongs to another user"), "\(command): \(result)")
            }
            #expect(chown(lock.path, geteuid(), getegid()) == 0)
            #expect(try sandbox.sessions.records().count == 1)
        }
    }

    @Test("a lock held past the bound ends the wait with a line that names the process holding it")
    func heldLock() async throws {
        let sandbox = try Sandbox(environment: ["SWAGGERCTL_LOCK_TIMEOUT": "0.3"])
        try FileManager.default.createDirectory(at: sandbox.configDirectory, withIntermediateDirectories: true)
        let lock = sandbox.configDirectory.appending(path: ".sessions.json.lock")
        // Another process holds the session list's lock, and does not let go.
        let holder = Process()
        holder.executableURL = URL(filePath: "/usr/bin/python3")
        holder.arguments = [
            "-c",
            "import fcntl, sys; f = open(sys.argv[1], 'a'); fcntl.flock(f, fcntl.LOCK_EX); print('held', flush=True); "
                + "sys.stdin.read()",
            lock.path,
        ]
        let output = Pipe()
        let input = Pipe()
        holder.standardOutput = output
        holder.standardInput = input
        try holder.run()
        defer {
            try? input.fileHandleForWriting.close()
            holder.waitUntilExit()
        }
        // It prints once it holds the lock.
        #expect(String(decoding: output.fileHandleForReading.availableData, as: UTF8.self).hasPrefix("held"))

        let result = try await sandbox.swaggerctl("status")
        #expect(result.status == 1, "\(result)")
        expectClean(result)
        #expect(
            result.stderr
                == "swaggerctl: \(lock.path) has been locked by process \(holder.processIdentifier) (python3) for 0.3 s; "
                + "try again once it is done, or end it.\n", "\(result)")
    }

    @Test("a swaggerctl that holds a password is undumpable: another process of its user cannot read its memory")
    func undumpable() async throws {
        // A second local user: nobody, whose processes' /proc entries are theirs unless a process is undumpable.
        let home = FileManager.default.temporaryDirectory.appending(path: "swaggerctl-nobody-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        #expect(chown(home.path, 65534, 65534) == 0)
        let gate = FaultServer.Gate()
        var held = FaultServer.goodLogin
        held.held = true
        let logins = FaultServer.Replies([held])
        try await FaultServer.run(logins: logins, profiles: .init([.init(body: "{}")]), gate: gate) { url in
            let process = Process()
            process.executableURL = URL(filePath: "/usr/bin/setpriv")
            process.arguments = [
                "--reuid", "65534", "--regid", "65534", "--clear-groups", Binaries.swaggerctl.path, "login", "-s", url,
                "-e", "a@example.com", "--password-stdin",
            ]
            process.environment = ["HOME": home.path, "SWAGGERCTL_KEYRING": "file", "PATH": "/usr/bin:/bin"]
            let input = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            try input.fileHandleForWriting.write(contentsOf: Data("hostile-Passw0rd!\n".utf8))
            try input.fileHandleForWriting.close()
            // The login is at the server, which holds its answer: the password is in the process's memory now.
            while logins.count == 0, process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
            let proc = "/proc/\(process.processIdentifier)"
            let status = try String(contentsOfFile: "\(proc)/status", encoding: .utf8)
            #expect(status.contains("Uid:\t65534\t65534\t65534\t65534"), "it runs as nobody: \(status)")
            // An undumpable process's /proc files belong to root, so its own user can neither read its environment
            // nor attach to it; a dumpable one's would be nobody's.
            for file in ["environ", "mem"] {
                let owner = try FileManager.default.attributesOfItem(atPath: "\(proc)/\(file)")[.ownerAccountID]
                #expect(owner as? Int == 0, "\(file) belongs to uid \(String(describing: owner))")
            }
            gate.open()
            process.waitUntilExit()
        }
    }

    // MARK: - 6: CRLF after a piped password

    @Test("the line break after a piped password is dropped, CRLF included", arguments: ["\n", "\r\n", ""])
    func pipedPassword(ending: String) async throws {
        let logins = FaultServer.Replies([FaultServer.goodLogin])
        try await FaultServer.run(logins: logins, profiles: .init([.init(body: "{}")])) { url in
            let result = try await Sandbox().swaggerctl(
                ["login", "-s", url, "-e", "a@example.com", "--password-stdin"], stdin: "secret" + ending)
            #expect(result.status == 0, "\(result)")
        }
        let sent =
            try JSONSerialization.jsonObject(with: Data(try #require(logins.bodies.first).utf8)) as? [String: Any]
        #expect(sent?["password"] as? String == "secret")
    }

    @Test("--password-stdin reads at most 64 KiB, and says so")
    func passwordLimit() async throws {
        let result = try await Sandbox().swaggerctl(
            ["login", "-s", "http://127.0.0.1:9/api", "-e", "a@example.com", "--password-stdin"],
            stdin: String(repeating: "x", count: 70_000))
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("read more than 64 KiB"))
    }

    // MARK: - 7: temporary files left by kill -9

    @Test("a temporary file left by a killed writer, which holds every token, is removed at the next use")
    func staleTemporaryFiles() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            #expect(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            let stale = [
                sandbox.configDirectory.appending(path: ".credentials.json.4242.123456.tmp"),
                sandbox.configDirectory.appending(path: ".sessions.json.4242.7.tmp"),
            ]
            for file in stale { try Data("every token".utf8).write(to: file) }
            let unrelated = sandbox.configDirectory.appending(path: ".credentials.json.notes.tmp")
            try Data().write(to: unrelated)

            #expect(try await sandbox.swaggerctl("token").status == 0)
            for file in stale {
                #expect(!FileManager.default.fileExists(atPath: file.path), "\(file.lastPathComponent)")
            }
            #expect(FileManager.default.fileExists(atPath: unrelated.path), "only swaggerctl's own are removed")
        }
    }

    // MARK: - 8: exit codes that contradict the docs

    @Test("a profile answered 429 three times exits 5, as a busy server, with no advice about the app id")
    func tooManyRequests() async throws {
        let profiles = FaultServer.Replies([.init(status: .tooManyRequests, body: "")])
        try await FaultServer.run(profiles: profiles) { url in
            let result = try await Sandbox().login(url, email: "a@example.com", password: "pw")
            #expect(result.status == 5, "\(result)")
            #expect(result.stderr.contains("too busy (HTTP 429)"), "\(result)")
            #expect(!result.stderr.contains("app id"))
        }
        #expect(profiles.count == 3)
    }

    @Test("a 4xx whose body is over 1 MiB follows its status")
    func hugeErrorBody() async throws {
        let huge = #"{"message": ""# + String(repeating: "x", count: 2 << 20) + #""}"#
        for (status, code) in [(HTTPResponse.Status.badRequest, Int32(1)), (.unauthorized, 4)] {
            try await FaultServer.run(login: .init(status: status, body: huge)) { url in
                let result = try await Sandbox().login(url, email: "a@example.com", password: "pw")
                #expect(result.status == code, "\(status): \(result)")
                expectClean(result)
            }
        }
    }

    @Test("a 403 on the profile exits 4 with the server's words and removes the session it will not accept")
    func forbiddenProfile() async throws {
        let sandbox = try Sandbox()
        let profiles = FaultServer.Replies([
            .init(body: #"{"id": 1}"#), .init(status: .forbidden, body: #"{"message": "This account is disabled."}"#),
        ])
        try await FaultServer.run(profiles: profiles) { url in
            #expect(try await sandbox.login(url, email: "a@example.com", password: "pw").status == 0)
            let result = try await sandbox.swaggerctl("details")
            #expect(result.status == 4, "\(result)")
            #expect(
                result.stderr.contains(
                    #"The server ended the session (HTTP 403): "This account is disabled". Run `swaggerctl login"#))
            #expect(try sandbox.sessions.records().isEmpty)
        }
    }

    // MARK: - Risks closed with them

    @Test("a file that others can read, or that another user owns, is refused and left alone")
    func foreignFiles() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            #expect(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o644], ofItemAtPath: sandbox.credentialsFile.path)
            let readable = try await sandbox.swaggerctl("token")
            #expect(readable.status == 1, "\(readable)")
            #expect(readable.stderr.contains("is open to others (mode 0644), so it is not used."))
            #expect(readable.stdout.isEmpty)
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o600], ofItemAtPath: sandbox.credentialsFile.path)

            if geteuid() == 0 {
                // A file of another user's, in a folder of one's own.
                #expect(chown(sandbox.credentialsFile.path, 65534, 65534) == 0)
                let theirs = try await sandbox.swaggerctl("token")
                #expect(
                    theirs.status == 1 && theirs.stdout.isEmpty
                        && theirs.stderr.contains("\(sandbox.credentialsFile.path) belongs to another user (uid 65534)"),
                    "\(theirs)")
                #expect(chown(sandbox.credentialsFile.path, geteuid(), getegid()) == 0)
                try chown(sandbox.configDirectory, to: 65534)
                let foreign = try await sandbox.swaggerctl("token")
                #expect(foreign.status == 1, "\(foreign)")
                #expect(foreign.stderr.contains("belongs to another user (uid 65534)"))
                let login = try await sandbox.loginAsDemo(server.apiURL)
                #expect(login.status == 1, "\(login)")
                let mode = try FileManager.default.attributesOfItem(atPath: sandbox.configDirectory.path)[
                    .posixPermissions]
                #expect(mode as? Int == 0o700, "another user's folder is never changed")
            }
        }
    }

    @Test("a cache folder another user owns is left as it is: no profile, no documents folder, no copy in it")
    func foreignCacheFolder() async throws {
        guard geteuid() == 0 else { return }
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(at: sandbox.cacheDirectory, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox.cacheDirectory.path)
        try chown(sandbox.cacheDirectory, to: 65534)
        try await withDemoServer { server in
            // The login reads the demo server's document, whose copy would go to the cache folder, and so does
            // `operations` when the registry notes no copy.
            let login = try await sandbox.loginAsDemo(server.apiURL)
            #expect(login.status == 0, "\(login)")
            #expect(login.stderr.contains("belongs to another user (uid 65534)"), "\(login)")
            let operations = try await sandbox.swaggerctl("operations")
            #expect(operations.status == 0 && operations.stdout.contains("getUser"), "\(operations)")
            #expect(try await sandbox.swaggerctl("details").status == 0)
        }
        #expect(try FileManager.default.names(in: sandbox.cacheDirectory).isEmpty)
        let mode = try FileManager.default.attributesOfItem(atPath: sandbox.cacheDirectory.path)[.posixPermissions]
        #expect(mode as? Int == 0o755, "another user's folder is never changed")
    }

    @Test("an answer that ends by closing the connection, with no Content-Length, is read whole every time")
    func closeDelimitedAnswer() async throws {
        let body = #"{"accessToken": "close-delimited-token"}"#
        let reply = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n\(body)"
        try await RudeServer.run(.scripted(reply)) { url in
            for attempt in 0..<40 {
                let sandbox = try Sandbox()
                // The server's answer is the same for every path, documents too: the person says what it is.
                let result = try await sandbox.swaggerctl(
                    ["login", "-s", url, "-e", "a@example.com", "--password-stdin", "--kind", "original"], stdin: "pw\n"
                )
                // The login itself succeeds; the profile request then gets the same answer, which is no profile.
                #expect(try sandbox.sessions.records().count == 1, "attempt \(attempt): \(result)")
            }
        }
    }

    @Test("a missing or vague Content-Type is read as JSON when the body is JSON; another media type is refused")
    func contentTypes() async throws {
        for (contentType, code) in [("", Int32(0)), ("json", 0), ("application/", 0), ("text/html", 5)] {
            try await FaultServer.run(login: .init(contentType: contentType, body: FaultServer.goodLogin.body)) { url in
                let result = try await Sandbox().login(url, email: "a@example.com", password: "pw")
                #expect(result.status == code, "Content-Type \(contentType): \(result)")
            }
        }
    }
}

/// Gives `url` and everything in it to `uid`.
func chown(_ url: URL, to uid: uid_t) throws {
    let enumerator = FileManager.default.enumerator(atPath: url.path)
    for path in [url.path] + (enumerator?.compactMap { $0 as? String }.map { url.appending(path: $0).path } ?? []) {
        guard Glibc.chown(path, uid, gid_t(uid)) == 0 else {
            throw SupportFailure("chown \(path) failed: errno \(errno)")
        }
    }
}
