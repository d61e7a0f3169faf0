import Foundation
import Testing

/// What `api` and `operations` print, against the demo server: lines ended in a pipe, `-i`'s status line as curl
/// shows it, `-v`'s bodies as received, tables of an object fitted to the terminal, `--jq` into `-o table`, and
/// `api --list`.
@Suite("api's output: ended lines, -i and -v as curl, tables of objects", .timeLimit(.minutes(15)))
struct OutputTests {
    /// The lines a terminal shows of `transcript`, without the spinner that a slow answer draws and erases before
    /// the first.
    static func screenLines(_ transcript: String) -> [Substring] {
        transcript.split(separator: "\r\n").map { line in
            line.split(separator: "\u{1B}[K", omittingEmptySubsequences: false).last ?? line
        }
    }

    /// Logs in to a fresh demo server, then runs `body`.
    func withSession(_ body: (Sandbox, DemoServerProcess) async throws -> Void) async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            try await body(sandbox, server)
        }
    }

    @Test("in a pipe the body and --dry-run's line end with a newline; --silent prints nothing")
    func endedLines() async throws {
        try await withSession { sandbox, _ in
            let user = try await sandbox.swaggerctl("api", "getUser")
            #expect(user.status == 0 && user.stdout.hasSuffix("}\n") && !user.stdout.hasSuffix("\n\n"), "\(user)")
            #expect(try JSONSerialization.jsonObject(with: Data(user.stdout.utf8)) is [String: Any])
            let dry = try await sandbox.swaggerctl("api", "getUser", "--dry-run")
            #expect(dry.status == 0 && dry.stdout.hasPrefix("curl ") && dry.stdout.hasSuffix("\"\n"), "\(dry)")
            let silent = try await sandbox.swaggerctl("api", "getUser", "--silent")
            #expect(silent.status == 0 && silent.stdout.isEmpty, "\(silent)")
        }
    }

    @Test("-i's status line names the HTTP version as the response had it, as curl -i does")
    func statusLine() async throws {
        try await withSession { sandbox, _ in
            let included = try await sandbox.swaggerctl("api", "getUser", "-i")
            #expect(included.status == 0 && included.stdout.hasPrefix("HTTP/1.1 200 OK\n"), "\(included)")
        }
    }

    @Test("-v shows the response's body as received, line by line, not written again")
    func verboseBody() async throws {
        try await withSession { sandbox, _ in
            let user = try await sandbox.swaggerctl("api", "getUser")
            let verbose = try await sandbox.swaggerctl("api", "getUser", "-v")
            #expect(verbose.status == 0, "\(verbose)")
            let sent = user.stdout.split(separator: "\n").prefix(3)
            try #require(sent.count == 3, "\(user)")
            let shown = verbose.stderr.split(separator: "\n").filter { $0.hasPrefix("< ") }.map { $0.dropFirst(2) }
            for line in sent {
                #expect(shown.contains(line), "\(line) is not in:\n\(verbose.stderr)")
            }
        }
    }

    @Test("-o table of an object is a row for each member, nested values as compact JSON, whole in a pipe")
    func objectTable() async throws {
        try await withSession { sandbox, _ in
            let table = try await sandbox.swaggerctl("api", "getUser", "-o", "table")
            #expect(table.status == 0, "\(table)")
            let rows = table.stdout.split(separator: "\n")
            #expect(rows.count == 12, "\(table)")
            #expect(rows.contains { $0.hasPrefix("email ") && $0.hasSuffix("  demo@example.com") }, "\(table)")
            #expect(
                rows.contains {
                    $0.hasPrefix("organisation  ") && $0.hasSuffix(#"{"city":"Zagreb","name":"Primjer d.o.o."}"#)
                },
                "\(table)")
            #expect(!table.stdout.contains("\\u{a}"), "\(table)")

            let picked = try await sandbox.swaggerctl("api", "getUser", "--jq", "{name, email}", "-o", "table")
            #expect(picked.status == 0 && picked.stdout == "name   Ana\nemail  demo@example.com\n", "\(picked)")
        }
    }

    @Test("-o table of an object on a terminal fits its width, each long value cut with …")
    func objectTableOnATerminal() async throws {
        try await withSession { sandbox, _ in
            let terminal = try await sandbox.onTerminal("api", "getUser", "-o", "table", environment: ["COLUMNS": "40"])
            #expect(try terminal.finish() == 0, "\(terminal.transcript)")
            let lines = Self.screenLines(terminal.transcript)
            #expect(lines.count == 12, "\(terminal.transcript)")
            #expect(lines.allSatisfy { $0.count <= 40 }, "\(terminal.transcript)")
            #expect(lines.contains { $0.hasPrefix("organisation  {") && $0.hasSuffix("…") }, "\(terminal.transcript)")
        }
    }

    @Test("operations' summaries are whole in a pipe and cut to the terminal's width on one; api --list is the same")
    func operationsWidth() async throws {
        try await withSession { sandbox, _ in
            let summary = "Exchange a refresh token for a new access token and a new refresh token."
            let piped = try await sandbox.swaggerctl("operations")
            #expect(piped.status == 0 && piped.stdout.contains(summary + "\n"), "\(piped)")
            let listed = try await sandbox.swaggerctl("api", "--list")
            #expect(listed.status == 0 && listed.stdout == piped.stdout, "\(listed)")
            let word = try await sandbox.swaggerctl("api", "--list", "refresh")
            #expect(word.status == 0 && word.stdout.split(separator: "\n").count == 1, "\(word)")

            let terminal = try await sandbox.onTerminal("operations", environment: ["COLUMNS": "60"])
            #expect(try terminal.finish() == 0, "\(terminal.transcript)")
            let lines = Self.screenLines(terminal.transcript)
            #expect(!lines.isEmpty && lines.allSatisfy { $0.count <= 60 }, "\(terminal.transcript)")
            #expect(lines.contains { $0.hasPrefix("refreshToken ") && $0.hasSuffix("…") }, "\(terminal.transcript)")
        }
    }
}
