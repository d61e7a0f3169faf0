import Foundation
import SessionMachine
import SessionStorage
import SwaggerClient
import SwaggerHTTP
import SwaggerModel
import TestSupport
import Testing

/// The networks people work on: a real proxy (tinyproxy), real TLS with a throwaway CA made by openssl, plain
/// HTTP to another machine, and a verbose log that shows everything but the secrets.
@Suite("Networks: proxies, TLS trust, plain HTTP, --verbose", .timeLimit(.minutes(15)))
struct NetworkTests {
    /// Each failure's stderr is exactly one line starting with "swaggerctl: ".
    private func expectOneLine(_ result: CommandResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.stderr.hasPrefix("swaggerctl: "), "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
    }

    // MARK: - Proxies

    @Test("HTTP_PROXY sends every request through tinyproxy, to this machine only with --allow-http; NO_PROXY not")
    func httpProxy() async throws {
        try await withTinyproxy { proxy in
            try await withDemoServer { server in
                let port = try #require(URL(string: server.apiURL)?.port)
                let proxied = try Sandbox(environment: ["HTTP_PROXY": proxy.url])
                // Through the proxy, 127.0.0.1 is the proxy's machine, and the password would cross it in clear.
                let refused = try await proxied.loginAsDemo(server.apiURL)
                #expect(refused.status == 64, "\(refused)")
                expectOneLine(refused)
                #expect(refused.stderr.contains("through the proxy http://\(proxy.host):\(proxy.port)"), "\(refused)")
                #expect(refused.stderr.contains("NO_PROXY"), "\(refused)")
                #expect(proxy.connects.isEmpty, "nothing was sent: \(proxy.log)")

                let login = try await proxied.loginAsDemo(server.apiURL, extra: ["--allow-http"])
                #expect(login.status == 0, "\(login)")
                let details = try await proxied.swaggerctl("details")
                #expect(details.status == 0, "\(details)")
                let carried = proxy.connects.count
                #expect(carried >= 2, "one tunnel at least for each command: \(proxy.log)")
                #expect(proxy.connects.allSatisfy { $0.contains("CONNECT 127.0.0.1:\(port) ") }, "\(proxy.log)")

                for bypass in ["127.0.0.1", "*", "localhost,127.0.0.0/8", ".0.0.1,127.0.0.1"] {
                    let direct = try Sandbox(environment: ["http_proxy": proxy.url, "NO_PROXY": bypass])
                    #expect(try await direct.loginAsDemo(server.apiURL).status == 0)
                }
                #expect(proxy.connects.count == carried, "NO_PROXY bypasses the proxy: \(proxy.log)")
            }
        }
    }

    @Test("an https request is tunnelled through the proxy with CONNECT, with the proxy's credentials never shown")
    func httpsThroughProxy() async throws {
        try await withCertificates { certificates in
            try await withTinyproxy(credentials: ("proxyuser", "proxy-secret-pw")) { proxy in
                try await withDemoServer(certificates.good.serverArguments) { server in
                    #expect(server.apiURL.hasPrefix("https://"))
                    let port = try #require(URL(string: server.apiURL)?.port)
                    // By name: through a proxy, NIOSSL checks an IP address's certificate against the proxy's
                    // address instead of the server's, which AsyncHTTPClient gives no way to correct.
                    let apiURL = server.apiURL.replacingOccurrences(of: "127.0.0.1", with: "localhost")
                    let sandbox = try Sandbox(
                        environment: ["HTTPS_PROXY": proxy.url, "SSL_CERT_FILE": certificates.authority])
                    let login = try await sandbox.loginAsDemo(apiURL, extra: ["--verbose"])
                    #expect(login.status == 0, "\(login)")
                    #expect(proxy.connects.contains { $0.contains("CONNECT localhost:\(port) ") }, "\(proxy.log)")
                    #expect(login.stderr.contains("through the proxy http://proxyuser:[redacted]@\(proxy.host):"))
                    #expect(!login.stderr.contains("proxy-secret-pw"))

                    let wrong = try Sandbox(
                        environment: [
                            "HTTPS_PROXY": "http://proxyuser:wrong@\(proxy.host):\(proxy.port)",
                            "SSL_CERT_FILE": certificates.authority,
                        ])
                    let refused = try await wrong.loginAsDemo(apiURL)
                    // tinyproxy refuses the tunnel with 401, not 407 (ProxyFailureTests has the 407).
                    #expect(refused.status == 3, "\(refused)")
                    expectOneLine(refused)
                    #expect(refused.stderr.contains("The proxy http://proxyuser:[redacted]@"), "\(refused)")
                    #expect(!refused.stderr.contains("wrong") && !refused.stderr.contains("HTTPClientError"))
                }
            }
        }
    }

    @Test("a failure to reach another host than the session's names that host, not the session's server")
    func failureElsewhere() async throws {
        try await withDemoServer { server in
            let closed = "http://127.0.0.1:\(try freeLoopbackPort(on: "127.0.0.1"))"
            let sandbox = try Sandbox()
            let result = try await sandbox.swaggerctl(
                [
                    "login", "-s", server.apiURL, "-e", "ana", "--password-stdin", "--kind", "oauth2", "--login-path",
                    "\(closed)/token", "--profile-path", "/User/User", "--client-id", "cli", "--allow-origin", closed,
                ], stdin: "pw\n")
            #expect(result.status == 3, "\(result)")
            // The host that was allowed is said first, then the one line of the error.
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 2 && lines[0].contains("through \(closed), which you allowed"), "\(result)")
            let error = lines.last ?? ""
            #expect(error.hasPrefix("swaggerctl: Could not reach \(closed)"), "\(result)")
            #expect(!error.contains(server.apiURL), "\(result)")
        }
    }

    @Test("a proxy URL that cannot work is a usage error")
    func badProxy() async throws {
        for value in ["socks5://127.0.0.1:1080", "http://", "http://127.0.0.1:99999"] {
            let sandbox = try Sandbox(environment: ["HTTPS_PROXY": value, "HTTP_PROXY": value])
            let result = try await sandbox.login("http://127.0.0.1:9/api", email: "a@example.com", password: "pw")
            #expect(result.status == 64, "\(value): \(result)")
            expectOneLine(result)
        }
    }

    // MARK: - TLS

    @Test("an https server with a private CA: refused as untrusted until --ca-cert, SSL_CERT_FILE or SSL_CERT_DIR")
    func privateAuthority() async throws {
        try await withCertificates { certificates in
            try await withDemoServer(certificates.good.serverArguments) { server in
                let host = "127.0.0.1:\(try #require(URL(string: server.apiURL)?.port))"
                let untrusted = try await Sandbox().loginAsDemo(server.apiURL)
                #expect(untrusted.status == 3, "\(untrusted)")
                expectOneLine(untrusted)
                #expect(
                    untrusted.stderr
                        == "swaggerctl: The TLS connection to \(host) failed: its certificate is not trusted. For a "
                        + "private CA, pass its certificate with --ca-cert FILE.\n")

                // The session keeps its login's --ca-cert: later commands need not name it again.
                let remembering = try Sandbox()
                let flag = try await remembering.loginAsDemo(
                    server.apiURL, extra: ["--ca-cert", certificates.authority])
                #expect(flag.status == 0, "\(flag)")
                for command in [["details"], ["refresh"], ["api", "/User/User"], ["logout"]] {
                    let later = try await remembering.swaggerctl(command)
                    #expect(later.status == 0, "\(command): \(later)")
                }
                let folder = try await certificates.hashedFolder()
                for environment in [
                    ["SSL_CERT_FILE": certificates.authority], ["SWAGGERCTL_CA_CERT": certificates.authority],
                    ["SSL_CERT_DIR": folder.path],
                ] {
                    let sandbox = try Sandbox(environment: environment)
                    let login = try await sandbox.loginAsDemo(server.apiURL)
                    #expect(login.status == 0, "\(environment): \(login)")
                    #expect(try await sandbox.swaggerctl("details").status == 0)
                }
            }
        }
    }

    @Test("SSL_CERT_FILE and SSL_CERT_DIR are one store, as OpenSSL reads them: either may hold the authority")
    func bothStores() async throws {
        try await withCertificates { certificates in
            try await withDemoServer(certificates.good.serverArguments) { server in
                let folder = try await certificates.hashedFolder().path
                let system = "/etc/ssl/certs"
                for environment in [
                    // As many machines set them: the system's bundle and its folder, and the authority added.
                    [
                        "SSL_CERT_FILE": "\(system)/ca-certificates.crt", "SSL_CERT_DIR": system,
                        "SWAGGERCTL_CA_CERT": certificates.authority,
                    ],
                    ["SSL_CERT_FILE": certificates.authority, "SSL_CERT_DIR": system],
                    ["SSL_CERT_FILE": "\(system)/ca-certificates.crt", "SSL_CERT_DIR": folder],
                    ["SSL_CERT_DIR": "\(system):\(folder)"],
                    ["SSL_CERT_DIR": "\(folder):\(system)"],
                ] {
                    let sandbox = try Sandbox(environment: environment)
                    let login = try await sandbox.loginAsDemo(server.apiURL)
                    #expect(login.status == 0, "\(environment): \(login)")
                }
                let without = try await Sandbox(
                    environment: ["SSL_CERT_FILE": "\(system)/ca-certificates.crt", "SSL_CERT_DIR": system]
                ).loginAsDemo(server.apiURL)
                #expect(without.status == 3, "the system's store alone does not trust a private CA: \(without)")
            }
        }
    }

    @Test("a trust store file that holds no certificate is named, exit 64")
    func unloadableStore() async throws {
        try await withCertificates { certificates in
            try await withDemoServer(certificates.good.serverArguments) { server in
                let sandbox = try Sandbox()
                let junk = sandbox.root.appending(path: "junk.pem")
                try Data("not a certificate\n".utf8).write(to: junk)
                for environment in [["SSL_CERT_FILE": junk.path], ["SWAGGERCTL_CA_CERT": junk.path]] {
                    let result = try await Sandbox(environment: environment).loginAsDemo(server.apiURL)
                    #expect(result.status == 64, "\(environment): \(result)")
                    expectOneLine(result)
                    #expect(
                        result.stderr.contains("swaggerctl: \(junk.path) holds no PEM certificate"), "\(result)")
                }
            }
        }
    }

    @Test(
        "each TLS failure gives its own reason in one line, exit 3",
        arguments: ["other-host", "expired", "untrusted", "plain"])
    func tlsReasons(kind: String) async throws {
        try await withCertificates { certificates in
            let pair =
                switch kind {
                case "other-host": certificates.otherHost
                case "expired": certificates.expired
                default: certificates.untrusted
                }
            try await withDemoServer(kind == "plain" ? [] : pair.serverArguments) { server in
                let url = server.apiURL.replacingOccurrences(of: "http://", with: "https://")
                // A timeout far beyond Deadline.command: the reason must come when the second handshake is
                // refused, not when the request's time runs out, or the command is killed and the test fails.
                let sandbox = try Sandbox(
                    environment: ["SSL_CERT_FILE": certificates.authority, "SWAGGERCTL_TIMEOUT": "3600"])
                let result = try await sandbox.loginAsDemo(url)
                #expect(result.status == 3, "\(result)")
                expectOneLine(result)
                let reason =
                    switch kind {
                    case "other-host": "its certificate is for another host name"
                    case "expired": "its certificate expired 2020-02-01 00:00:00 UTC ("
                    case "untrusted": "its certificate is not trusted"
                    default: "it does not speak TLS on that port"
                    }
                #expect(result.stderr.contains(reason), "\(result)")
                for internals in ["BoringSSL", "handshake.cc", "CERTIFICATE_VERIFY_FAILED", "NIOSSL"] {
                    #expect(!result.stderr.contains(internals), "\(result)")
                }
            }
        }
    }

    @Test("a CA file that cannot be read is a usage error, before anything is sent")
    func unreadableAuthority() async throws {
        for (name, value) in [("--ca-cert", "/nonexistent/ca.pem"), ("SSL_CERT_FILE", "/nonexistent/ca.pem")] {
            let sandbox = try Sandbox(environment: name.hasPrefix("--") ? [:] : [name: value])
            let result = try await sandbox.login(
                "https://127.0.0.1:9/api", email: "a@example.com", password: "pw",
                extra: name.hasPrefix("--") ? [name, value] : [])
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains("\(name) names /nonexistent/ca.pem"), "\(result)")
        }
    }

    // MARK: - Plain HTTP

    @Test("credentials never go over plain HTTP to another machine without --allow-http, which is then saved")
    func plainHTTP() async throws {
        let address = try #require(nonLoopbackAddress(), "this machine needs a network address besides loopback")
        let logins = FaultServer.Replies([FaultServer.goodLogin])
        let profiles = FaultServer.Replies([.init(body: #"{"id": 7}"#)])
        try await FaultServer.run(logins: logins, profiles: profiles, everywhere: true) { loopbackURL in
            let remote = loopbackURL.replacingOccurrences(of: "127.0.0.1", with: address)
            let sandbox = try Sandbox()

            let refused = try await sandbox.login(remote, email: "a@example.com", password: "pw")
            #expect(refused.status == 64, "\(refused)")
            #expect(refused.stderr.hasPrefix("swaggerctl: Refusing to send your password to \(remote) over plain HTTP"))
            #expect(logins.count == 0, "nothing was sent")

            let allowed = try await sandbox.login(
                remote, email: "a@example.com", password: "pw", extra: ["--allow-http"])
            #expect(allowed.status == 0, "\(allowed)")
            #expect(try sandbox.sessions.records().first?.allowsPlainHTTP == true)
            let details = try await sandbox.swaggerctl("details")
            #expect(details.status == 0, "the saved choice needs no flag: \(details)")

            let environment = try Sandbox(environment: ["SWAGGERCTL_ALLOW_HTTP": "1"])
            #expect(try await environment.login(remote, email: "b@example.com", password: "pw").status == 0)

            // The demo's loopback addresses stay allowed without a word.
            #expect(try await Sandbox().login(loopbackURL, email: "c@example.com", password: "pw").status == 0)
            let localhost = loopbackURL.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            #expect(try await Sandbox().login(localhost, email: "d@example.com", password: "pw").status == 0)
        }
    }

    // MARK: - --verbose

    @Test("every command with --verbose shows requests and responses, and never the password or a token")
    func verboseRedacts() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            var outputs: [(String, CommandResult)] = []
            let login = try await sandbox.loginAsDemo(server.apiURL, extra: ["--verbose"])
            outputs.append(("login", login))
            var tokens: Set<String> = []
            func collectTokens() async throws {
                let stored = try await sandbox.file.credentials(
                    for: Account(server: server.apiURL, name: Sandbox.demo.email))
                tokens.formUnion([stored?.accessToken, stored?.refreshToken].compactMap { $0 })
            }
            try await collectTokens()
            // Past the access token's 900 s as swaggerctl sees it, so that every command below refreshes first.
            sandbox.advanceClock(by: DemoServerProcess.pastExpiry)
            for arguments in [["details"], ["refresh"], ["status", "--check"], ["token"]] {
                let result = try await sandbox.swaggerctl(arguments + ["--verbose"])
                #expect(result.status == 0, "\(arguments): \(result)")
                outputs.append((arguments.joined(separator: " "), result))
                try await collectTokens()
            }
            let debug = try await sandbox.swaggerctl(["details"], environment: ["SWAGGERCTL_DEBUG": "1"])
            outputs.append(("SWAGGERCTL_DEBUG=1 details", debug))
            let logout = try await sandbox.swaggerctl("logout", "--verbose")
            outputs.append(("logout", logout))

            #expect(tokens.count >= 4, "the refreshes rotated the tokens: \(tokens.count)")
            #expect(login.stderr.contains("> POST \(server.apiURL)/User/AdminLogin"))
            #expect(login.stderr.contains(#""password":"[redacted]""#))
            #expect(login.stderr.contains("< HTTP/1.1 200 OK ("))
            #expect(debug.stderr.contains("> Authorization: [redacted]"))
            #expect(logout.stderr.contains("> POST \(server.apiURL)/User/Logout"))
            for (name, output) in outputs {
                let printedToken = name == "token" ? output.stdout.trimmingCharacters(in: .newlines) : nil
                for secret in tokens.union([Sandbox.demo.password]) {
                    #expect(!output.stderr.contains(secret), "\(name) showed a secret on stderr")
                    if secret != printedToken { #expect(!output.stdout.contains(secret), "\(name) showed a secret") }
                }
            }
        }
    }

    @Test("--verbose hides new tokens under any member name, in credential headers, and in URL parameters")
    func verboseHidesNewTokens() async throws {
        let secrets = [
            "access-AAAAAAAAAAAAAAAA", "refresh-RRRRRRRRRRRRRR", "jwt-JJJJJJJJJJ", "bearer-BBBBBBBB", "sess-SSSSSS",
            "header-HHHHHHHHHHHHHHHH", "location-LLLLLLLL", "next-NNNNNNNN", "nested-QQQQQQQQQQQQQQQQ",
            "hsess-SSSSSS", "hjwt-JJJJJJ",
        ]
        // SimpleJWT names its tokens access and refresh; the rest are what other servers send.
        let answer = """
            {"access":"\(secrets[0])","refresh":"\(secrets[1])","jwt":"\(secrets[2])","bearer":"\(secrets[3])",
             "session":"\(secrets[4])","next":"http://h/p?access_token=\(secrets[7])&page=2",
             "data":{"opaque":"\(secrets[8])"}}
            """
        let login = FaultServer.Reply(
            body: answer, location: "http://h/cb?state=1&access_token=\(secrets[6])",
            headers: [("X-Access-Token", secrets[5]), ("X-Session", secrets[9]), ("X-JWT", secrets[10])])
        try await FaultServer.run(logins: .init([login]), profiles: .init([.init(body: #"{"id":1}"#)])) { url in
            let sandbox = try Sandbox()
            let result = try await sandbox.swaggerctl(
                [
                    "login", "-s", url, "-e", "ana@example.com", "--password-stdin", "--verbose", "--kind", "identity",
                    "--login-path", "/User/AdminLogin", "--profile-path", "/User/User", "--access-token-field",
                    "access", "--refresh-token-field", "refresh",
                ], stdin: "pw\n")
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.lowercased().contains("< x-access-token: [redacted]"), "\(result.stderr)")
            #expect(result.stderr.contains("access_token=[redacted]&page=2"), "\(result.stderr)")
            #expect(result.stderr.contains("> Authorization: [redacted]"), "\(result.stderr)")
            for secret in secrets {
                #expect(!result.stderr.contains(secret), "\(secret) was shown")
            }
        }
    }
}

/// An IPv4 address of this machine that is not loopback, for reaching a local server as if it were remote.
func nonLoopbackAddress() -> String? {
    var list: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&list) == 0, let first = list else { return nil }
    defer { freeifaddrs(list) }
    for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
        guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else {
            continue
        }
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard
            getnameinfo(
                address, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0,
                NI_NUMERICHOST) == 0
        else { continue }
        let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if !text.hasPrefix("127.") { return text }
    }
    return nil
}
