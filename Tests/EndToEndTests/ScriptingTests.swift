import Foundation
import SessionMachine
import SessionStorage
import SwaggerClient
import SwaggerHTTP
import SwaggerModel
import Synchronization
import TestSupport
import Testing

/// The table in Docs/exit-codes.md.
enum ExitCodes {
    static func documented() throws -> [(code: Int32, name: String)] {
        let text = try String(contentsOf: Project.root.appending(path: "Docs/exit-codes.md"), encoding: .utf8)
        return text.matches(of: /(?m)^\| (\d+) \| ([a-z ]+) \|/).compactMap { match in
            Int32(match.1).map { ($0, String(match.2)) }
        }
    }
}

/// What scripts rely on: quiet success, JSON that parses, and exit codes that mean what the docs say.
@Suite("Scripting: --quiet, JSON output and exit codes", .timeLimit(.minutes(15)))
struct ScriptingTests {
    /// Parses `text` with `python3 -m json.tool`, an independent JSON parser.
    static func parsesAsJSON(_ text: String) async throws -> Bool {
        try await runProgram(
            URL(filePath: "/usr/bin/python3"), ["-m", "json.tool"], environment: ["PATH": "/usr/bin:/bin"],
            stdin: text
        ).status == 0
    }

    @Test("login --quiet prints nothing on success, and still one line on failure")
    func quietLogin() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            let quiet = try await sandbox.loginAsDemo(server.apiURL, extra: ["--quiet"])
            #expect(quiet.status == 0)
            #expect(quiet.stdout.isEmpty)
            #expect(quiet.stderr.isEmpty)
            #expect(try sandbox.sessions.records().map(\.name) == [Sandbox.demo.email])

            let refused = try await sandbox.login(
                server.apiURL, email: "x@example.com", password: "wrong", extra: ["-q"])
            #expect(refused.status == 4)
            #expect(refused.stdout.isEmpty)
            #expect(refused.stderr.hasPrefix("swaggerctl: "))
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused)")
        }
    }

    @Test("login --quiet still warns, on one line, when the token goes to the file instead of the keyring")
    func quietLoginWarns() async throws {
        let sandbox = try Sandbox(environment: ["SWAGGERCTL_KEYRING": "auto"])
        try await withDemoServer { server in
            let quiet = try await sandbox.loginAsDemo(
                server.apiURL, extra: ["--quiet"], environment: ["DBUS_SESSION_BUS_ADDRESS": ""])
            #expect(quiet.status == 0, "\(quiet)")
            #expect(quiet.stdout.isEmpty)
            #expect(quiet.stderr.hasPrefix("swaggerctl: warning: ") && quiet.stderr.split(separator: "\n").count == 1)
            #expect(quiet.stderr.contains(sandbox.credentialsFile.path), "\(quiet)")
        }
        let help = try await sandbox.swaggerctl("login", "--help")
        #expect(help.stdout.contains("still go to stderr"), "\(help)")
    }

    @Test("every --format json output parses, empty ones included")
    func json() async throws {
        let sandbox = try Sandbox()
        let empty = try await sandbox.swaggerctl("status", "--format", "json")
        #expect(empty.status == 4)
        #expect(empty.stdout == "[]\n")
        #expect(try await Self.parsesAsJSON(empty.stdout))

        let withToken = try await sandbox.swaggerctl(
            ["status", "--format", "json"], environment: ["SWAGGERCTL_TOKEN": "a.b.c"])
        #expect(withToken.status == 0)
        #expect(withToken.stdout == "[]\n")

        try await withDemoServer { server in
            var outputs = [try await sandbox.loginAsDemo(server.apiURL, extra: ["--format", "json"])]
            outputs.append(try await sandbox.swaggerctl("details", "--format", "json"))
            outputs.append(try await sandbox.swaggerctl("status", "--format", "json"))
            outputs.append(try await sandbox.swaggerctl("status", "--check", "--format", "json"))
            for output in outputs {
                #expect(output.status == 0, "\(output)")
                #expect(try await Self.parsesAsJSON(output.stdout), "\(output)")
                #expect(output.stdout.hasSuffix("\n"))
            }
        }

        // A profile with no fields at all is the empty object.
        try await FaultServer.run(profile: FaultServer.Reply(body: "{}")) { url in
            let login = try await sandbox.swaggerctl(
                ["login", "-s", url, "-e", "a@example.com", "--password-stdin", "--format", "json"], stdin: "pw\n")
            #expect(login.status == 0, "\(login)")
            #expect(login.stdout == "{}\n")
            let details = try await sandbox.swaggerctl("details", "-s", url, "--format", "json")
            #expect(details.stdout == "{}\n", "\(details)")
        }
    }

    /// One real way to get each documented code, and what stderr then holds.
    static func produce(_ code: Int32) async throws -> (status: Int32, stderr: String) {
        let sandbox = try Sandbox()
        switch code {
        case 0:
            return try await withDemoServer { server in
                _ = try await sandbox.loginAsDemo(server.apiURL)
                let result = try await sandbox.swaggerctl("details")
                return (result.status, result.stderr)
            }
        case 1:
            try FileManager.default.createDirectory(at: sandbox.configDirectory, withIntermediateDirectories: true)
            try Data("not json".utf8).writePrivately(to: sandbox.sessionsFile)
            let result = try await sandbox.swaggerctl("status")
            return (result.status, result.stderr)
        case 3:
            let result = try await sandbox.swaggerctl(
                "login", "-s", "http://\(privateLoopbackHost()):9/api",
                "-e", "a@example.com", "--password-stdin", stdin: "pw\n")
            return (result.status, result.stderr)
        case 4:
            let result = try await sandbox.swaggerctl("details", "-s", "http://127.0.0.1:8080/api")
            return (result.status, result.stderr)
        case 5:
            let broken = FaultServer.Reply(status: .internalServerError, body: "{}")
            let outcome = Mutex<CommandResult?>(nil)
            try await FaultServer.run(login: broken) { url in
                let result = try await sandbox.swaggerctl(
                    "login", "-s", url, "-e", "a@example.com", "--password-stdin", stdin: "pw\n")
                outcome.withLock { $0 = result }
            }
            let result = try #require(outcome.withLock { $0 })
            return (result.status, result.stderr)
        case 64:
            let result = try await sandbox.swaggerctl("details", "--bogus")
            return (result.status, result.stderr)
        case 126, 127:
            // exec's command, with a token from the environment: no server is asked anything.
            let command = code == 126 ? "/etc/passwd" : "no-such-command-here"
            let result = try await sandbox.swaggerctl(
                ["exec", "-s", "http://127.0.0.1:8080/api", "--", command],
                environment: ["SWAGGERCTL_TOKEN": "an-opaque-token"])
            return (result.status, result.stderr)
        case 130:
            // The kind is said, so nothing is read from the server, which is not there, before the prompt.
            let terminal = try await sandbox.onTerminal(
                "login", "-s", "http://127.0.0.1:8080/api", "--kind", "original")
            let status = try await terminal.answer("E-mail for http://127.0.0.1:8080/api: ", with: "\u{04}")
            let stderr = String(terminal.transcript.split(separator: "\r\n").last ?? "") + "\n"
            return (status, stderr)
        default:
            Issue.record("Docs/exit-codes.md documents \(code), which no scenario here produces")
            return (-1, "")
        }
    }

    @Test("each exit code in Docs/exit-codes.md is what a real failure of its kind exits with, and none is missing")
    func exitCodeTable() async throws {
        let documented = try ExitCodes.documented()
        #expect(documented.map(\.code) == [0, 1, 3, 4, 5, 64, 126, 127, 130])
        #expect(
            documented.map(\.name) == [
                "success", "failure", "network", "authentication", "server or contract", "usage",
                "command cannot run", "command not found", "cancelled",
            ])
        for (code, name) in documented {
            let (status, stderr) = try await Self.produce(code)
            #expect(status == code, "\(name): \(stderr)")
            let lines = stderr.split(separator: "\n")
            switch code {
            case 0: break
            case 64:
                // The synopsis may be folded over several rows, each indented under the first option.
                #expect(lines.count >= 3 && lines[0].hasPrefix("swaggerctl: ") && lines[1].hasPrefix("Usage: "))
                #expect(lines.last?.hasPrefix("  See 'swaggerctl ") == true, "\(name): \(stderr)")
            default:
                #expect(lines.count == 1 && lines[0].hasPrefix("swaggerctl: "), "\(name): \(stderr)")
            }
        }
        // The help's summary lists the same codes and names.
        let help = try await Sandbox().swaggerctl("--help").stdout.replacing("\n", with: " ")
        let summary = documented.map { "\($0.code) \($0.code == 1 ? "other failure" : $0.name)" }
        #expect(help.contains("Exit codes: " + summary.joined(separator: ", ") + "."), "\(help)")
    }
}
