import Foundation
import SessionStorage
import SwaggerModel
import TestSupport
import Testing

/// `--keyring kernel` against the demo server and this machine's kernel keyring: the swaggerctl processes and the
/// test share the user's persistent keyring, so the test reads what they stored. Each test's demo server has a
/// port of its own, so the keys' descriptions never meet, and each test removes its key when it ends.
@Suite("The kernel keyring: a session kept in the kernel, across processes", .timeLimit(.minutes(10)))
struct KernelKeyringTests {
    static let kernel = KernelKeyringBackend()
    /// Runs a program with add_key, keyctl and request_key refused, as Docker's default seccomp profile does.
    static let denyKeyring = Project.root.appending(path: "Tests/Fixtures/seccomp/deny-keyring")

    /// Runs `body` with the demo server and the demo account on it, and removes the account's key afterwards, also
    /// when `body` fails.
    func withKernelSession(_ body: (DemoServerProcess, Account) async throws -> Void) async throws {
        try await withDemoServer { server in
            let account = Account(server: server.apiURL, name: Sandbox.demo.email)
            defer { _ = try? Self.kernel.removeCredentials(for: account) }
            try await body(server, account)
        }
    }

    /// Every file under the sandbox's folders (configuration, cache and home), read as bytes and joined.
    func everyFile(in sandbox: Sandbox) -> String {
        let files =
            FileManager.default.enumerator(at: sandbox.root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL } ?? []
        return files.compactMap { try? Data(contentsOf: $0) }.map { String(decoding: $0, as: UTF8.self) }
            .joined(separator: "\n")
    }

    /// Runs swaggerctl under `deny-keyring`, in the sandbox's environment.
    func denied(_ arguments: [String], only call: String? = nil, stdin: String? = nil, in sandbox: Sandbox)
        async throws -> CommandResult
    {
        let only = call.map { ["--only", $0] } ?? []
        return try await sandbox.run(Self.denyKeyring, only + [Binaries.swaggerctl.path] + arguments, stdin: stdin)
    }

    @Test("login keeps the session in one kernel key; new processes use it without the flag; logout removes it")
    func loginUseLogout() async throws {
        let sandbox = try Sandbox()
        try await withKernelSession { server, account in
            let login = try await sandbox.loginAsDemo(server.apiURL, extra: ["--keyring", "kernel"])
            #expect(login.status == 0, "\(login)")
            #expect(login.stderr == "Logged in to \(server.apiURL) as \(Sandbox.demo.email).\n")
            #expect(try sandbox.sessions.records().map(\.backend) == [.kernel])

            // The sandbox's SWAGGERCTL_KEYRING is file: the record says where the token is.
            let token = try await sandbox.swaggerctl("token")
            #expect(token.status == 0, "\(token)")
            let stored = try #require(try Self.kernel.credentials(for: account))
            #expect(token.stdout == "\(stored.accessToken ?? "-")\n")
            let details = try await sandbox.swaggerctl("details")
            #expect(details.status == 0, "\(details)")
            #expect(details.stdout == login.stdout)

            // No secret of the session is in any file.
            #expect(!FileManager.default.fileExists(atPath: sandbox.credentialsFile.path))
            let files = everyFile(in: sandbox)
            for secret in [stored.accessToken, stored.refreshToken].compactMap(\.self) {
                #expect(!files.contains(secret))
            }

            let status = try await sandbox.swaggerctl("status")
            let key = "swaggerctl:\(server.apiURL) \(Sandbox.demo.email)"
            #expect(status.stdout.contains("Token in  kernel (persistent keyring, key \"\(key)\")\n"), "\(status)")
            let json = try await sandbox.swaggerctl("status", "--format", "json")
            #expect(json.stdout.contains(#""keystore": "kernel""#), "\(json)")

            // A refresh replaces the key's payload: the new tokens are there, and still nowhere else.
            let refresh = try await sandbox.swaggerctl("refresh")
            #expect(refresh.status == 0, "\(refresh)")
            let renewed = try #require(try Self.kernel.credentials(for: account))
            #expect(renewed.accessToken != stored.accessToken)
            #expect(!FileManager.default.fileExists(atPath: sandbox.credentialsFile.path))

            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0, "\(logout)")
            #expect(try Self.kernel.credentials(for: account) == nil)
            #expect(try sandbox.sessions.records().isEmpty)
        }
    }

    @Test("a session whose key the kernel dropped says so and how to log in again; logout still clears it")
    func keyGone() async throws {
        let sandbox = try Sandbox()
        try await withKernelSession { server, account in
            let login = try await sandbox.loginAsDemo(server.apiURL, extra: ["--keyring", "kernel"])
            try #require(login.status == 0, "\(login)")
            // What a reboot or the persistent keyring's expiry leaves: the record, and no key.
            #expect(try Self.kernel.removeCredentials(for: account))

            let gone =
                "swaggerctl: The kernel keyring has dropped this session (after a reboot, or days unused). Run "
                + "`swaggerctl login -s \(server.apiURL) -e \(Sandbox.demo.email)`.\n"
            for command in ["details", "token", "refresh"] {
                let result = try await sandbox.swaggerctl(command)
                #expect(result.status == 4, "\(command): \(result)")
                #expect(result.stderr == gone, "\(command)")
                #expect(result.stdout.isEmpty, "\(command)")
            }

            // Nothing here can end the session on the server any more, and the logout says so.
            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 1, "\(logout)")
            #expect(logout.stderr.contains("the server was not told"), "\(logout)")
            #expect(try sandbox.sessions.records().isEmpty)
        }
    }

    @Test("a kernel that refuses the keyring stops the login before the password is sent, and nothing is stored")
    func refusedAtLogin() async throws {
        let sandbox = try Sandbox()
        try await withKernelSession { server, account in
            let login = try await denied(
                ["login", "--keyring", "kernel", "-s", server.apiURL, "-e", Sandbox.demo.email, "--password-stdin"],
                stdin: Sandbox.demo.password + "\n", in: sandbox)
            #expect(login.status == 1, "\(login)")
            #expect(
                login.stderr
                    == "swaggerctl: Nothing was sent to \(server.apiURL): the kernel refused keyctl (EPERM). Use "
                    + "--keyring file.\n")
            #expect(login.stderr.count <= 161)
            #expect(!FileManager.default.fileExists(atPath: sandbox.credentialsFile.path))
            #expect(try sandbox.sessions.records().isEmpty)
            #expect(try Self.kernel.credentials(for: account) == nil)
        }
    }

    @Test("a kernel that refuses add_key alone fails the login after the server's answer, and stores nothing")
    func refusedAtStore() async throws {
        let sandbox = try Sandbox(environment: ["SWAGGERCTL_KEYRING": "kernel"])
        try await withKernelSession { server, account in
            let login = try await denied(
                ["login", "-s", server.apiURL, "-e", Sandbox.demo.email, "--password-stdin"], only: "add_key",
                stdin: Sandbox.demo.password + "\n", in: sandbox)
            #expect(login.status == 1, "\(login)")
            #expect(
                login.stderr
                    == "swaggerctl: Could not store the token for \(Sandbox.demo.email) in the kernel keyring: the "
                    + "kernel refused add_key (EPERM). Use --keyring file.\n")
            #expect(login.stderr.count <= 161)
            #expect(!FileManager.default.fileExists(atPath: sandbox.credentialsFile.path))
            #expect(try sandbox.sessions.records().isEmpty)
            #expect(try Self.kernel.credentials(for: account) == nil)
        }
    }

    @Test("a kernel that refuses the keyring to a later command is said in one line, and the session is kept")
    func refusedLater() async throws {
        let sandbox = try Sandbox()
        try await withKernelSession { server, account in
            let login = try await sandbox.loginAsDemo(server.apiURL, extra: ["--keyring", "kernel"])
            try #require(login.status == 0, "\(login)")

            let details = try await denied(["details"], in: sandbox)
            #expect(details.status == 1, "\(details)")
            #expect(
                details.stderr
                    == "swaggerctl: Could not read the token for \(Sandbox.demo.email) from the kernel keyring: the "
                    + "kernel refused keyctl (EPERM). Allow keyctl, then try again.\n")
            #expect(details.stderr.count <= 161)

            let logout = try await denied(["logout"], in: sandbox)
            #expect(logout.status == 1, "\(logout)")
            #expect(
                logout.stderr.hasPrefix(
                    "swaggerctl: \(Sandbox.demo.email) was not logged out: the kernel refused keyctl (EPERM)."),
                "\(logout)")
            #expect(try sandbox.sessions.records().map(\.backend) == [.kernel])

            // --local forgets the session here all the same, and says where its token may remain.
            let local = try await denied(["logout", "--local"], in: sandbox)
            #expect(local.status == 0, "\(local)")
            #expect(
                local.stderr.hasPrefix(
                    "swaggerctl: warning: forgotten here, but its token may remain in the kernel keyring, which "
                        + "refused to remove it.\n"), "\(local)")
            #expect(try sandbox.sessions.records().isEmpty)
            #expect(try Self.kernel.credentials(for: account) != nil)
        }
    }
}
