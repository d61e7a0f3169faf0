import Foundation
import SwaggerClient
import SwaggerModel
import Testing

@Suite("Usage: help, bad arguments and a bad environment", .timeLimit(.minutes(15)))
struct UsageTests {
    @Test("--help lists the commands, the README's quick start and the exit codes")
    func help() async throws {
        let result = try await Sandbox().swaggerctl("--help")
        #expect(result.status == 0)
        for command in SwaggerCommands.all {
            #expect(result.stdout.contains("  \(command) "), "\(command)")
        }
        let readme = try String(contentsOf: Project.root.appending(path: "README.md"), encoding: .utf8)
        let quickStart = try #require(readme.firstMatch(of: /## At a glance\n\n```\n([^`]*)```/)?.1)
        for line in quickStart.split(separator: "\n") {
            #expect(result.stdout.contains("  \(line)"), "\(line)")
        }
        // Help wraps prose at 80 columns.
        #expect(
            result.stdout.replacing("\n", with: " ").contains(
                "Exit codes: 0 success, 1 other failure, 3 network, 4 authentication, 5 server or contract, 64 usage, "
                    + "126 command cannot run, 127 command not found, 130 cancelled."))
    }

    @Test("every command's help has examples that run swaggerctl", arguments: SwaggerCommands.all)
    func examples(command: String) async throws {
        let result = try await Sandbox().swaggerctl(command, "--help")
        #expect(result.status == 0, "\(result)")
        let examples = try #require(result.stdout.firstMatch(of: /\nExamples:\n((?:.+\n)+)/)?.1, "\(result)")
        #expect(examples.contains("swaggerctl \(command)"), "\(examples)")
        #expect(!result.stdout.contains("\\\n"), "a line continuation leaked into the help: \(result.stdout)")
        // Each example fits the 80 columns that help is wrapped to, so none is broken across lines.
        for line in examples.split(separator: "\n") {
            #expect(line.hasPrefix("  "), "wrapped: \(line)")
        }
    }

    @Test("api's help fits one screen of 50 lines with its examples; --help-hidden adds the options every command has")
    func apiHelpFitsAScreen() async throws {
        let sandbox = try Sandbox()
        let help = try await sandbox.swaggerctl("api", "--help")
        #expect(help.status == 0, "\(help)")
        let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count <= 50, "\(lines.count) lines:\n\(help.stdout)")
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(help.stdout)")
        #expect(help.stdout.contains("swaggerctl api getUser") && help.stdout.contains("--paginate --jq"))
        #expect(!help.stdout.contains("--keyring <backend>"), "\(help.stdout)")

        let hidden = try await sandbox.swaggerctl("api", "--help-hidden")
        #expect(hidden.stdout.contains("--keyring <backend>"), "\(hidden.stdout)")
    }

    @Test("login's and api's help show -v and --ca-cert, which the README uses", arguments: ["login", "api"])
    func networkOptionsShown(command: String) async throws {
        let help = try await Sandbox().swaggerctl(command, "--help")
        for option in ["--ca-cert <file>", "-v, --verbose"] {
            #expect(help.stdout.contains("  \(option) "), "\(option): \(help.stdout)")
        }
    }

    @Test(
        "no example is wrapped: at 80 and 40 columns each is whole on its line, indented, as at 300",
        arguments: SwaggerCommands.paths)
    func examplesWhole(path: [String]) async throws {
        let sandbox = try Sandbox()
        func examples(_ columns: Int) async throws -> [Substring] {
            let result = try await sandbox.swaggerctl(path + ["--help"], environment: ["COLUMNS": "\(columns)"])
            #expect(result.status == 0, "\(result)")
            let block = result.stdout.firstMatch(of: /\n(?:Examples|Quick start):\n((?:.+\n)+)/)?.1 ?? ""
            return block.split(separator: "\n")
        }
        let wide = try await examples(300)
        #expect(wide.allSatisfy { $0.hasPrefix("  ") }, "\(wide)")
        for columns in [80, 40] {
            #expect(try await examples(columns) == wide, "\(path) at \(columns) columns")
        }
    }

    @Test(
        "every option and argument of every command has a line of help, hidden ones too",
        arguments: SwaggerCommands.paths)
    func optionsHaveHelp(path: [String]) async throws {
        let result = try await Sandbox().swaggerctl(path + ["--help-hidden"])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        var section = ""
        for (index, line) in lines.enumerated() {
            if !line.hasPrefix(" "), line.hasSuffix(":") { section = String(line) }
            guard section == "OPTIONS:" || section == "ARGUMENTS:", line.firstMatch(of: /^  [^ ]/) != nil else {
                continue
            }
            // argument-parser puts the help beside the names, at column 26 (one space away from names that fill the
            // column, two or more from shorter ones), or under them when they are longer.
            let beside =
                line.dropFirst(2).firstMatch(of: #/  +[^ ]/#) != nil
                || (line.dropFirst(25).first == " " && line.dropFirst(26).first.map { $0 != " " } == true)
            let under = index + 1 < lines.count && lines[index + 1].hasPrefix("   ")
            #expect(beside || under, "\(path.joined(separator: " ")): \(line) has no help")
        }
    }

    @Test("a usage error is argument-parser's message with swaggerctl: in front, then its Usage and help lines")
    func usageErrorFormat() async throws {
        let result = try await Sandbox().swaggerctl("details", "--bogus")
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        // The synopsis is folded to 80 columns between options, its rows under the first option.
        try #require(lines.count == 6, "\(result)")
        #expect(lines[0] == "swaggerctl: Unknown option '--bogus'")
        #expect(lines[1].hasPrefix("Usage: swaggerctl details [--server <url>] "))
        #expect(lines[2...3].allSatisfy { $0.hasPrefix(String(repeating: " ", count: 26) + "[--") })
        #expect(lines[4] == "  See 'swaggerctl details --help' for more information.")
        #expect(lines[5] == "")
    }

    @Test("a --server-file that cannot be a description is refused on one line, whole or not at all")
    func serverFileRefused() async throws {
        let sandbox = try Sandbox()
        let large = sandbox.root.appending(path: "large.json")
        // Valid JSON up to any cut: read in part, it could pass for a description.
        try Data(("{\"kind\": \"custom\"" + String(repeating: " ", count: 70_000) + "}").utf8).write(to: large)
        let unknown = sandbox.root.appending(path: "unknown.json")
        try Data(#"{"logn": "/x"}"#.utf8).write(to: unknown)
        let wrong = sandbox.root.appending(path: "wrong.json")
        try Data(#"{"login": "/x", "profile": {"url": "/me"}}"#.utf8).write(to: wrong)
        for (file, said) in [
            (large.path, "holds more than 64 KiB"), (unknown.path, #""logn" is not a flag that describes a server"#),
            (wrong.path, "cannot be used: login must be an object"),
            (sandbox.root.appending(path: "missing.json").path, "cannot be read"),
        ] {
            let result = try await sandbox.swaggerctl(
                [
                    "login", "-s", "http://127.0.0.1:9/api", "-e", "a@example.com", "--password-stdin", "--server-file",
                    file,
                ], stdin: "pw\n")
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains(said) && result.stderr.split(separator: "\n").count == 1, "\(result)")
        }
    }

    @Test(
        "every command's synopsis fits 80 columns, folded between options and never inside one, in help and errors",
        arguments: [
            "details", "logout", "status", "token", "refresh", "operations", "exec", "git-credential", "api", "login",
            "switch", "server set", "server show", "server list", "server import", "completion",
        ])
    func synopsisFits(command: String) async throws {
        let words = command.split(separator: " ").map(String.init)
        let help = try await Sandbox().swaggerctl(words + ["--help"])
        let error = try await Sandbox().swaggerctl(words + ["--bogus"])
        #expect(help.status == 0 && error.status == 64, "\(help)\n\(error)")
        for text in [help.stdout, error.stderr] {
            let lines = text.split(separator: "\n").map(String.init)
            let start = try #require(lines.firstIndex { $0.hasPrefix("USAGE: ") || $0.hasPrefix("Usage: ") }, "\(text)")
            let synopsis = lines[start...].prefix { $0 == lines[start] || $0.hasPrefix("       ") }
            for line in synopsis {
                #expect(line.count <= 80, "\(line)")
                #expect(line.filter { $0 == "[" }.count == line.filter { $0 == "]" }.count, "broken inside: \(line)")
            }
        }
    }

    @Test("login --help: the usual form and the basic options on the first screen, browser and machine after them")
    func loginHelpOrder() async throws {
        let help = try await Sandbox().swaggerctl("login", "--help")
        #expect(help.status == 0, "\(help)")
        let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let line = { (text: String) in lines.firstIndex { $0.hasPrefix(text) } ?? lines.count }
        #expect(lines.contains("USAGE: swaggerctl login -s <url> -e <email> [--password-stdin] [<options>]"))
        for basic in ["  -s, --server", "  -e, --email", "  --password-stdin", "  --with-token", "  --name"] {
            #expect(line(basic) < 24, "\(basic) is at line \(line(basic) + 1)")
        }
        #expect(line("SIGNING IN:") < line("SIGNING IN IN THE BROWSER:"))
        #expect(line("SIGNING IN IN THE BROWSER:") < line("  --web"))
        #expect(line("  --web") < line("SIGNING IN AS A MACHINE:"))
        #expect(line("SIGNING IN AS A MACHINE:") < line("  --client-credentials"))
        #expect(line("  --client-credentials") < line("  --client-key "))
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
    }

    @Test(
        "a missing or invalid value, or a missing argument, adds the Help line of what it is for",
        arguments: [
            (["login", "-s"], "Missing value for '-s <url>'", "Help:  -s <url>  "),
            (["status", "--format", "xml"], "The value 'xml' is invalid for '--format <format>'", "Help:  --format "),
        ])
    func usageErrorWithHelp(arguments: [String], error: String, help: String) async throws {
        let result = try await Sandbox().swaggerctl(arguments)
        #expect(result.status == 64)
        let lines = result.stderr.split(separator: "\n")
        // A command with several synopses (login) has a line for each.
        try #require(lines.count >= 4, "\(result)")
        #expect(lines[0].hasPrefix("swaggerctl: \(error)"))
        #expect(lines[1].hasPrefix(help))
        #expect(lines[2].hasPrefix("Usage: swaggerctl \(arguments[0]) "))
        // A synopsis goes on over several rows, folded, or several synopses each have one (login).
        #expect(lines.dropFirst(3).dropLast().allSatisfy { $0.hasPrefix("       ") })
        #expect(lines.last == "  See 'swaggerctl \(arguments[0]) --help' for more information.")
    }

    @Test("api without an operation or path says so, and that --list lists the operations")
    func apiWithoutPath() async throws {
        let result = try await Sandbox().swaggerctl("api")
        #expect(result.status == 64, "\(result)")
        #expect(
            result.stderr.hasPrefix(
                "swaggerctl: Missing expected argument '<operation|path>'. `swaggerctl api --list` lists the operations.\n"
            ),
            "\(result)")
    }

    @Test(
        "an unknown command suggests the closest one, if any is close",
        arguments: [
            ("detials", "'detials' is not a swaggerctl command. Did you mean 'details'?"),
            ("stauts", "'stauts' is not a swaggerctl command. Did you mean 'status'?"),
            ("Login", "'Login' is not a swaggerctl command. Did you mean 'login'?"),
            ("swich", "'swich' is not a swaggerctl command. Did you mean 'switch'?"),
            ("frobnicate", "'frobnicate' is not a swaggerctl command. Run `swaggerctl --help` for the commands."),
        ])
    func unknownCommand(word: String, message: String) async throws {
        let result = try await Sandbox().swaggerctl(word)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("swaggerctl: \(message)\nUsage: swaggerctl <subcommand>\n"), "\(result)")
    }

    @Test("help with a command that does not exist is a usage error; help with one that does shows its help")
    func helpTopic() async throws {
        let sandbox = try Sandbox()
        let bogus = try await sandbox.swaggerctl("help", "bogus")
        #expect(bogus.status == 64)
        #expect(bogus.stdout.isEmpty)
        #expect(bogus.stderr.hasPrefix("swaggerctl: There is no help for 'bogus': it is not a swaggerctl command."))

        let near = try await sandbox.swaggerctl("help", "detials")
        #expect(near.status == 64)
        #expect(near.stderr.contains("Did you mean 'details'?"))

        let details = try await sandbox.swaggerctl("help", "details")
        #expect(details.status == 0)
        #expect(details.stdout.hasPrefix("OVERVIEW: Show your profile"))
    }

    @Test("--version is one line: the version, the commit it was built from, and the Swift version")
    func version() async throws {
        let result = try await Sandbox().swaggerctl("--version")
        #expect(result.status == 0)
        let match = try #require(
            result.stdout.wholeMatch(
                of: /swaggerctl (\d+\.\d+\.\d+) \(commit ([0-9a-f]{12}|unknown), Swift (\d+\.\d+(\.\d+)?)\)\n/),
            "\(result)")
        let head = try await runProgram(
            URL(filePath: "/usr/bin/git"), ["-C", Project.root.path, "rev-parse", "--short=12", "HEAD"],
            environment: ["PATH": "/usr/bin:/bin"])
        // A build outside a git checkout says so, rather than guessing.
        let commit = head.status == 0 ? head.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : "unknown"
        #expect(String(match.2) == commit)
        #expect(String(match.1) == SwaggerctlVersion.current)
    }

    @Test("no option takes a password as its value", arguments: ["--password", "-p", "--pass"])
    func noPasswordOption(option: String) async throws {
        let result = try await Sandbox().swaggerctl("login", "-e", "a@example.com", option, "hunter2")
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
    }

    @Test(
        "a malformed server URL or keyring name exits 64 and says which",
        arguments: [
            (["details", "-s", "ftp://host/api"], [String: String](), "is not an http or https URL"),
            (["details"], ["SWAGGERCTL_SERVER": "ftp://host/api"], "is not an http or https URL"),
            (["details"], ["SWAGGERCTL_SERVER": "host-without-scheme"], "No server is named host-without-scheme."),
            (["status"], ["SWAGGERCTL_KEYRING": "vault"], "Unknown keyring \"vault\""),
            (["status"], ["SWAGGERCTL_TIMEOUT": "soon"], "SWAGGERCTL_TIMEOUT must be a number of seconds"),
            (["status"], ["SWAGGERCTL_LOCK_TIMEOUT": "0"], "SWAGGERCTL_LOCK_TIMEOUT must be a number of seconds"),
            (["logout", "--all"], ["SWAGGERCTL_LOCK_TIMEOUT": "1e300"], "SWAGGERCTL_LOCK_TIMEOUT must be a number"),
            (["token"], ["SWAGGERCTL_LOCK_TIMEOUT": "nan"], "SWAGGERCTL_LOCK_TIMEOUT must be a number of seconds"),
        ])
    func badInput(arguments: [String], environment: [String: String], message: String) async throws {
        let result = try await Sandbox(environment: environment).swaggerctl(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.hasPrefix("swaggerctl: "))
        #expect(result.stderr.contains(message), "\(result)")
    }

    @Test("a configuration path that is a file exits 1, names it, and leaves it alone")
    func configurationPathIsAFile() async throws {
        let probe = try Sandbox()
        let file = probe.root.appending(path: "not-a-folder")
        try Data("keep me".utf8).write(to: file)
        let sandbox = try Sandbox(environment: ["SWAGGERCTL_CONFIG_DIR": file.path])
        try await withDemoServer { server in
            let result = try await sandbox.login(server.apiURL, email: "demo@example.com", password: "demo-password")
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("\(file.path) is not a folder"), "\(result)")
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == "keep me")
    }
}

/// The subcommands, as `swaggerctl --help` lists them.
enum SwaggerCommands {
    static let all = [
        "login", "details", "logout", "status", "token", "refresh", "switch", "exec", "git-credential", "completion",
    ]

    /// Every command and subcommand, as the words that name it.
    static let paths: [[String]] =
        [[]] + (all + ["api", "operations", "server"]).map { [$0] }
        + ["list", "show", "set", "forget", "export", "import"].map { ["server", $0] }
}
