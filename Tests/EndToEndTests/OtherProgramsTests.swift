import Foundation
import SwaggerModel
import Testing

/// `exec`, `token --format` and `git-credential`, each driven by the program that uses it: a shell and Python
/// under `exec`, kubectl with swaggerctl as its credential plugin, and git with swaggerctl as its helper against
/// git-http-backend.
@Suite("Other programs use the session: exec, token formats, kubectl and git", .timeLimit(.minutes(15)))
struct OtherProgramsTests {
    static let rotated = SessionRefreshTests.rotated

    static var sh: URL { URL(filePath: "/bin/sh") }

    static func lines(_ result: CommandResult) -> [String] {
        result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    @Test("exec: the command gets the token, the server and the header; its exit status is its own")
    func execEnvironment() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            let token = try await sandbox.swaggerctl("token").stdout.trimmingCharacters(in: .newlines)

            let printed = try await sandbox.swaggerctl(
                "exec", "--", "sh", "-c",
                #"printf '%s\n' "$SWAGGERCTL_TOKEN" "$SWAGGERCTL_SERVER" "$SWAGGERCTL_AUTHORIZATION"; exit 7"#)
            #expect(printed.status == 7, "\(printed)")
            #expect(printed.stderr.isEmpty, "\(printed)")
            #expect(Self.lines(printed) == [token, server.apiURL, "Bearer \(token)"])

            let named = try await sandbox.swaggerctl(
                "exec", "--env", "API_TOKEN", "--", "sh", "-c", #"printf %s "$API_TOKEN""#)
            #expect(named.status == 0 && named.stdout == token, "\(named)")

            // A swaggerctl that the command runs uses the token it was given: here, with no stored session at all.
            let empty = sandbox.root.appending(path: "empty-config").path
            let nested = try await sandbox.swaggerctl(
                "exec", "--", "env", "SWAGGERCTL_CONFIG_DIR=\(empty)", Binaries.swaggerctl.path, "details",
                "--format", "json")
            #expect(nested.status == 0 && nested.stdout.contains(#""email": "demo@example.com""#), "\(nested)")
            #expect(!FileManager.default.fileExists(atPath: empty))
        }
    }

    /// A sandbox whose tokens are in the keyring: its D-Bus connection is open when exec runs, beside the command
    /// loop's epoll descriptor, and is one more descriptor the command must not get.
    static func keyringSandbox() throws -> Sandbox {
        try Sandbox(
            environment: [
                "DBUS_SESSION_BUS_ADDRESS": try TestKeyring.busAddress(), "SWAGGERCTL_KEYRING": "secret-service",
            ]
        )
    }

    @Test("exec: the command inherits the standard streams only, no blocked or ignored signal, and dies by its own")
    func execReplaces() async throws {
        let sandbox = try Self.keyringSandbox()
        try await withDemoServer { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            let descriptors = try await sandbox.swaggerctl("exec", "--", "sh", "-c", "ls /proc/$$/fd")
            #expect(Self.lines(descriptors) == ["0", "1", "2"], "\(descriptors)")

            // What the same program shows when the test starts it itself. glibc keeps signals 32 and 33 for its
            // threads, and sets them up as it starts: only the 31 standard signals are a program's to compare.
            func standardSignals(_ result: CommandResult) -> [String] {
                Self.lines(result).map { line in
                    let (name, mask) = (line.prefix { $0 != ":" }, line.split(separator: "\t").last ?? "")
                    return "\(name) \(String(UInt64(mask, radix: 16).map { $0 & 0x7fff_ffff } ?? .max, radix: 16))"
                }
            }
            let signals = ["-E", "^Sig(Blk|Ign)", "/proc/self/status"]
            let direct = try await runProgram(URL(filePath: "/bin/grep"), signals, environment: sandbox.environment)
            let replaced = try await sandbox.swaggerctl(["exec", "--", "grep"] + signals)
            #expect(replaced.status == 0 && standardSignals(replaced) == ["SigBlk 0", "SigIgn 0"], "\(replaced)")
            #expect(standardSignals(replaced) == standardSignals(direct), "\(replaced) vs \(direct)")
            // SIGPIPE at its default: `yes` ends quietly when `head` stops reading.
            let pipe = try await sandbox.swaggerctl("exec", "--", "sh", "-c", "yes | head -n 1")
            #expect(pipe.status == 0 && pipe.stdout == "y\n" && pipe.stderr.isEmpty, "\(pipe)")

            // No swaggerctl is left to wait: the process the test started is the one the signal killed.
            let killed = try await sandbox.swaggerctl("exec", "--", "sh", "-c", "kill -KILL $$")
            #expect(killed.status == 128 + SIGKILL, "\(killed)")
        }
    }

    @Test("exec: without a token, or with a command that cannot run, it fails in one line and runs nothing")
    func execFails() async throws {
        let sandbox = try Sandbox()
        let marker = sandbox.root.appending(path: "ran")
        try await withDemoServer { server in
            let loggedOut = try await sandbox.swaggerctl(
                "exec", "-s", server.apiURL, "--", "touch", marker.path)
            #expect(loggedOut.status == 4 && loggedOut.stdout.isEmpty, "\(loggedOut)")
            #expect(loggedOut.stderr.hasPrefix("swaggerctl: You are not logged in to \(server.apiURL)"))
            #expect(!FileManager.default.fileExists(atPath: marker.path))

            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            let missing = try await sandbox.swaggerctl("exec", "--", "no-such-command-here")
            #expect(missing.status == 127, "\(missing)")
            #expect(missing.stderr == "swaggerctl: no-such-command-here: command not found; check the name and PATH.\n")
            let notProgram = try await sandbox.swaggerctl("exec", "--", "/etc/passwd")
            #expect(notProgram.status == 126, "\(notProgram)")
            #expect(notProgram.stderr == "swaggerctl: /etc/passwd cannot be run: Permission denied.\n")
            for arguments in [["exec"], ["exec", "touch", marker.path], ["exec", "--env", "A-B", "--", "true"]] {
                let usage = try await sandbox.swaggerctl(arguments)
                #expect(usage.status == 64 && usage.stderr.hasPrefix("swaggerctl: "), "\(arguments): \(usage)")
            }
            #expect(!FileManager.default.fileExists(atPath: marker.path))
        }
    }

    @Test("exec: --env may not name what the loader reads, which would show the token or load it as a library")
    func execLoaderVariables() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            for name in ["LD_PRELOAD", "LD_DEBUG_OUTPUT", "GCONV_PATH", "MALLOC_TRACE", "TMPDIR", "GLIBC_TUNABLES"] {
                let refused = try await sandbox.swaggerctl("exec", "--env", name, "--", "sh", "-c", "echo ran")
                #expect(refused.status == 64 && refused.stdout.isEmpty, "\(name): \(refused)")
                #expect(
                    refused.stderr.hasPrefix(
                        "swaggerctl: --env \(name) is read by the dynamic loader or the C library, which would take the "
                            + "token as a setting; name another variable.\n"), "\(name): \(refused)")
            }
        }
    }

    @Test("exec: a command is found as command -v finds it, and only what execve runs is run: no ./ls, no /bin/sh")
    func execSearch() async throws {
        let sandbox = try Sandbox()
        let folder = sandbox.root.appending(path: "here")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let marker = sandbox.root.appending(path: "ran")
        // The scripts name touch's path: under an empty PATH, sh finds no command by name either.
        let touch = "/usr/bin/touch '\(marker.path)'\n"
        for (name, text) in [("planted", "#!/bin/sh\n" + touch), ("noshebang", touch)] {
            let file = folder.appending(path: name)
            try Data(text.utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        }
        /// `swaggerctl exec -- COMMAND` in `folder`, with PATH set to `path` for it.
        func exec(_ command: String, path: String) async throws -> CommandResult {
            try await sandbox.run(
                Self.sh,
                [
                    "-c", #"cd "$1" && PATH="$2" exec "$3" exec -- "$4""#, "sh", folder.path, path,
                    Binaries.swaggerctl.path, command,
                ])
        }
        try await withDemoServer { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            for path in ["", ":", "/nowhere::/nowhere"] {
                let unsearched = try await exec("planted", path: path)
                #expect(unsearched.status == 127, "PATH=\(path): \(unsearched)")
                #expect(unsearched.stderr == "swaggerctl: planted: command not found; check the name and PATH.\n")
                #expect(!FileManager.default.fileExists(atPath: marker.path), "PATH=\(path)")
            }
            // Named with a slash, or with the current folder in PATH, it is the person's choice, and runs.
            for (command, path) in [("./planted", ""), ("planted", ".")] {
                #expect(try await exec(command, path: path).status == 0)
                #expect(FileManager.default.fileExists(atPath: marker.path), "\(command), PATH=\(path)")
                try FileManager.default.removeItem(at: marker)
            }
            // A script without #! is not given to /bin/sh.
            let script = try await exec("./noshebang", path: "/usr/bin:/bin")
            #expect(script.status == 126, "\(script)")
            #expect(
                script.stderr == "swaggerctl: ./noshebang cannot be run: it is neither a program nor a script with a "
                    + "#! line, and swaggerctl runs no shell.\n")
            #expect(!FileManager.default.fileExists(atPath: marker.path))
        }
    }

    @Test("exec: a standard stream the caller closed is /dev/null for the command, never a descriptor of swaggerctl's")
    func execClosedStreams() async throws {
        let sandbox = try Self.keyringSandbox()
        try await withDemoServer { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            // Each stream closed in turn; the command's shell says what it has in that slot on a stream that is
            // open, through a pipe, so that no redirection of its own changes the slot first.
            for (slot, report) in [(0, "1"), (1, "2"), (2, "1")] {
                let result = try await sandbox.run(
                    Self.sh,
                    [
                        "-c", #"exec "$1" exec -- sh -c 'readlink /proc/$$/fd/'"$2"' | cat >&'"$3" \#(slot)>&-"#,
                        "sh",
                        Binaries.swaggerctl.path, "\(slot)", report,
                    ])
                #expect(result.status == 0, "fd \(slot): \(result)")
                let shown = slot == 1 ? result.stderr : result.stdout
                #expect(shown == "/dev/null\n", "fd \(slot): \(result)")
            }
        }
    }

    @Test("exec under a caller's SWAGGERCTL_TOKEN, or its own copy of --env's name: one line each, the token given")
    func execReplacesCallersVariables() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            try await SessionRefreshTests.loginAndExpire(sandbox, server)
            /// The lines of the command's environment that set `name`.
            func lines(_ result: CommandResult, _ name: String) -> [String] {
                Self.lines(result).filter { $0.hasPrefix(name + "=") }
            }
            let stale = ["API_TOKEN": "stale", "SWAGGERCTL_AUTHORIZATION": "Bearer stale"]
            // A stored session, renewed first: the command gets the fresh token, once.
            let named = try await sandbox.swaggerctl(["exec", "--env", "API_TOKEN", "--", "env"], environment: stale)
            #expect(named.status == 0, "\(named)")
            let fresh = try #require(lines(named, "API_TOKEN").first.map { String($0.dropFirst("API_TOKEN=".count)) })
            #expect(fresh != "stale" && lines(named, "API_TOKEN") == ["API_TOKEN=\(fresh)"], "\(named)")
            #expect(lines(named, "SWAGGERCTL_AUTHORIZATION") == ["SWAGGERCTL_AUTHORIZATION=Bearer \(fresh)"])
            #expect(lines(named, "SWAGGERCTL_SERVER") == ["SWAGGERCTL_SERVER=\(server.apiURL)"])
            #expect(server.logLines(containing: Self.rotated) == 1, "\(server.log)")
            // The caller's SWAGGERCTL_TOKEN is the token: the command gets it once, under each name asked for.
            let given = stale.merging(["SWAGGERCTL_TOKEN": fresh, "SWAGGERCTL_SERVER": server.apiURL]) { $1 }
            let inherited = try await sandbox.swaggerctl(["exec", "--", "env"], environment: given)
            #expect(lines(inherited, "SWAGGERCTL_TOKEN") == ["SWAGGERCTL_TOKEN=\(fresh)"], "\(inherited)")
            let renamed = try await sandbox.swaggerctl(["exec", "--env", "API_TOKEN", "--", "env"], environment: given)
            #expect(lines(renamed, "API_TOKEN") == ["API_TOKEN=\(fresh)"], "\(renamed)")
            #expect(lines(renamed, "SWAGGERCTL_TOKEN") == ["SWAGGERCTL_TOKEN=\(fresh)"], "\(renamed)")
            #expect(lines(renamed, "SWAGGERCTL_AUTHORIZATION") == ["SWAGGERCTL_AUTHORIZATION=Bearer \(fresh)"])
        }
    }

    @Test("ten execs at once after the access token expired: one refresh, and every command gets the new token")
    func concurrentExecs() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            try await SessionRefreshTests.loginAndExpire(sandbox, server)
            let results = try await withThrowingTaskGroup(of: CommandResult.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        try await sandbox.swaggerctl("exec", "--", "sh", "-c", #"printf %s "$SWAGGERCTL_TOKEN""#)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for result in results { #expect(result.status == 0 && !result.stdout.isEmpty, "\(result)") }
            #expect(Set(results.map(\.stdout)).count == 1, "\(results)")
            #expect(server.logLines(containing: Self.rotated) == 1, "\(server.log)")
            let token = try #require(results.first?.stdout)
            #expect(try await SessionRefreshTests.curlProfile(server, token: token).stdout == "200")
        }
    }

    @Test("token --format after the access token expired: renewed once, with the new expiry, in each format")
    func formatsAfterExpiry() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            try await SessionRefreshTests.loginAndExpire(sandbox, server)
            let json = try await sandbox.swaggerctl("token", "--format", "json")
            #expect(json.status == 0, "\(json)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let token = try #require(object["token"] as? String)
            #expect(object["server"] as? String == server.apiURL && object["account"] as? String == Sandbox.demo.email)
            #expect(object["header"] as? String == "Authorization" && object["scheme"] as? String == "Bearer")
            // The stored expiry, to the second: the renewed one, later than the clock swaggerctl now sees.
            let expiryText = try #require(object["expiry"] as? String)
            let expiry = try #require(Timestamp.date(from: expiryText))
            let stored = try #require(try sandbox.sessions.records().first?.expiresAt)
            #expect(abs(expiry.timeIntervalSince(stored)) < 1)
            #expect(expiry > Date().addingTimeInterval(DemoServerProcess.pastExpiry.timeInterval))

            let header = try await sandbox.swaggerctl("token", "--format", "header")
            #expect(header.stdout == "Authorization: Bearer \(token)\n", "\(header)")
            let credential = try await sandbox.swaggerctl(
                ["token", "--format", "exec-credential"],
                environment: [
                    "KUBERNETES_EXEC_INFO":
                        #"{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","spec":{"interactive":false}}"#
                ])
            #expect(credential.stdout.contains(#""token": "\#(token)""#), "\(credential)")
            #expect(credential.stdout.contains(#""apiVersion": "client.authentication.k8s.io/v1beta1""#))
            #expect(server.logLines(containing: Self.rotated) == 1, "\(server.log)")
        }
    }

    @Test("no token in any argv or in any file: the command looks for its own token in every process and file")
    func tokenNowhere() async throws {
        let sandbox = try Sandbox(
            environment: [
                "DBUS_SESSION_BUS_ADDRESS": try TestKeyring.busAddress(), "SWAGGERCTL_KEYRING": "secret-service",
            ]
        )
        // Every process's command line (ps reads the same), and every file under the sandbox: the configuration
        // and cache folders, and the home folder.
        let search = """
            import os, sys
            token = os.environ["SWAGGERCTL_TOKEN"].encode()
            found = []
            for pid in filter(str.isdigit, os.listdir("/proc")):
                try:
                    with open(f"/proc/{pid}/cmdline", "rb") as f:
                        if token in f.read(): found.append(f"process {pid}")
                except OSError:
                    pass
            for folder, _, names in os.walk(sys.argv[1]):
                for name in names:
                    with open(os.path.join(folder, name), "rb") as f:
                        if token in f.read(): found.append(name)
            print(len(token), found)
            """
        try await withDemoServer { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            try await sandbox.advanceClock(by: DemoServerProcess.pastExpiry, with: server)
            let result = try await sandbox.swaggerctl(
                "exec", "--", "/usr/bin/python3", "-c", search, sandbox.root.path)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.hasSuffix(" []\n") && !result.stdout.hasPrefix("0 "), "\(result)")
            #expect(server.logLines(containing: Self.rotated) == 1, "\(server.log)")
        }
    }

    @Test("a Python requests script under exec, as Docs/usage.md shows it")
    func pythonScript() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            let script = sandbox.root.appending(path: "report.py")
            try Data(try DocumentationTests.documentedScript().utf8).write(to: script)
            let result = try await sandbox.swaggerctl("exec", "--", "/usr/bin/python3", script.path)
            #expect(result.status == 0 && result.stdout == "demo@example.com\n", "\(result)")
        }
    }

    /// The kubeconfig of Docs/usage.md, for `server`.
    static func documentedKubeconfig(for server: String) throws -> String {
        let text = try String(contentsOf: Project.root.appending(path: "Docs/usage.md"), encoding: .utf8)
        let kubeconfig = String(
            try #require(text.firstMatch(of: /```yaml\n(apiVersion: v1\nkind: Config\n(?:.|\n)*?)```/)).1)
        return kubeconfig.replacing(DocumentationTests.exampleServers, with: server)
    }

    @Test("kubectl runs token --format exec-credential as its plugin, and gets a renewed token once it expired")
    func kubectl() async throws {
        try await withCertificates { certificates in
            try await withDemoServer(certificates.good.serverArguments) { server in
                // Both read the authority from SSL_CERT_FILE: Go's crypto/x509 and swaggerctl.
                let sandbox = try Sandbox(environment: [
                    "SSL_CERT_FILE": certificates.authority,
                    "PATH": Binaries.directory.path + ":/usr/bin:/bin",
                    "KUBECONFIG": "", "KUBERNETES_EXEC_INFO": "",
                ])
                try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
                let kubeconfig = sandbox.root.appending(path: "kubeconfig")
                try Data(try Self.documentedKubeconfig(for: server.apiURL).utf8).write(to: kubeconfig)
                // kubectl's --raw path is the whole path, without the server URL's.
                let arguments = ["--kubeconfig", kubeconfig.path, "get", "--raw", "/api/User/User"]
                let kubectl = URL(filePath: "/usr/bin/kubectl")

                let first = try await sandbox.run(kubectl, arguments)
                #expect(first.status == 0 && first.stdout.contains(#""email""#), "\(first)")
                #expect(server.logLines(containing: Self.rotated) == 0)

                try await sandbox.advanceClock(by: DemoServerProcess.pastExpiry, with: server)
                let renewed = try await sandbox.run(kubectl, arguments)
                #expect(renewed.status == 0 && renewed.stdout.contains(#""email""#), "\(renewed)")
                #expect(server.logLines(containing: Self.rotated) == 1, "\(server.log)")
            }
        }
    }

    /// A bare repository with one commit on `main`, in `folder`/tools.git.
    static func makeRepository(in folder: URL) async throws {
        let script = """
            set -e
            git init -q -b main --bare tools.git
            git init -q -b main work && cd work
            echo hello > README
            git add README
            git -c user.name=Ana -c user.email=ana@example.com commit -q -m 'First'
            git push -q ../tools.git main
            """
        let made = try await runProgram(
            sh, ["-c", "cd '\(folder.path)' && \(script)"], environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path])
        try #require(made.status == 0, "\(made)")
    }

    @Test("git: the helper --setup names answers git credential fill, ls-remote and clone, and outlives the token")
    func git() async throws {
        try await withCertificates { certificates in
            let repositories = FileManager.default.temporaryDirectory.appending(path: "swaggerctl-git-\(UUID())")
            try FileManager.default.createDirectory(at: repositories, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: repositories) }
            try await Self.makeRepository(in: repositories)
            try await withPythonServer(
                .fastapi,
                environment: [
                    "GIT_PROJECT_ROOT": repositories.path, "FIXTURE_TLS_CERT": certificates.good.certificate,
                    "FIXTURE_TLS_KEY": certificates.good.key,
                ], host: "127.0.0.1"
            ) { server in
                #expect(server.origin.hasPrefix("https://"))
                let sandbox = try Sandbox(environment: [
                    "SSL_CERT_FILE": certificates.authority, "GIT_SSL_CAINFO": certificates.authority,
                    "GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_NOSYSTEM": "1",
                ])
                let login = try await sandbox.login(
                    server.origin, email: OAuth2Tests.ana.email, password: OAuth2Tests.ana.password,
                    extra: ["--kind", "oauth2", "--profile-path", "/users/me"])
                try #require(login.status == 0, "\(login)")

                // The lines --setup prints, run as printed: they write the sandbox's ~/.gitconfig.
                let setup = try await sandbox.swaggerctl("git-credential", "--setup", server.origin)
                #expect(setup.status == 0 && Self.lines(setup).count == 2, "\(setup)")
                let configured = try await sandbox.run(Self.sh, ["-c", setup.stdout])
                #expect(configured.status == 0, "\(configured)")

                let git = URL(filePath: "/usr/bin/git")
                let host = String(server.origin.dropFirst("https://".count))
                let fill = try await sandbox.run(
                    git, ["credential", "fill"], stdin: "protocol=https\nhost=\(host)\n\n")
                let token = try await sandbox.swaggerctl("token").stdout.trimmingCharacters(in: .newlines)
                #expect(fill.status == 0, "\(fill)")
                #expect(
                    Self.lines(fill).contains("password=\(token)")
                        && Self.lines(fill).contains("username=\(OAuth2Tests.ana.email)"))

                let repository = "\(server.origin)/git/tools.git"
                let listed = try await sandbox.run(git, ["ls-remote", repository])
                #expect(listed.status == 0 && listed.stdout.contains("\trefs/heads/main"), "\(listed)")
                let clone = sandbox.root.appending(path: "tools")
                let cloned = try await sandbox.run(git, ["clone", "-q", repository, clone.path])
                #expect(cloned.status == 0, "\(cloned)")
                #expect(try String(contentsOf: clone.appending(path: "README"), encoding: .utf8) == "hello\n")
                let before = try await server.json([
                    "--cacert", certificates.authority, "\(server.origin)/test/counters",
                ])
                #expect((before["git_refused"] as? Int ?? 0) >= 1 && (before["git"] as? Int ?? 0) >= 2, "\(before)")

                // git erases a credential a server refused; the session is not git's to end.
                let rejected = try await sandbox.run(
                    git, ["credential", "reject"], stdin: "protocol=https\nhost=\(host)\nusername=x\npassword=y\n\n")
                #expect(rejected.status == 0, "\(rejected)")
                #expect(try await sandbox.swaggerctl("details").status == 0)

                // Once the access token has expired (and the server ended it), git's next run gets a renewed one.
                _ = try await curl([
                    "--cacert", certificates.authority, "-X", "POST", "\(server.origin)/test/expire-access-tokens",
                ])
                sandbox.advanceClock(by: .seconds(3700))
                let again = try await sandbox.run(git, ["ls-remote", repository])
                #expect(again.status == 0 && again.stdout.contains("\trefs/heads/main"), "\(again)")
                let after = try await server.json([
                    "--cacert", certificates.authority, "\(server.origin)/test/counters",
                ])
                #expect(after["refreshes"] as? Int == 1, "\(after)")

                // Another host: swaggerctl says nothing, and git, which may not prompt here, finds nothing.
                let other = try await sandbox.run(
                    git, ["credential", "fill"], stdin: "protocol=https\nhost=elsewhere.example\n\n")
                #expect(other.status != 0 && !other.stdout.contains("password="), "\(other)")
            }
        }
    }
}
