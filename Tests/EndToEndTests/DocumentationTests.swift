import Foundation
import Testing

/// Every command example in the README, the Docs and the man page (which holds each command's help examples),
/// run as written by a shell against the demo server: documentation that drifts from the command line fails
/// here, not in a reader's terminal.
///
/// The examples name hosts, accounts and files that are not here, so those names are mapped first: every
/// example server to the demo server, every example e-mail to the demo account, `$PASSWORD` to its password,
/// and the files an example reads are made. The commands themselves are not touched. A login that asks for
/// the password runs on a terminal, where the password is typed.
///
/// A pipeline fails when any command in it fails (`pipefail`). The `api` examples run against the FastAPI app,
/// whose routes for them answer with what they were sent, so an example whose comment names a method (`# GET`)
/// is checked to send it.
@Suite("Documentation: every command example runs as written", .timeLimit(.minutes(15)))
struct DocumentationTests {
    struct Example: CustomTestStringConvertible, Sendable {
        var source: String
        var command: String
        /// What a `# …` comment after the command says of it.
        var comment: String?
        var testDescription: String { "\(source): \(command)" }

        /// An `api` example for a server with paged lists and enums, which runs against the FastAPI app; the demo
        /// server's own operations' run against the demo server, as a newcomer runs them after `make demo`.
        var isAPI: Bool {
            command.contains("swaggerctl api") && !["getUser", "/User/User"].contains { command.contains($0) }
        }
    }

    /// Examples that show a failure on purpose, and their exit status: a bad option; a server forgotten while an
    /// account is logged in to it, as every example but a login's runs.
    static let failingOnPurpose: [String: Int32] = [
        "swaggerctl details --bogus": 64, "swaggerctl server forget https://api.example.com": 1,
        // With the session the example runs beside, and no terminal to ask at: its tokens would go to the new host.
        "swaggerctl server set https://api.example.com --allow-origin https://login.example.com": 64,
    ]

    /// The example servers and accounts of the documentation.
    static var exampleServers: Regex<Substring> {
        /https?:\/\/(?:accounts\.example\.com|api\.example\.com|auth\.example\.com|host)(?::\d+)?(?:\/[A-Za-z0-9\/._-]*)?|http:\/\/127\.0\.0\.1:8080\/api/
    }
    static var exampleEmails: Regex<Substring> { /\b(?:me|ana|you)@example\.com\b/ }

    /// The examples: lines of shell in fenced blocks of the Markdown files and literal displays of the man page
    /// that run swaggerctl, with their continuation lines joined. Synopses (`[-s URL]`) and printed output
    /// (`swaggerctl: …`) are not examples.
    static func examples() throws -> [Example] {
        var examples: [Example] = []
        var seen: Set<String> = []
        func add(_ source: String, _ lines: [String]) {
            var joined: [String] = []
            var pending = ""
            for line in lines {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasSuffix("\\") {
                    pending += trimmed.dropLast() + " "
                    continue
                }
                joined.append(pending + trimmed)
                pending = ""
            }
            // A line that only prepares (`mkdir -p`, `export`) goes with the example that follows it.
            var setup: [String] = []
            for line in joined {
                if ["mkdir ", "export "].contains(where: line.hasPrefix), !line.contains("swaggerctl") {
                    setup.append(line)
                    continue
                }
                defer { setup = [] }
                var command = line.hasPrefix("$ ") ? String(line.dropFirst(2)) : line
                var comment: String?
                if let mark = command.range(of: " # ") ?? command.range(of: "  #") {
                    comment = command[mark.upperBound...].trimmingCharacters(in: .whitespaces.union(["#"]))
                    command = String(command[..<mark.lowerBound]).trimmingCharacters(in: .whitespaces)
                }
                let runsSwaggerctl =
                    command.hasPrefix("swaggerctl ")
                    || ["| swaggerctl ", "&& swaggerctl ", "|| swaggerctl ", "(swaggerctl "].contains {
                        command.contains($0)
                    }
                guard runsSwaggerctl, !command.contains("[-"), !command.hasPrefix("swaggerctl:") else { continue }
                let normalised = (setup + [command]).joined(separator: " && ").replacing(/\s+/, with: " ")
                guard seen.insert(normalised).inserted else { continue }
                examples.append(Example(source: source, command: normalised, comment: comment))
            }
        }
        var documents = ["README.md"]
        let docs = Project.root.appending(path: "Docs")
        documents += try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }
            .sorted().map { "Docs/\($0)" }
        for document in documents {
            let text = try String(contentsOf: Project.root.appending(path: document), encoding: .utf8)
            for block in text.matches(of: /```[a-z]*\n((?:.|\n)*?)```/) {
                add(document, block.1.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
            }
        }
        let page = try String(contentsOf: PackagingTests.manPage(), encoding: .utf8)
        for block in page.matches(of: /\.Bd -literal[^\n]*\n((?:.|\n)*?)\.Ed/) {
            let lines = block.1.split(separator: "\n").map { line in
                String(line).replacing("\\e", with: "\\").replacing("\\&", with: "")
            }
            add("swaggerctl(1)", lines)
        }
        return examples
    }

    /// The Python script Docs/usage.md shows `exec` running, as `report.py`.
    static func documentedScript() throws -> String {
        let text = try String(contentsOf: Project.root.appending(path: "Docs/usage.md"), encoding: .utf8)
        return String(try #require(text.firstMatch(of: /```python\n(# report\.py(?:.|\n)*?)```/)).1)
    }

    @Test("the documentation has examples of every command")
    func everyCommand() throws {
        let commands = try Self.examples().map(\.command)
        for command in SwaggerCommands.all {
            #expect(commands.contains { $0.contains("swaggerctl \(command)") }, "no example of \(command)")
        }
    }

    @Test(
        "each example is a command line swaggerctl accepts, and runs without a crash",
        arguments: try examples().filter { !$0.isAPI })
    func runs(_ example: Example) async throws {
        let bus = try TestKeyring.busAddress()
        let sandbox = try Sandbox(environment: ["DBUS_SESSION_BUS_ADDRESS": bus])
        try await withDemoServer { server in
            let command = example.command.replacing(Self.exampleServers, with: server.apiURL)
                .replacing(Self.exampleEmails, with: Sandbox.demo.email)
            // The files examples read, where they look for them.
            try Data(#"{"name": "item"}"#.utf8).write(to: sandbox.root.appending(path: "item.json"))
            try Data((Sandbox.demo.password + "\n").utf8).write(to: sandbox.root.appending(path: "password.txt"))
            try Data(try Self.documentedScript().utf8).write(to: sandbox.root.appending(path: "report.py"))
            // A description as `server export` writes it, of the demo server.
            let description = Data(#"{"server": "\#(server.apiURL)", "preset": "original"}"#.utf8)
            for file in ["api.json", "team-api.json"] { try description.write(to: sandbox.root.appending(path: file)) }
            try FileManager.default.copyItem(
                at: URL(filePath: "/etc/ssl/certs/ca-certificates.crt"), to: sandbox.root.appending(path: "corp-ca.pem")
            )
            // A token the server made, as a login elsewhere would have it, for `--with-token < token.txt`.
            if command.contains("token.txt") {
                let elsewhere = try Sandbox(environment: ["DBUS_SESSION_BUS_ADDRESS": bus])
                try #require(try await elsewhere.loginAsDemo(server.apiURL, extra: ["-q"]).status == 0)
                let token = try await elsewhere.swaggerctl("token").stdout
                try Data(token.utf8).write(to: sandbox.root.appending(path: "token.txt"))
            }
            let isLogin = command.contains("swaggerctl login")
            if !isLogin { try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0) }

            let environment = sandbox.environment.merging([
                "PATH": Binaries.directory.path + ":/usr/bin:/bin", "PASSWORD": Sandbox.demo.password,
                "CLIENT_SECRET": "client-secret", "API": server.apiURL, "SWAGGERCTL_SERVER": server.apiURL,
            ]) { $1 }
            let script = "set -o pipefail; cd \"$HOME\" && \(command)"
            let status: Int32
            let output: String
            if isLogin, !command.contains("--password-stdin") {
                let terminal = try await onDedicatedThread {
                    try PseudoTerminalProcess(
                        ["-c", script], environment: environment.merging(["TERM": "xterm"]) { $1 },
                        program: URL(filePath: "/bin/bash"))
                }
                status = try await onDedicatedThread {
                    // A command that succeeds or fails before it asks never shows the prompt.
                    // Whoever the example names: an example account of another kind keeps its own name.
                    if try terminal.shows("Password for ") {
                        terminal.type(Sandbox.demo.password + "\n")
                    }
                    return try terminal.finish()
                }
                output = terminal.transcript
            } else {
                let result = try await runProgram(URL(filePath: "/bin/bash"), ["-c", script], environment: environment)
                (status, output) = (result.status, result.stdout + result.stderr)
            }
            #expect(status < 128, "\(command) crashed: \(output)")
            if let expected = Self.failingOnPurpose[example.command] {
                #expect(status == expected, "\(output)")
                return
            }
            // argument-parser's usage errors, and only they, print a Usage: line.
            #expect(!output.contains("Usage:"), "\(command) is not a valid command line: \(output)")
            // What the original API serves, the demo server serves: those examples succeed outright. Those that
            // describe or sign in to another server fail against it, but not for their command line.
            let otherServer = [
                "--kind", "--preset", "--openapi", " -u ", "--username", "--web", "--device", "--client-id",
                "--profile-path", "--login-field", "--token",
            ].contains { command.contains($0) }
            if !otherServer { #expect(status == 0, "\(command): \(output)") }
        }
    }

    /// The method a comment names first, as in `# GET: the fields go in the query`.
    static func claimedMethod(_ comment: String?) -> String? {
        guard let word = comment?.prefix(while: \.isLetter), ["GET", "POST", "PUT", "PATCH", "DELETE"].contains(word)
        else { return nil }
        return String(word)
    }

    @Test(
        "each api example succeeds against FastAPI, with the method its comment names",
        arguments: try examples().filter(\.isAPI))
    func apiRuns(_ example: Example) async throws {
        try await APITests().withSession { sandbox, server in
            try Data(#"{"name": "item"}"#.utf8).write(to: sandbox.root.appending(path: "item.json"))
            let command = example.command.replacing(Self.exampleServers, with: server.origin)
            let environment = sandbox.environment.merging(["PATH": Binaries.directory.path + ":/usr/bin:/bin"]) {
                $1
            }
            let result = try await runProgram(
                URL(filePath: "/bin/bash"), ["-c", "set -o pipefail; cd \"$HOME\" && \(command)"],
                environment: environment)
            #expect(result.status == 0, "\(command): \(result)")
            // The echoing routes answer with the method they got.
            if let method = Self.claimedMethod(example.comment), result.stdout.contains(#""method""#) {
                #expect(
                    result.stdout.contains(#""method":"\#(method)""#),
                    "\(command) # \(example.comment ?? ""): \(result)")
            }
        }
    }
}
