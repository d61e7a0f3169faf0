import Foundation
import SessionMachine
import SessionStorage
import SwaggerClient
import SwaggerHTTP
import SwaggerModel
import TestSupport
import Testing

/// The Secret Service backend against the real gnome-keyring-daemon of `scripts/keyring-session`, and the
/// faults it must survive on private buses of its own.
@Suite("Secret Service: the token in the desktop keyring, bounded, with an honest fallback", .timeLimit(.minutes(15)))
struct SecretServiceTests {
    /// A sandbox whose swaggerctl talks to the bus at `bus`, with `--keyring` left at auto.
    static func sandbox(bus: String?, keyringTimeout: String? = nil) throws -> Sandbox {
        var environment = ["SWAGGERCTL_KEYRING": "auto"]
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus
        environment["SWAGGERCTL_KEYRING_TIMEOUT"] = keyringTimeout
        return try Sandbox(environment: environment)
    }

    static let demo = Sandbox.demo

    /// The demo account logged in to a demo server of its own, with its token in the test keyring.
    struct KeyringSession {
        let bus: String
        let sandbox: Sandbox
        let server: DemoServerProcess
        /// As `swaggerctl token` printed it after the login, line break included.
        let token: String
        var service: String { "swaggerctl:\(server.apiURL)" }
        var email: String { SecretServiceTests.demo.email }
    }

    static func withKeyringSession(_ body: (KeyringSession) async throws -> Void) async throws {
        let bus = try TestKeyring.busAddress()
        let sandbox = try Self.sandbox(bus: bus)
        try await withDemoServer { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            let token = try await sandbox.swaggerctl("token").stdout
            try await body(KeyringSession(bus: bus, sandbox: sandbox, server: server, token: token))
        }
    }

    @Test("store, lookup and delete go through the real daemon, access and refresh token alike")
    func storeLookupDelete() async throws {
        let keystore = TestKeyring.keyring(try TestKeyring.busAddress())
        let account = Account(server: "http://127.0.0.1:1/api/\(UUID())", name: "ana@example.com")
        let credentials = Credentials(accessToken: "access-\(UUID())", refreshToken: "refresh-\(UUID())")

        #expect(try await keystore.credentials(for: account) == nil)
        try await keystore.store(credentials, for: account)
        #expect(try await keystore.credentials(for: account) == credentials)

        // A second store replaces the first, and one without a refresh token drops the old refresh item.
        let replacement = Credentials(accessToken: "access-2-\(UUID())")
        try await keystore.store(replacement, for: account)
        #expect(try await keystore.credentials(for: account) == replacement)

        #expect(try await keystore.removeCredentials(for: account))
        #expect(try await keystore.credentials(for: account) == nil)
        #expect(try await keystore.removeCredentials(for: account) == false)
    }

    @Test("libsecret is loaded only when the keyring is used: a file-backed token or --version never opens it")
    func libsecretOnDemand() async throws {
        try await withDemoServer { server in
            // The libraries a command opens, as strace sees them: what a linked library would be too.
            func opened(_ arguments: [String], in sandbox: Sandbox) async throws -> [String] {
                let trace = sandbox.root.appending(path: "open.trace")
                let result = try await runProgram(
                    URL(filePath: "/usr/bin/strace"),
                    ["-f", "-e", "trace=openat", "-o", trace.path, Binaries.swaggerctl.path] + arguments,
                    environment: sandbox.environment)
                #expect(result.status == 0, "\(arguments): \(result)")
                return try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").filter {
                    $0.contains(".so") && !$0.contains("ENOENT")
                }.map(String.init)
            }
            func libsecret(_ lines: [String]) -> Bool { lines.contains { $0.contains("libsecret-1.so") } }
            func glib(_ lines: [String]) -> Bool { lines.contains { $0.contains("libglib-2.0.so") } }

            let file = try Sandbox(environment: ["SWAGGERCTL_KEYRING": "file"])
            try #require(try await file.loginAsDemo(server.apiURL).status == 0)
            let fileToken = try await opened(["token"], in: file)
            #expect(!libsecret(fileToken) && !glib(fileToken), "\(fileToken)")
            let version = try await opened(["--version"], in: file)
            #expect(!libsecret(version) && !glib(version), "\(version)")

            let keyring = try Sandbox(environment: [
                "SWAGGERCTL_KEYRING": "secret-service", "DBUS_SESSION_BUS_ADDRESS": try TestKeyring.busAddress(),
            ])
            try #require(try await keyring.loginAsDemo(server.apiURL).status == 0)
            let keyringToken = try await opened(["token"], in: keyring)
            #expect(libsecret(keyringToken) && glib(keyringToken), "\(keyringToken)")
        }
    }

    @Test("an OAuth 2 client secret is a third item, found by client-secret-for, and goes with the tokens")
    func clientSecret() async throws {
        let bus = try TestKeyring.busAddress()
        let keystore = TestKeyring.keyring(bus)
        let account = Account(server: "http://127.0.0.1:1/api/\(UUID())", name: "ana@example.com")
        let credentials = Credentials(
            accessToken: "a-\(UUID())", refreshToken: "r-\(UUID())", clientSecret: "s-\(UUID())")

        try await keystore.store(credentials, for: account)
        #expect(try await keystore.credentials(for: account) == credentials)
        let lookup = try await secretTool(
            "lookup", "client-secret-for", "swaggerctl:\(account.server)", "username", account.name, bus: bus)
        #expect(lookup.stdout == credentials.clientSecret)

        // Stored again without one, the old secret does not linger.
        try await keystore.store(Credentials(accessToken: "a2"), for: account)
        #expect(try await keystore.credentials(for: account) == Credentials(accessToken: "a2"))
        #expect(try await keystore.removeCredentials(for: account))
        #expect(try await keystore.credentials(for: account) == nil)
    }

    @Test("a client's private key and a DPoP key are items of their own, kept and removed with the tokens")
    func sessionKeys() async throws {
        let bus = try TestKeyring.busAddress()
        let keystore = TestKeyring.keyring(bus)
        let account = Account(server: "http://127.0.0.1:1/api/\(UUID())", name: "ci-bot")
        let credentials = Credentials(
            accessToken: "a-\(UUID())",
            clientKey: ClientKey(privateKey: "PEM-\(UUID())", keyID: "k1", certificate: "CERT-\(UUID())"),
            proofKey: "PROOF-\(UUID())")

        try await keystore.store(credentials, for: account)
        #expect(try await keystore.credentials(for: account) == credentials)
        let service = "swaggerctl:\(account.server)"
        let proof = try await secretTool("lookup", "proof-key-for", service, "username", account.name, bus: bus)
        #expect(proof.stdout == credentials.proofKey)
        let key = try await secretTool("lookup", "client-key-for", service, "username", account.name, bus: bus)
        #expect(key.stdout.contains(credentials.clientKey?.privateKey ?? "-"))

        #expect(try await keystore.removeCredentials(for: account))
        #expect(try await keystore.credentials(for: account) == nil)
        let gone = try await secretTool("lookup", "proof-key-for", service, "username", account.name, bus: bus)
        #expect(gone.stdout.isEmpty)
    }

    @Test(
        "attribute values keep Unicode e-mails and server URLs with ports and paths exactly",
        arguments: [
            Account(server: "https://accounts.example.com:8443/tenant/ä/api", name: "zoë.ñandú@exämple.com"),
            Account(server: "http://[::1]:9000/v1/api", name: "用户@例子.广告"),
            Account(server: "http://127.0.0.1:8080/api", name: "o'brien+tag@example.com"),
        ])
    func unicodeAttributes(account: Account) async throws {
        let bus = try TestKeyring.busAddress()
        let keystore = TestKeyring.keyring(bus)
        let token = "token-\(UUID())"
        try await keystore.store(Credentials(accessToken: token), for: account)
        defer { Task { _ = try? await keystore.removeCredentials(for: account) } }

        let lookup = try await secretTool(
            "lookup", "service", "swaggerctl:\(account.server)", "username", account.name, bus: bus)
        #expect(lookup.status == 0, "\(lookup)")
        #expect(lookup.stdout == token)

        // Attributes match exactly: another port, another path or another e-mail finds nothing.
        let otherPort = account.server.string.replacingOccurrences(of: ":8", with: ":7")
        for (service, email) in [
            ("swaggerctl:\(otherPort)", account.name), ("swaggerctl:\(account.server)/", account.name),
            ("swaggerctl:\(account.server)", account.name.uppercased()),
        ] where service != "swaggerctl:\(account.server)" || email != account.name {
            let miss = try await secretTool("lookup", "service", service, "username", email, bus: bus)
            #expect(miss.stdout.isEmpty, "\(service) \(email)")
        }
        let label = try await secretTool("search", "--all", "service", "swaggerctl:\(account.server)", bus: bus)
        #expect(label.stdout.contains("label = swaggerctl token for \(account.name) on \(account.server)\n"))
    }

    @Test("a refresh replaces both keyring items in place: one access item and one refresh item, never more")
    func rotationReplacesItems() async throws {
        let bus = try TestKeyring.busAddress()
        let sandbox = try Self.sandbox(bus: bus)
        try await withDemoServer { server in
            let login = try await sandbox.loginAsDemo(server.apiURL)
            try #require(login.status == 0, "\(login)")
            let service = "swaggerctl:\(server.apiURL)"
            let before = try await secretTool("lookup", "service", service, "username", Self.demo.email, bus: bus)

            for _ in 0..<2 {
                let refresh = try await sandbox.swaggerctl("refresh")
                #expect(refresh.status == 0, "\(refresh)")
            }

            let access = try await secretTool("search", "--all", "service", service, bus: bus)
            let refresh = try await secretTool("search", "--all", "refresh-token-for", service, bus: bus)
            #expect(access.stdout.count(of: "label = ") == 1, "\(access)")
            #expect(refresh.stdout.count(of: "label = ") == 1, "\(refresh)")
            let after = try await secretTool("lookup", "service", service, "username", Self.demo.email, bus: bus)
            #expect(after.stdout != before.stdout)
            let token = try await sandbox.swaggerctl("token")
            #expect(token.stdout == after.stdout + "\n")
            #expect(try sandbox.sessions.records().map(\.backend) == [.keyring])
            #expect(!FileManager.default.fileExists(atPath: sandbox.credentialsFile.path))
        }
    }

    @Test("a rotation stores the new refresh token before the new access token, which a crash between them spares")
    func rotationWriteOrder() async throws {
        let bus = try TestKeyring.busAddress()
        let sandbox = try Self.sandbox(bus: bus)
        try await withDemoServer { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            // dbus-monitor sees every item the Secret Service is asked to create, in order; it is ready once it has
            // printed its own name.
            let log = sandbox.root.appending(path: "create-item.log")
            let script = #"""
                dbus-monitor --session \
                    "type=method_call,interface=org.freedesktop.Secret.Collection,member=CreateItem" >"$0" 2>/dev/null &
                until [ -s "$0" ]; do kill -0 $! 2>/dev/null || exit 1; sleep 0.05; done
                echo ready
                wait
                """#
            // Other tests share the bus: only this server's items count.
            func created() -> [String] {
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                return text.components(separatedBy: "method call ").filter {
                    $0.contains("\"swaggerctl:\(server.apiURL)\"")
                }.map { $0.contains(#"string "refresh-token-for""#) ? "refresh" : "access" }
            }
            let order = try await withChildProcess(
                URL(filePath: "/bin/bash"), ["-c", script, log.path],
                environment: ["DBUS_SESSION_BUS_ADDRESS": bus, "PATH": "/usr/bin:/bin"]
            ) { _ in
                let refresh = try await sandbox.swaggerctl("refresh")
                #expect(refresh.status == 0, "\(refresh)")
                // The monitor gets its copies from the bus after the calls; a generous bound, not a wait.
                let deadline = ContinuousClock.now + .seconds(60)
                var order = created()
                while order.count < 2 || !order.count.isMultiple(of: 2), ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                    order = created()
                }
                return order
            }
            // Each store writes the pair in that order (a refresh stores the session it read before spending it).
            let pairs = stride(from: 0, to: order.count - 1, by: 2).map { Array(order[$0...$0 + 1]) }
            #expect(order.count >= 2 && pairs.allSatisfy { $0 == ["refresh", "access"] }, "\(order)")
        }
    }

    @Test("after login, secret-tool finds the item by the documented attributes, and no token is on disk")
    func secretToolReadsTheItem() async throws {
        let bus = try TestKeyring.busAddress()
        let sandbox = try Self.sandbox(bus: bus)
        try await withDemoServer { server in
            let login = try await sandbox.loginAsDemo(server.apiURL)
            #expect(login.status == 0, "\(login)")
            #expect(!login.stderr.contains("warning"), "\(login)")
            let token = try await sandbox.swaggerctl("token").stdout

            let service = "swaggerctl:\(server.apiURL)"
            let lookup = try await secretTool("lookup", "service", service, "username", Self.demo.email, bus: bus)
            #expect(lookup.status == 0, "\(lookup)")
            #expect(lookup.stdout + "\n" == token)

            let search = try await secretTool("search", "--all", "service", service, bus: bus)
            #expect(search.stdout.contains("label = swaggerctl token for \(Self.demo.email) on \(server.apiURL)\n"))
            // secret-tool prints an item's attributes on standard error.
            #expect(search.stderr.contains("attribute.username = \(Self.demo.email)\n"), "\(search)")
            #expect(search.stderr.contains("attribute.service = \(service)\n"), "\(search)")

            // The refresh token is a second item that a lookup by service and username can never return.
            let refresh = try await secretTool(
                "lookup", "refresh-token-for", service, "username", Self.demo.email, bus: bus)
            #expect(refresh.status == 0, "\(refresh)")
            #expect(!refresh.stdout.isEmpty && refresh.stdout + "\n" != token)

            #expect(!(try sandbox.allFileContents()).contains(lookup.stdout))
            #expect(!FileManager.default.fileExists(atPath: sandbox.credentialsFile.path))

            let status = try await sandbox.swaggerctl("status")
            #expect(
                status.stdout.contains("Token in  secret-service (service=\(service) username=\(Self.demo.email))"))
            let json = try await sandbox.swaggerctl("status", "--format", "json")
            #expect(json.stdout.contains(#""keystore": "secret-service""#))
            _ = try await sandbox.swaggerctl("logout")
        }
    }

    @Test("status looks each token up: one emptied from the keyring behind its back is a Problem, and exit 1")
    func statusOfAnEmptiedKeyring() async throws {
        try await Self.withKeyringSession { session in
            let (bus, sandbox) = (session.bus, session.sandbox)
            let healthy = try await sandbox.swaggerctl("status")
            #expect(healthy.status == 0, "\(healthy)")
            #expect(healthy.row("Problem") == nil, "\(healthy)")
            #expect(healthy.stdout.split(separator: "\n").count == 4, "\(healthy)")

            for item in ["service", "refresh-token-for"] {
                let cleared = try await secretTool("clear", item, session.service, "username", session.email, bus: bus)
                try #require(cleared.status == 0, "\(cleared)")
            }
            let status = try await sandbox.swaggerctl("status")
            #expect(status.status == 1, "\(status)")
            #expect(
                status.row("Problem")
                    == "no token in secret-service: log in again (`swaggerctl login -s \(session.server.apiURL) -e "
                    + "\(session.email)`)", "\(status)")
            #expect(
                status.stderr
                    == "swaggerctl: A session has no token that can be read; its Problem row says what to do.\n")
            #expect(!status.stdout.contains(session.token.dropLast()))
            let json = try await sandbox.swaggerctl("status", "--format", "json")
            #expect(json.status == 1 && json.stdout.contains(#""token": "missing""#), "\(json)")
            #expect(try await sandbox.swaggerctl("token").status == 4)
        }
    }

    @Test("only swaggerctl's own keyring items are used; a session whose access-token item is gone refreshes")
    func foreignItems() async throws {
        try await Self.withKeyringSession { session in
            let (bus, sandbox, token) = (session.bus, session.sandbox, session.token)
            let (service, email) = (session.service, session.email)
            // The same service and user, as another program would write them.
            let set = try await pythonKeyring(["set", service, email], stdin: "foreign-secret\n", bus: bus)
            #expect(set.status == 0, "\(set)")
            let both = try await secretTool("search", "--all", "service", service, "username", email, bus: bus)
            #expect(both.stdout.components(separatedBy: "[/").count - 1 == 2, "two items: \(both)")

            for _ in 0..<3 {
                #expect(try await sandbox.swaggerctl("token").stdout == token)
            }
            #expect(try await sandbox.swaggerctl("details").status == 0)

            // Another tool deletes swaggerctl's access-token item, and only that.
            let cleared = try await secretTool(
                "clear", "xdg:schema", "io.swaggerctl.Token", "service", service, "username", email, bus: bus)
            #expect(cleared.status == 0, "\(cleared)")
            let details = try await sandbox.swaggerctl("details")
            #expect(details.status == 0, "\(details)")
            let renewed = try await sandbox.swaggerctl("token")
            #expect(renewed.status == 0 && renewed.stdout != token && !renewed.stdout.contains("foreign"), "\(renewed)")

            #expect(try await sandbox.swaggerctl("logout").status == 0)
            let foreign = try await pythonKeyring(["get", service, email], bus: bus)
            #expect(foreign.stdout == "foreign-secret\n", "python keyring's item is left alone: \(foreign)")
            _ = try await pythonKeyring(["del", service, email], bus: bus)
        }
    }

    @Test("a secret that another program stores over swaggerctl's item is never used, and the session renews")
    func itemTakenOver() async throws {
        try await Self.withKeyringSession { session in
            let (bus, sandbox, token) = (session.bus, session.sandbox, session.token)
            let (service, email) = (session.service, session.email)
            // gnome-keyring replaces, in place, an item that has the attributes a writer gives.
            let stored = try await secretTool(
                ["store", "--label", "foreign", "service", service, "username", email], stdin: "foreign-st",
                bus: bus)
            #expect(stored.status == 0, "\(stored)")

            for _ in 0..<2 {
                let read = try await sandbox.swaggerctl("token")
                #expect(read.status == 0 && !read.stdout.contains("foreign") && read.stdout != token, "\(read)")
            }
            #expect(try await sandbox.swaggerctl("details").status == 0)
            #expect(try await sandbox.swaggerctl("logout").status == 0)
            let foreign = try await secretTool("lookup", "service", service, "username", email, bus: bus)
            #expect(foreign.stdout == "foreign-st", "the other program's item is left alone: \(foreign)")
            _ = try await secretTool("clear", "service", service, "username", email, bus: bus)
        }
    }

    @Test("a session stored before items were marked is read, marked and replaced once; a foreign label is not")
    func unmarkedItemsAdopted() async throws {
        try await Self.withKeyringSession { session in
            let (bus, sandbox, server, token) = (session.bus, session.sandbox, session.server, session.token)
            let (service, email) = (session.service, session.email)
            let refresh = try await secretTool("lookup", "refresh-token-for", service, "username", email, bus: bus)
            #expect(refresh.status == 0 && !refresh.stdout.isEmpty, "\(refresh)")
            // The items as swaggerctl wrote them before it marked them, beside another program's unmarked item
            // under the same schema, which must not be taken for the session's.
            // Other tests share the keyring: every call names this server.
            let schema = ["xdg:schema", "io.swaggerctl.Token"]
            let kinds = ["service", "refresh-token-for", "client-secret-for"]
            func search() async throws -> String {
                var listed = ""
                for name in kinds {
                    let found = try await secretTool(
                        ["search", "--all"] + schema + [name, service, "username", email], bus: bus)
                    listed += found.stdout + found.stderr
                }
                return listed
            }
            for name in kinds {
                _ = try await secretTool(["clear"] + schema + [name, service, "username", email], bus: bus)
            }
            let old = [
                ("swaggerctl token for \(email) on \(server.apiURL)", "service", String(token.dropLast())),
                ("swaggerctl refresh token for \(email) on \(server.apiURL)", "refresh-token-for", refresh.stdout),
                ("another program's", "client-secret-for", "foreign-client-secret"),
            ]
            for (label, name, secret) in old {
                let stored = try await secretTool(
                    ["store", "--label", label] + schema + [name, service, "username", email], stdin: secret, bus: bus)
                #expect(stored.status == 0, "\(stored)")
            }

            let read = try await sandbox.swaggerctl("token")
            #expect(read.status == 0 && read.stdout == token, "the stored token, still good, is used: \(read)")
            let listed = try await search()
            #expect(listed.components(separatedBy: "attribute.swaggerctl-item = ").count - 1 == 2, "\(listed)")
            #expect(listed.components(separatedBy: "label = swaggerctl ").count - 1 == 2, "\(listed)")
            #expect(listed.contains("label = another program's"), "\(listed)")
            #expect(try await sandbox.swaggerctl("details").status == 0)
            #expect(try await sandbox.swaggerctl("logout").status == 0)
            let left = try await search()
            #expect(left.components(separatedBy: "label = ").count - 1 == 1, "\(left)")
            _ = try await secretTool(["clear"] + schema + ["client-secret-for", service, "username", email], bus: bus)
        }
    }

    @Test("a second process reuses the token from the keyring, and logout removes both items")
    func secondProcessAndLogout() async throws {
        let bus = try TestKeyring.busAddress()
        let sandbox = try Self.sandbox(bus: bus)
        try await withDemoServer { server in
            let login = try await sandbox.loginAsDemo(server.apiURL)
            #expect(login.status == 0, "\(login)")

            let details = try await sandbox.swaggerctl("details")
            #expect(details.status == 0, "\(details)")
            #expect(details.stdout == login.stdout)

            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0, "\(logout)")
            #expect(logout.stderr == "Logged out \(Self.demo.email) from \(server.apiURL).\n")

            let service = "swaggerctl:\(server.apiURL)"
            for attribute in ["service", "refresh-token-for"] {
                let left = try await secretTool("search", "--all", attribute, service, bus: bus)
                #expect(left.stdout.isEmpty && left.stderr.isEmpty, "\(attribute): \(left)")
            }
            let after = try await sandbox.swaggerctl("details")
            #expect(after.status == 4, "\(after)")
        }
    }

    @Test("with no session bus, auto keeps the token in the file with a warning, and never starts dbus-launch")
    func noBus() async throws {
        // If libsecret were called without a bus, GLib would run `dbus-launch --autolaunch` from PATH (given a
        // DISPLAY, which it requires first).
        let sandbox = try Sandbox(environment: ["SWAGGERCTL_KEYRING": "auto", "DISPLAY": ":97"])
        let tools = sandbox.root.appending(path: "bin")
        let marker = sandbox.root.appending(path: "dbus-launch-ran")
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        let fake = tools.appending(path: "dbus-launch")
        try "#!/bin/sh\ntouch '\(marker.path)'\nexit 1\n".write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let path = "\(tools.path):/usr/bin:/bin"

        try await withDemoServer { server in
            let login = try await sandbox.loginAsDemo(server.apiURL, environment: ["PATH": path])
            #expect(login.status == 0, "\(login)")
            #expect(
                login.stderr.hasPrefix(
                    "swaggerctl: warning: there is no D-Bus session bus; the token is in "
                        + "\(sandbox.credentialsFile.path). SWAGGERCTL_KEYRING=file silences this.\n"), "\(login)")
            #expect(
                try await sandbox.file.credentials(for: Account(server: server.apiURL, name: Self.demo.email))
                    != nil)
            let status = try await sandbox.swaggerctl("status")
            #expect(status.stdout.contains("Token in  file (\(sandbox.credentialsFile.path))"))

            // The store is checked before the password goes out: no session is left on the server for nothing.
            let logins = server.logLines(containing: "login")
            let strict = try await sandbox.swaggerctl(
                [
                    "login", "--keyring", "secret-service", "-s", server.apiURL, "-e", Self.demo.email,
                    "--password-stdin",
                ],
                stdin: Self.demo.password + "\n", environment: ["PATH": path])
            #expect(strict.status == 1, "\(strict)")
            #expect(
                strict.stderr.hasPrefix(
                    "swaggerctl: Nothing was sent to \(server.apiURL): there is no D-Bus session bus. Run it in your "
                        + "desktop session, or use --keyring file.\n"), "\(strict)")
            #expect(strict.stderr.split(separator: "\n").count == 1)
            #expect(server.logLines(containing: "login") == logins, "the server saw no login")

            let logout = try await sandbox.swaggerctl(["logout"], environment: ["PATH": path])
            #expect(logout.status == 0, "\(logout)")
            #expect(logout.stderr == "Logged out \(Self.demo.email) from \(server.apiURL).\n")
        }
        #expect(!FileManager.default.fileExists(atPath: marker.path), "dbus-launch was started")
    }

    @Test("with a stale bus address, auto falls back and says the bus cannot be reached")
    func staleBus() async throws {
        let sandbox = try Sandbox(environment: ["SWAGGERCTL_KEYRING": "auto"])
        let stale = "unix:path=\(sandbox.root.path)/no-such-bus"
        try await withDemoServer { server in
            let login = try await sandbox.loginAsDemo(
                server.apiURL,
                environment: ["DBUS_SESSION_BUS_ADDRESS": stale])
            #expect(login.status == 0, "\(login)")
            #expect(
                login.stderr.hasPrefix("swaggerctl: warning: the D-Bus session bus cannot be reached ("), "\(login)")
            #expect(login.stderr.contains("; the token is in \(sandbox.credentialsFile.path). SWAGGERCTL_KEYRING=file"))

            let logout = try await sandbox.swaggerctl(["logout"], environment: ["DBUS_SESSION_BUS_ADDRESS": stale])
            #expect(logout.status == 0, "\(logout)")
            #expect(logout.stderr == "Logged out \(Self.demo.email) from \(server.apiURL).\n")
        }
    }

    @Test("with nothing on the bus providing the Secret Service, auto falls back and secret-service fails")
    func noService() async throws {
        try await withPrivateBus(.nothing) { bus in
            let sandbox = try Self.sandbox(bus: bus.address)
            try await withDemoServer { server in
                let login = try await sandbox.loginAsDemo(server.apiURL)
                #expect(login.status == 0, "\(login)")
                #expect(
                    login.stderr.hasPrefix(
                        "swaggerctl: warning: nothing on the session bus provides the Secret Service; the token is in "
                            + "\(sandbox.credentialsFile.path). SWAGGERCTL_KEYRING=file silences this.\n"
                    ))

                let strict = try await sandbox.loginAsDemo(
                    server.apiURL,
                    extra: ["--keyring", "secret-service"])
                #expect(strict.status == 1, "\(strict)")
                #expect(strict.stderr.contains("nothing on the session bus provides the Secret Service"))
                #expect(strict.stderr.hasPrefix("swaggerctl: Nothing was sent to \(server.apiURL): "), "\(strict)")
            }
        }
    }

    @Test(
        "with a Secret Service that never answers, auto falls back within the timeout and secret-service fails within it"
    )
    func stalledService() async throws {
        try await withPrivateBus(.stalledSecretService) { bus in
            let sandbox = try Self.sandbox(bus: bus.address, keyringTimeout: "1")
            try await withDemoServer { server in
                // Unbounded, each login would wait for D-Bus's own 25-second reply timeout, and fail with its
                // message, or wait forever on a prompt; the messages say the 1-second bound ended them.
                let login = try await sandbox.loginAsDemo(server.apiURL)
                #expect(login.status == 0, "\(login)")
                #expect(
                    login.stderr.hasPrefix(
                        "swaggerctl: warning: the Secret Service did not answer within 1 s; the token is in "
                            + "\(sandbox.credentialsFile.path). SWAGGERCTL_KEYRING=file silences this.\n"), "\(login)")

                let strict = try await sandbox.loginAsDemo(server.apiURL, extra: ["--keyring", "secret-service"])
                #expect(strict.status == 1, "\(strict)")
                #expect(
                    strict.stderr
                        == "swaggerctl: Nothing was sent to \(server.apiURL): the Secret Service did not answer within 1 s. "
                        + "Check the keyring, or allow longer with SWAGGERCTL_KEYRING_TIMEOUT.\n")

                // The session in the file needs no keyring to be used or removed.
                let details = try await sandbox.swaggerctl("details")
                #expect(details.status == 0, "\(details)")
                let logout = try await sandbox.swaggerctl("logout")
                #expect(logout.status == 0, "\(logout)")
                #expect(
                    logout.stderr.contains("; an older copy of the token may remain in the keyring"))
                #expect(try sandbox.sessions.records().isEmpty)
            }
        }
    }

    @Test("on the user's own bus, the token is read over a plain session: no key exchange, and the same secret")
    func plainSession() async throws {
        try await withPrivateBus(.keyring) { bus in
            let sandbox = try Self.sandbox(bus: bus.address)
            try await withDemoServer { server in
                let login = try await sandbox.loginAsDemo(server.apiURL)
                try #require(login.status == 0, "\(login)")
                var token: CommandResult?
                let trace = try await monitoringBus(bus.address) { token = try await sandbox.swaggerctl("token") }
                #expect(token?.status == 0, "\(String(describing: token))")
                let stored = try await secretTool(
                    "lookup", "service", "swaggerctl:\(server.apiURL)", "username", Self.demo.email, bus: bus.address)
                #expect(token?.stdout == stored.stdout + "\n", "\(stored)")

                #expect(trace.contains("member=OpenSession\n   string \"plain\""), "\(trace)")
                #expect(!trace.contains("dh-ietf1024"), "\(trace)")
                // libsecret's service proxy would load the service's properties and try to start it first.
                #expect(!trace.contains("member=GetAll"), "\(trace)")
                #expect(!trace.contains("member=StartServiceByName"), "\(trace)")
            }
        }
    }

    @Test("with a locked collection, reads and logout give the reason and remove nothing; auto login falls back")
    func lockedCollection() async throws {
        try await withPrivateBus(.keyring) { bus in
            let sandbox = try Self.sandbox(bus: bus.address)
            try await withDemoServer { server in
                let login = try await sandbox.loginAsDemo(server.apiURL)
                #expect(login.status == 0, "\(login)")
                try await lockKeyring(bus: bus.address)

                let details = try await sandbox.swaggerctl("details")
                #expect(details.status == 1, "\(details)")
                #expect(
                    details.stderr
                        == "swaggerctl: Could not read the token for demo@example.com on \(server.apiURL) from the Secret "
                        + "Service: the keyring is locked and could not be unlocked. Unlock the keyring (for example in "
                        + "Seahorse), then try again.\n")

                let logout = try await sandbox.swaggerctl("logout")
                #expect(logout.status == 1, "\(logout)")
                #expect(logout.stderr.contains("so nothing was logged out: the keyring is locked"))
                #expect(try sandbox.sessions.records().map(\.name) == [Self.demo.email])
                let items = try await secretTool(
                    "search", "--all", "service", "swaggerctl:\(server.apiURL)", bus: bus.address)
                #expect(items.stderr.contains("attribute.username = \(Self.demo.email)"), "\(items)")

                let fallback = try await sandbox.loginAsDemo(server.apiURL)
                #expect(fallback.status == 0, "\(fallback)")
                #expect(
                    fallback.stderr.hasPrefix(
                        "swaggerctl: warning: the keyring is locked and could not be unlocked; the token is in "
                            + "\(sandbox.credentialsFile.path). SWAGGERCTL_KEYRING=file silences this.\n"))

                let strict = try await sandbox.loginAsDemo(
                    server.apiURL,
                    extra: ["--keyring", "secret-service"])
                #expect(strict.status == 1, "\(strict)")
                #expect(strict.stderr.contains("the keyring is locked and could not be unlocked"))
            }
        }
    }

    @Test("a session saved to the file while the keyring was down is found, and removed, once it is back")
    func fileSessionFoundWithKeyring() async throws {
        let bus = try TestKeyring.busAddress()
        let sandbox = try Self.sandbox(bus: bus)
        try await withDemoServer { server in
            let offline = try await sandbox.loginAsDemo(
                server.apiURL,
                environment: ["DBUS_SESSION_BUS_ADDRESS": ""])
            #expect(offline.status == 0, "\(offline)")
            #expect(offline.stderr.contains("warning: there is no D-Bus session bus"))

            let details = try await sandbox.swaggerctl("details")
            #expect(details.status == 0, "\(details)")
            #expect(details.stderr.isEmpty, "\(details)")

            // Logging in again with the keyring moves the token there and out of the file.
            let online = try await sandbox.loginAsDemo(server.apiURL)
            #expect(online.status == 0, "\(online)")
            let account = Account(server: server.apiURL, name: Self.demo.email)
            #expect(try await sandbox.file.credentials(for: account) == nil)
            #expect(try sandbox.sessions.records().map(\.backend) == [.keyring])

            // --keyring file never touches D-Bus, so it cannot read a token that is in the keyring.
            let fileOnly = try await sandbox.swaggerctl("details", "--keyring", "file")
            #expect(fileOnly.status == 1, "\(fileOnly)")
            #expect(fileOnly.stderr.contains("is in the Secret Service, not used with --keyring file"))
            let fileLogout = try await sandbox.swaggerctl("logout", "--keyring", "file")
            #expect(fileLogout.status == 1, "\(fileLogout)")
            #expect(fileLogout.stderr.contains("not used with --keyring file, so nothing was logged out"))
            #expect(try sandbox.sessions.records().map(\.name) == [Self.demo.email])

            let logout = try await sandbox.swaggerctl("logout")
            #expect(logout.status == 0, "\(logout)")
            let left = try await secretTool("search", "--all", "service", "swaggerctl:\(server.apiURL)", bus: bus)
            #expect(left.stdout.isEmpty, "\(left)")
        }
    }
}

extension String {
    /// How many times `part` occurs, without overlaps.
    func count(of part: String) -> Int {
        components(separatedBy: part).count - 1
    }
}
