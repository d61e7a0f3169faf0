import Foundation
import SessionMachine
import SessionStorage
import SwaggerClient
import SwaggerHTTP
import SwaggerModel
import TestSupport
import Testing

@Suite("Failures: one line on stderr, a documented exit code, nothing lost", .timeLimit(.minutes(15)))
struct FailureTests {
    /// Each failure's stderr is exactly one line starting with "swaggerctl: ".
    private func expectOneLine(_ result: CommandResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.stderr.hasPrefix("swaggerctl: "), "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
    }

    @Test("a wrong password exits 4 and stores nothing")
    func wrongPassword() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let result = try await sandbox.login(server.apiURL, email: "demo@example.com", password: "nope")
            #expect(result.status == 4)
            expectOneLine(result)
            #expect(result.stderr.contains("Wrong e-mail or password"))
            #expect(try sandbox.sessions.records().isEmpty)
        }
    }

    @Test("a wrong app id is refused like bad credentials (403) and exits 4")
    func wrongAppID() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let result = try await sandbox.login(
                server.apiURL, email: "demo@example.com", password: "demo-password", extra: ["--app-id", "other"])
            #expect(result.status == 4)
            expectOneLine(result)
        }
    }

    @Test("a server that is down exits 3 after one connection attempt, not retrying until the timeout")
    func serverDown() async throws {
        let sandbox = try Sandbox(environment: ["SWAGGERCTL_TIMEOUT": "30"])
        // AsyncHTTPClient's default retries a refused connection until the connect timeout (5 s); swaggerctl
        // reports it after the first attempt. strace counts the attempts, which no clock on a loaded machine
        // can. Nothing listens on the discard port on loopback.
        let trace = sandbox.root.appending(path: "connect.trace")
        let result = try await runProgram(
            URL(filePath: "/usr/bin/strace"),
            [
                "-f", "-e", "trace=connect", "-o", trace.path, Binaries.swaggerctl.path,
                "login", "-s", "http://127.0.0.1:9/api", "-e", "a@example.com", "--password-stdin",
            ], environment: sandbox.environment, stdin: "pw\n")
        let calls = try String(contentsOf: trace, encoding: .utf8)
        #expect(
            calls.split(separator: "\n").count { $0.contains("connect(") && $0.contains("htons(9)") } == 1, "\(calls)")
        #expect(result.status == 3)
        expectOneLine(result)
        #expect(result.stderr.contains("Could not reach http://127.0.0.1:9/api: connection refused"))
    }

    @Test(
        "a server that hangs up or cuts a response short exits 3; one that does not speak HTTP exits 5",
        arguments: [
            (RudeServer.Behaviour.hangUp, Int32(3), "the server closed the connection"),
            (.truncatedResponse, 3, "the connection closed before the whole response came"),
            (.notHTTP, 5, "it did not answer in HTTP; check the URL's scheme and port"),
        ])
    func rudeServer(behaviour: RudeServer.Behaviour, exit: Int32, message: String) async throws {
        let sandbox = try Sandbox()
        try await RudeServer.run(behaviour) { url in
            let result = try await sandbox.login(url, email: "a@example.com", password: "pw")
            #expect(result.status == exit, "\(result)")
            expectOneLine(result)
            #expect(result.stderr.contains(message), "\(result)")
        }
    }

    @Test("a server that was up at login and is down later: --no-cache and token exit 3 and keep the session")
    func serverGoesDown() async throws {
        let sandbox = try Sandbox()
        let server = try await withDemoServer(alone: true) { server in
            let login = try await sandbox.login(server.apiURL, email: "demo@example.com", password: "demo-password")
            try #require(login.status == 0, "\(login)")
            return server
        }
        for arguments in [["details", "--no-cache"], ["status", "--check"]] {
            let result = try await sandbox.swaggerctl(arguments)
            #expect(result.status == 3, "\(arguments): \(result)")
            expectOneLine(result)
            #expect(result.stderr.contains("Could not reach \(server.apiURL): connection refused"))
        }
        #expect(try sandbox.sessions.records().count == 1)
    }

    @Test("a server slower than SWAGGERCTL_TIMEOUT exits 3")
    func slowServer() async throws {
        let sandbox = try Sandbox(environment: ["SWAGGERCTL_TIMEOUT": "1"])
        try await FaultServer.run(login: .init(body: "{}", held: true)) { url in
            let result = try await sandbox.login(url, email: "a@example.com", password: "pw")
            #expect(result.status == 3)
            expectOneLine(result)
            #expect(result.stderr.contains("did not answer within 1 s"))
        }
    }

    @Test(
        "a login answer that breaks the contract exits 5",
        arguments: [
            FaultServer.Reply(body: #"{"username":"u"}"#),
            FaultServer.Reply(body: "{oops"),
            FaultServer.Reply(contentType: "text/html", body: "<html>hello</html>"),
            FaultServer.Reply(body: #"{"accessToken":42}"#),
            FaultServer.Reply(body: String(repeating: "x", count: 2 << 20)),
        ])
    func malformedLogin(reply: FaultServer.Reply) async throws {
        let sandbox = try Sandbox()
        try await FaultServer.run(login: reply) { url in
            let result = try await sandbox.login(url, email: "a@example.com", password: "pw")
            #expect(result.status == 5)
            expectOneLine(result)
            #expect(try sandbox.sessions.records().isEmpty)
        }
    }

    @Test(
        "a profile answer that breaks the contract exits 5; one that is not a profile at all stores nothing",
        arguments: [
            (FaultServer.Reply(contentType: "text/html", body: #"{"id": 5}"#), true),
            (FaultServer.Reply(body: "[1, 2, 3]"), false),
            (FaultServer.Reply(contentType: "text/plain", body: "hello"), false),
        ])
    func malformedProfile(reply: FaultServer.Reply, stored: Bool) async throws {
        let sandbox = try Sandbox()
        try await FaultServer.run(profile: reply) { url in
            let result = try await sandbox.login(url, email: "a@example.com", password: "pw")
            #expect(result.status == 5)
            // The token the server gave and nothing kept works on, which a line before the error says.
            let leftover = "swaggerctl: warning: the login's token works until it expires: nothing ends it.\n"
            var error = result
            error.stderr = String(result.stderr.trimmingPrefix(leftover))
            expectOneLine(error)
            #expect(stored || result.stderr.hasPrefix(leftover), "\(result)")
            #expect(try sandbox.sessions.records().count == (stored ? 1 : 0), "\(result)")
            #expect(try sandbox.allFileContents().contains("fault-token") == stored)
            if !stored { #expect(result.stderr.contains("; nothing was stored."), "\(result)") }
        }
    }

    @Test(
        "HTTP statuses map to documented exit codes",
        arguments: [(500, 5), (503, 5), (400, 1), (404, 1), (401, 4), (403, 4), (302, 1)] as [(Int, Int32)])
    func statusCodes(status: Int, exit: Int32) async throws {
        let sandbox = try Sandbox()
        let reply = FaultServer.Reply(status: .init(code: status), contentType: "text/html", body: "<h1>no</h1>")
        try await FaultServer.run(login: reply) { url in
            let result = try await sandbox.login(url, email: "a@example.com", password: "pw")
            #expect(result.status == exit, "\(result)")
            expectOneLine(result)
        }
    }

    @Test("the demo server's root is not its API: nothing is sent, and the line names the API's URL (exit 64)")
    func wrongAddress() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let root = try #require(server.apiURL.split(separator: "/api").first.map(String.init))
            let result = try await sandbox.login(root, email: "a@example.com", password: "pw")
            #expect(result.status == 64, "\(result)")
            expectOneLine(result)
            #expect(result.stderr.hasSuffix("Did you mean \(server.apiURL)?\n"), "\(result)")
            #expect(try sandbox.sessions.records().isEmpty)
        }
    }

    @Test("a server in the original API's shape whose document has no logout logs out here, exit 0, and says so")
    func noLogoutInTheDocument() async throws {
        let sandbox = try Sandbox()
        try await FaultServer.run(profiles: FaultServer.Replies([.init(body: #"{"id": 5}"#)])) { url in
            try #require(try await sandbox.login(url, email: "a@example.com", password: "pw").status == 0)
            let show = try await sandbox.swaggerctl("server", "show")
            #expect(
                show.row("Preset") == "original" && show.row("Logout") == "none: logout is local only", "\(show)")
            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0, "\(logout)")
            #expect(logout.stderr.contains("cannot revoke sessions"), "\(logout)")
            #expect(try sandbox.sessions.records().isEmpty)
        }
    }

    @Test("a static site and a server that publishes nothing never receive the password: their request logs say so")
    func nothingPublished() async throws {
        let sandbox = try Sandbox()
        // Python's own static file server, which logs every request it gets.
        let host = privateLoopbackHost()
        let port = try freeLoopbackPort(on: host)
        let folder = sandbox.root.appending(path: "site")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("<html><body>A site</body></html>".utf8).write(to: folder.appending(path: "index.html"))
        let log = sandbox.root.appending(path: "site.log")
        try await withChildProcess(
            URL(filePath: "/usr/bin/python3"),
            ["-u", "-m", "http.server", "--bind", host, "--directory", folder.path, String(port)], log: log
        ) { _ in
            let result = try await sandbox.login("http://\(host):\(port)", email: "a@example.com", password: "Pw-9!")
            #expect(result.status == 64, "\(result)")
            expectOneLine(result)
            #expect(result.stderr.contains("says how to log in"), "\(result)")
        }
        // Its log has a line for each request: `127.0.0.1 - - [date] "GET /path HTTP/1.1" 404 -`.
        let methods = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap { line in
            line.split(separator: "\"").dropFirst().first?.split(separator: " ").first.map(String.init)
        }
        #expect(!methods.isEmpty && Set(methods) == ["GET"], "\(methods)")
        // The account API's paths answer a POST there, but nothing says the server is that API.
        let logins = FaultServer.Replies([FaultServer.goodLogin])
        try await FaultServer.run(logins: logins, profiles: FaultServer.Replies([.init(body: "{}")]), publishing: false)
        {
            url in
            let result = try await sandbox.login(url, email: "a@example.com", password: "Pw-9!")
            #expect(result.status == 64, "\(result)")
            #expect(!result.stderr.contains("Pw-9!"))
        }
        #expect(logins.count == 0)
        #expect(try sandbox.sessions.records().isEmpty)
    }

    @Test("a profile request answered 503 is retried, and succeeds when the server recovers")
    func retriesTransientFailure() async throws {
        let sandbox = try Sandbox()
        let profiles = FaultServer.Replies([.init(status: .serviceUnavailable, body: ""), .init(body: #"{"id": 5}"#)])
        try await FaultServer.run(profiles: profiles) { url in
            let result = try await sandbox.login(url, email: "a@example.com", password: "pw")
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.hasPrefix("ID            5\n"))
        }
        #expect(profiles.count == 2)
    }

    @Test("a server that stays unavailable exits 5 after three attempts")
    func retriesGiveUp() async throws {
        let sandbox = try Sandbox()
        let profiles = FaultServer.Replies([.init(status: .serviceUnavailable, body: "")])
        try await FaultServer.run(profiles: profiles) { url in
            let result = try await sandbox.login(url, email: "a@example.com", password: "pw")
            #expect(result.status == 5, "\(result)")
            expectOneLine(result)
        }
        #expect(profiles.count == 3)
    }

    @Test("a rejected token exits 4, and the dead token is removed")
    func rejectedToken() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let login = try await sandbox.login(server.apiURL, email: "demo@example.com", password: "demo-password")
            try #require(login.status == 0, "\(login)")
            let account = Account(server: server.apiURL, name: "demo@example.com")
            try await sandbox.file.store(Credentials(accessToken: "forged.token.value"), for: account)

            let result = try await sandbox.swaggerctl("details")
            #expect(result.status == 4)
            expectOneLine(result)
            #expect(
                result.stderr
                    == "swaggerctl: The session has ended: the server refuses it. Run `swaggerctl login -s "
                    + "\(server.apiURL) -e demo@example.com`.\n")
            #expect(try await sandbox.file.credentials(for: account) == nil)
            #expect(try sandbox.sessions.records().isEmpty)
        }
    }

    @Test("a corrupt session file is reported with its path and left untouched")
    func corruptFile() async throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(at: sandbox.configDirectory, withIntermediateDirectories: true)
        let garbage = Data("{ this is not what swaggerctl wrote".utf8)
        try garbage.writePrivately(to: sandbox.sessionsFile)
        try await withDemoServer { server in
            for arguments in [["details", "-s", server.apiURL], ["status"]] {
                let result = try await sandbox.swaggerctl(arguments)
                #expect(result.status == 1, "\(result)")
                expectOneLine(result)
                #expect(result.stderr.contains(sandbox.sessionsFile.path))
            }
            let login = try await sandbox.login(server.apiURL, email: "demo@example.com", password: "demo-password")
            #expect(login.status == 1, "\(login)")
            #expect(login.stderr.contains(sandbox.sessionsFile.path))
        }
        #expect(try Data(contentsOf: sandbox.sessionsFile) == garbage)
    }
}
