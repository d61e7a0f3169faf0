import Foundation
import SessionStorage
import SwaggerModel
import TestSupport
import Testing

/// What gets installed: the completion scripts in real shells, the man page through man and groff, and the
/// Debian package through dpkg-deb.
@Suite("Packaging: completions, the man page and the Debian package", .timeLimit(.minutes(15)))
struct PackagingTests {
    /// `swaggerctl completion SHELL`, written to a file of its own.
    static func completionScript(_ shell: String, in sandbox: Sandbox) async throws -> URL {
        let result = try await sandbox.swaggerctl("completion", shell)
        try #require(result.status == 0, "\(result)")
        let file = sandbox.root.appending(path: shell == "zsh" ? "zsh/_swaggerctl" : "swaggerctl.\(shell)")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(result.stdout.utf8).write(to: file)
        return file
    }

    /// Runs a shell command line in `shell`, with the built swaggerctl first on the PATH.
    static func shell(
        _ shell: String, _ arguments: [String], _ sandbox: Sandbox, environment: [String: String] = [:]
    ) async throws -> CommandResult {
        var merged = sandbox.environment.merging(environment) { $1 }
        merged["PATH"] = Binaries.directory.path + ":/usr/bin:/bin"
        return try await runProgram(URL(filePath: "/usr/bin/\(shell)"), arguments, environment: merged)
    }

    /// Completes `line` in bash the way readline would, through the script's function, and returns the
    /// candidates.
    static let bashComplete = #"""
        source "$1"
        line=$2
        read -ra COMP_WORDS <<<"$line"
        [[ $line == *" " ]] && COMP_WORDS+=("")
        COMP_LINE=$line COMP_POINT=${#line} COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        _swaggerctl_joining_colons swaggerctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
        printf '%s\n' "${COMPREPLY[@]}"
        """#

    @Test("the bash script parses, registers a completion for swaggerctl, and completes commands, servers and e-mails")
    func bash() async throws {
        let sandbox = try Sandbox()
        let script = try await Self.completionScript("bash", in: sandbox)
        #expect(try await Self.shell("bash", ["-n", script.path], sandbox).status == 0)
        let registered = try await Self.shell(
            "bash", ["-c", "source \"$1\" && complete -p swaggerctl", "bash", script.path], sandbox)
        #expect(
            registered.stdout == "complete -o filenames -F _swaggerctl_joining_colons swaggerctl\n", "\(registered)")
        // argument-parser's own flag prints the same script, not its unfixed one.
        let generated = try await sandbox.swaggerctl("--generate-completion-script", "bash")
        let printed = try String(contentsOf: script, encoding: .utf8)
        #expect(generated.status == 0 && generated.stdout == printed, "\(generated)")

        try await AccountsTests.withTwoAccounts(sandbox) { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            _ = try await sandbox.login(
                server.apiURL, email: AccountsTests.ana.email, password: AccountsTests.ana.password)
            let cases = [
                ("swaggerctl det", ["details"]),
                ("swaggerctl sw", ["switch"]),
                ("swaggerctl details --server ", [server.apiURL]),
                ("swaggerctl details -s \(server.apiURL) --email ", ["ana@example.com", "demo@example.com"]),
                ("swaggerctl switch -e a", ["ana@example.com"]),
                ("swaggerctl completion ", ["bash", "zsh", "fish"]),
            ]
            for (line, expected) in cases {
                let result = try await Self.shell(
                    "bash", ["-c", Self.bashComplete, "bash", script.path, line], sandbox)
                #expect(result.stdout.split(separator: "\n").map(String.init) == expected, "\(line): \(result)")
            }
        }
    }

    /// The servers of the sessions that the interactive completion tests store, none of them running:
    /// completion reads only the session list.
    static let servers = [
        "http://127.0.0.1:8080/api", "http://127.0.0.1:8081/api", "https://h.example:8443/v2", "http://localhost:9/api",
    ]

    /// A sandbox with a session on each of ``servers``, and two accounts on the first.
    static func sandboxWithServers() throws -> Sandbox {
        let sandbox = try Sandbox()
        for (index, server) in servers.enumerated() {
            let emails = index == 0 ? ["ana@example.com", "demo@example.com"] : ["demo@example.com"]
            for email in emails {
                let account = Account(server: try ServerURL(server), name: email)
                try sandbox.sessions.save(
                    SessionRecord(
                        account: account, appID: "a", backend: .file, savedAt: Date(),
                        serverDescription: Fixtures.original(account.server)))
            }
        }
        return sandbox
    }

    /// Types `line` and a Tab into an interactive `shell` on a terminal, then runs what the line became with
    /// `printf '<%s>'` before its words, and returns those words: what completion put on the line, as the shell
    /// itself reads it.
    static func completedWords(_ line: String, in shell: PseudoTerminalProcess, marker: Int) throws -> [String] {
        // Ctrl-E and Ctrl-A move to the end and the start of the line in bash's and zsh's emacs keys.
        shell.type(line + "\t" + "\u{5}; echo end-'\(marker)'\u{1}printf '<%s>\\n' \r")
        try shell.read(until: "end-\(marker)\r\n")
        let output = shell.transcript.components(separatedBy: "printf '<%s>\\n' ").last ?? ""
        return output.components(separatedBy: "\r\n").compactMap { line in
            guard line.hasPrefix("<"), line.hasSuffix(">") else { return nil }
            return String(line.dropFirst().dropLast())
        }
    }

    /// An interactive `name` (bash, zsh or fish) on a terminal, with swaggerctl's completion loaded and the
    /// sandbox's environment, ready for a line to be typed.
    static func interactiveShell(_ name: String, in sandbox: Sandbox) async throws -> PseudoTerminalProcess {
        let script = try await completionScript(name, in: sandbox)
        let environment = sandbox.environment.merging(
            ["PATH": Binaries.directory.path + ":/usr/bin:/bin", "TERM": "dumb", "PS1": "$ "]) { $1 }
        let options = ["bash": ["--norc", "--noprofile", "-i"], "zsh": ["-f", "-i"], "fish": ["--no-config", "-i"]]
        let shell = try await onDedicatedThread {
            try PseudoTerminalProcess(
                options[name] ?? [], environment: environment, program: URL(filePath: "/usr/bin/\(name)"))
        }
        let setup =
            switch name {
            case "bash": "source \(script.path)"
            case "fish": "source \(script.path); function fish_prompt; echo '$ '; end"
            default:
                "fpath=(\(script.deletingLastPathComponent().path) $fpath); autoload -Uz compinit; "
                    + "compinit -u -d \(sandbox.root.path)/zcompdump; PS1='$ '"
            }
        shell.type(setup + "; echo ready\r")
        try await onDedicatedThread { try shell.read(until: "ready\r\n") }
        return shell
    }

    @Test(
        "in an interactive bash and zsh, --server completes whole URLs, colons and all, and -e completes after one",
        arguments: ["bash", "zsh"])
    func interactiveURLCompletion(shell name: String) async throws {
        let sandbox = try Self.sandboxWithServers()
        let shell = try await Self.interactiveShell(name, in: sandbox)

        var cases: [(String, [String])] = [
            ("swaggerctl details -s https://h", ["https://h.example:8443/v2"]),
            ("swaggerctl details -s http://127.0.0.1:8081", ["http://127.0.0.1:8081/api"]),
            ("swaggerctl details -s http://loc", ["http://localhost:9/api"]),
            ("swaggerctl details -s http://127.0.0.1:8080/api -e an", ["-e", "ana@example.com"]),
            // Tab straight after a colon, where bash's current word is the empty one after it: the URL is
            // completed, not added again after what was typed (`https:https://…`). `http:` and `127.0.0.1:` stop
            // at what their servers have in common.
            ("swaggerctl details -s https:", ["https://h.example:8443/v2"]),
            ("swaggerctl details -s http://localhost:", ["http://localhost:9/api"]),
            ("swaggerctl details -s http:", ["http://"]),
            ("swaggerctl details -s http://127.0.0.1:", ["http://127.0.0.1:808"]),
        ]
        if name == "bash" {
            // zsh's script takes --server's value only from the next word: its _arguments specs have no --server=.
            cases += [
                ("swaggerctl details --server=", ["--server=http"]),
                ("swaggerctl details --server=https:", ["--server=https://h.example:8443/v2"]),
                ("swaggerctl details --server=http://lo", ["--server=http://localhost:9/api"]),
                ("swaggerctl details --server=http://127.0.0.1:8080/api -e an", ["-e", "ana@example.com"]),
            ]
        }
        for (index, (line, expected)) in cases.enumerated() {
            let words = try await onDedicatedThread { try Self.completedWords(line, in: shell, marker: index) }
            #expect(Array(words.suffix(expected.count)) == expected, "\(name): \(line) became \(words)")
        }
        if name == "zsh" {
            // Every server is listed whole: none cut at its first colon, and none hidden behind another.
            shell.type("swaggerctl details -s \t")
            try await onDedicatedThread {
                for server in Self.servers { try shell.read(until: server) }
            }
            #expect(!shell.transcript.contains(" -- //"), "\(shell.transcript)")
        }
        shell.type("\u{3}exit\r")
    }

    /// What zsh's completion system registers for swaggerctl, with `folder` first on `fpath`: `_swaggerctl`
    /// when it found the script there.
    static func zshCompletion(in folder: URL, _ sandbox: Sandbox) async throws -> CommandResult {
        let script =
            #"fpath=("$1" $fpath); autoload -Uz compinit && compinit -u -d "$2" && print -r -- $_comps[swaggerctl]"#
        return try await shell(
            "zsh", ["-f", "-c", script, "zsh", folder.path, sandbox.root.appending(path: "zcompdump").path], sandbox)
    }

    @Test("the zsh script parses and compinit registers it for swaggerctl")
    func zsh() async throws {
        let sandbox = try Sandbox()
        let script = try await Self.completionScript("zsh", in: sandbox)
        #expect(try await Self.shell("zsh", ["-n", script.path], sandbox).status == 0)
        let registered = try await Self.zshCompletion(in: script.deletingLastPathComponent(), sandbox)
        #expect(registered.stdout == "_swaggerctl\n", "\(registered)")
    }

    @Test("the fish script parses and completes commands and their options")
    func fish() async throws {
        let sandbox = try Sandbox()
        let script = try await Self.completionScript("fish", in: sandbox)
        #expect(try await Self.shell("fish", ["--no-execute", script.path], sandbox).status == 0)
        let commands = try await Self.shell(
            "fish", ["--no-config", "-c", "source $argv[1]; complete -C 'swaggerctl sw'", script.path], sandbox)
        #expect(commands.stdout.hasPrefix("switch\tMake an account the active one"), "\(commands)")
        let options = try await Self.shell(
            "fish", ["--no-config", "-c", "source $argv[1]; complete -C 'swaggerctl logout --a'", script.path],
            sandbox)
        #expect(options.stdout.hasPrefix("--all\tLog out of every session"), "\(options)")
    }

    /// The man page `make test` writes before the tests run (scripts/man).
    static func manPage() throws -> URL {
        let page = Project.root.appending(path: ".build/swaggerctl.1")
        try #require(
            FileManager.default.fileExists(atPath: page.path), "no \(page.path): `make test` writes it with scripts/man"
        )
        return page
    }

    /// The page as man shows it, and what man and groff said about it.
    static func renderManPage(_ page: URL) async throws -> (text: String, warnings: String) {
        let environment = ["PATH": "/usr/bin:/bin", "MANWIDTH": "200", "LANG": "C.UTF-8", "MAN_KEEP_FORMATTING": ""]
        let man = try await runProgram(URL(filePath: "/usr/bin/man"), ["-l", page.path], environment: environment)
        try #require(man.status == 0, "\(man)")
        let groff = try await runProgram(
            URL(filePath: "/usr/bin/groff"), ["-mandoc", "-Tutf8", "-ww", "-z", page.path], environment: environment)
        // man emboldens with backspaces when its output is not a terminal; col -b would, too.
        let text = man.stdout.replacing(/.\x08/, with: "")
        return (text, man.stderr + groff.stderr)
    }

    /// The body of section `name` in man's rendering: the lines after its heading, up to the next one.
    static func section(_ name: String, of text: String) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == name }) else { return nil }
        let end = lines[(start + 1)...].firstIndex { $0.first?.isUppercase == true } ?? lines.endIndex
        return lines[(start + 1)..<end].joined(separator: "\n")
    }

    @Test("the man page renders without a warning and says what the help, README and Docs say")
    func manPage() async throws {
        let (text, warnings) = try await Self.renderManPage(try Self.manPage())
        #expect(warnings.isEmpty, "\(warnings)")
        for name in ["NAME", "SYNOPSIS", "DESCRIPTION", "EXAMPLES", "ENVIRONMENT", "FILES", "EXIT STATUS"] {
            #expect(Self.section(name, of: text) != nil, "no \(name) section")
        }

        let description = try #require(Self.section("DESCRIPTION", of: text))
        for command in SwaggerCommands.all {
            #expect(description.contains(try Regex("\n     \(command)[ \n]")), "\(command) is not in DESCRIPTION")
        }
        // Help texts' example blocks stay one command per line, and nothing shows roff's escapes.
        #expect(description.contains(/\n +swaggerctl logout --all\n/))
        #expect(!text.contains("\\e"))

        let readme = try String(contentsOf: Project.root.appending(path: "README.md"), encoding: .utf8)
        let examples = try #require(Self.section("EXAMPLES", of: text))
        let quickStart = try #require(readme.firstMatch(of: /## At a glance\n\n```\n([^`]*)```/)?.1)
        for line in quickStart.split(separator: "\n") {
            // A comment may move to a line of its own, above its command, to keep within 80 columns.
            let command = line.split(separator: "#", maxSplits: 1)[0].trimmingCharacters(in: .whitespaces)
            #expect(examples.contains(command), "\(line)")
        }

        // whatis and apropos show NAME's description as it is: no quotes, no full stop.
        let name = try #require(Self.section("NAME", of: text))
        #expect(name.contains("swaggerctl — sign in to a Swagger/OpenAPI account API and show your profile\n"))
        // The package ships no Docs, so the page sends nobody there.
        #expect(!text.contains(".md") && !text.contains("See Networks") && !text.contains("See Sessions"))
        let narrow = try await runProgram(
            URL(filePath: "/usr/bin/man"), ["-l", try Self.manPage().path],
            environment: ["PATH": "/usr/bin:/bin", "MANWIDTH": "80", "LANG": "C.UTF-8", "MAN_KEEP_FORMATTING": ""])
        let wide = narrow.stdout.replacing(/.\x08/, with: "").split(separator: "\n").filter { $0.count > 80 }
        #expect(wide.isEmpty, "\(wide.count) lines wider than 80 columns: \(wide.prefix(3))")

        let configuration = try String(
            contentsOf: Project.root.appending(path: "Docs/configuration.md"), encoding: .utf8)
        let table = try #require(configuration.firstMatch(of: /## Environment\n\n((?:\|.*\n)+)/)?.1)
        let variables = table.matches(of: /`([A-Z_]+)`/).map { String($0.1) }
        #expect(variables.count >= 15)
        let environment = try #require(Self.section("ENVIRONMENT", of: text))
        for variable in variables {
            #expect(environment.contains(variable), "\(variable)")
        }

        let files = try #require(Self.section("FILES", of: text))
        for file in ["sessions.json", "credentials.json", ".refresh-<hash>.lock", "profiles.json"] {
            #expect(files.contains(file), "\(file)")
        }

        let codes = try ExitCodes.documented().map(\.code)
        let status = try #require(Self.section("EXIT STATUS", of: text))
        let listed = ("\n" + status).matches(of: /\n     (\d+) +[a-z]/).compactMap { Int32($0.1) }
        #expect(listed == codes)
    }

    @Test("make deb's package holds the binary, man page and completions where Debian looks, and its binary runs")
    func debianPackage() async throws {
        let sandbox = try Sandbox()
        let output = sandbox.root.appending(path: "deb")
        // The debug build links the Swift runtime from the toolchain, which no Debian package provides; the
        // release build that `make deb` packages links it statically. Leaving it uncompressed spares the other tests the cores that xz would take.
        let build = try await runProgram(
            Project.root.appending(path: "scripts/deb"),
            [
                "--allow-unpackaged-libraries", "--compression", "none", Binaries.swaggerctl.path,
                try Self.manPage().path, output.path,
            ],
            environment: ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "HOME": sandbox.root.path])
        try #require(build.status == 0, "\(build)")
        let package = URL(filePath: build.stdout.trimmingCharacters(in: .newlines))
        let dpkg = { (arguments: [String]) in
            try await runProgram(URL(filePath: "/usr/bin/dpkg-deb"), arguments, environment: ["PATH": "/usr/bin:/bin"])
        }

        let version = try await sandbox.swaggerctl("--version").stdout.split(separator: " ")[1]
        let architecture = try await runProgram(
            URL(filePath: "/usr/bin/dpkg"), ["--print-architecture"], environment: ["PATH": "/usr/bin:/bin"]
        ).stdout.trimmingCharacters(in: .newlines)
        #expect(package.lastPathComponent == "swaggerctl_\(version)_\(architecture).deb")

        let contents = try await dpkg(["-c", package.path])
        let paths = contents.stdout.matches(of: /\.(\/\S*)\n/).map { String($0.1) }
        for (path, mode) in [
            ("/usr/bin/swaggerctl", "-rwxr-xr-x"),
            ("/usr/share/man/man1/swaggerctl.1.gz", "-rw-r--r--"),
            ("/usr/share/bash-completion/completions/swaggerctl", "-rw-r--r--"),
            ("/usr/share/zsh/vendor-completions/_swaggerctl", "-rw-r--r--"),
            ("/usr/share/fish/vendor_completions.d/swaggerctl.fish", "-rw-r--r--"),
            ("/usr/share/doc/swaggerctl/copyright", "-rw-r--r--"),
            ("/usr/share/doc/swaggerctl/changelog.gz", "-rw-r--r--"),
        ] {
            #expect(paths.contains(path), "\(path) is not in: \(contents.stdout)")
            #expect(contents.stdout.contains(try Regex("\(mode) root/root .* \\.\(path)\n")), "\(path) \(mode)")
        }

        let info = try await dpkg(["-f", package.path])
        let fields = Dictionary(
            info.stdout.matches(of: /(?m)^([A-Za-z-]+): (.*)$/).map { (String($0.1), String($0.2)) }
        ) { $1 }
        #expect(fields["Package"] == "swaggerctl")
        #expect(fields["Version"] == String(version))
        #expect(fields["Architecture"] == architecture)
        // Computed by dpkg-shlibdeps from the binary's NEEDED entries, with the versions it needs.
        let depends = try #require(fields["Depends"])
        #expect(depends.contains(/libc6 \(>= 2\.[0-9]+\)/), "\(depends)")
        // Loaded only when the keyring is used: without it, tokens go to the private file.
        #expect(!depends.contains("libsecret"), "\(depends)")
        #expect(fields["Recommends"]?.contains(/libsecret-1-0 \(>= [0-9.]+\)/) == true, "\(info.stdout)")
        #expect(fields["Recommends"]?.contains("libjq1 (>= 1.6)") == true, "\(info.stdout)")
        #expect(try await dpkg(["-I", package.path]).stdout.contains(" Installed-Size: "))

        let root = sandbox.root.appending(path: "extracted")
        #expect(try await dpkg(["-x", package.path, root.path]).status == 0)
        let binary = root.appending(path: "usr/bin/swaggerctl")
        let extractedVersion = try await runProgram(binary, ["--version"], environment: sandbox.environment)
        #expect(extractedVersion.status == 0)
        #expect(extractedVersion.stdout == (try await sandbox.swaggerctl("--version").stdout))
        let help = try await runProgram(binary, ["--help"], environment: sandbox.environment)
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("OVERVIEW: Sign in to a Swagger/OpenAPI account API"))
        // The package installs the manual beside the program; a build in a clone has none until `make man`.
        #expect(help.stdout.contains("See `man swaggerctl` for more."), "\(help)")
        let built = try await sandbox.swaggerctl("--help")
        #expect(built.stdout.contains("\nIn a clone, `make man` writes the manual"), "\(built)")
        #expect(built.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(built)")
        #expect(!built.stdout.contains("man swaggerctl"), "\(built)")

        // Each shell finds the installed script where it looks for those of packages.
        let share = root.appending(path: "usr/share").path
        let bash = try await Self.shell(
            "bash",
            [
                "-c",
                "source /usr/share/bash-completion/bash_completion; _completion_loader swaggerctl; complete -p swaggerctl",
            ], sandbox, environment: ["XDG_DATA_DIRS": share])
        #expect(bash.stdout == "complete -o filenames -F _swaggerctl_joining_colons swaggerctl\n", "\(bash)")
        let fish = try await Self.shell(
            "fish", ["-c", "complete -C 'swaggerctl sw'"], sandbox, environment: ["XDG_DATA_DIRS": share])
        #expect(fish.stdout.hasPrefix("switch\t"), "\(fish)")
        let zsh = try await Self.zshCompletion(
            in: root.appending(path: "usr/share/zsh/vendor-completions"), sandbox)
        #expect(zsh.stdout == "_swaggerctl\n", "\(zsh)")
        let defaultPath = try await Self.shell("zsh", ["-f", "-c", "print -l $fpath"], sandbox)
        #expect(defaultPath.stdout.contains("/usr/share/zsh/vendor-completions\n"), "\(defaultPath)")
        let installed = try String(
            contentsOf: root.appending(path: "usr/share/bash-completion/completions/swaggerctl"), encoding: .utf8)
        #expect(installed == (try await sandbox.swaggerctl("completion", "bash").stdout))
    }
}
