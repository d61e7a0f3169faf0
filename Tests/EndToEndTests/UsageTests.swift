import Foundation
import Testing

@Suite("Usage: help, bad arguments and a bad environment")
struct UsageTests {
    @Test("--help lists the commands and the exit codes")
    func help() async throws {
        let result = try await Sandbox().swaggerctl("--help")
        #expect(result.status == 0)
        for command in ["login", "details", "logout", "status", "token"] {
            #expect(result.stdout.contains("  \(command) "), "\(command)")
        }
        #expect(result.stdout.contains("Exit codes: 0 success, 1 other failure, 3 network, 4 authentication"))
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
            (["details"], ["SWAGGERCTL_SERVER": "host-without-scheme"], "is not an http or https URL"),
            (["status"], ["SWAGGERCTL_KEYRING": "vault"], "Unknown keyring \"vault\""),
            (["status"], ["SWAGGERCTL_TIMEOUT": "soon"], "SWAGGERCTL_TIMEOUT must be a number of seconds"),
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
