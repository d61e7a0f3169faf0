import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

/// A server whose documents send the password elsewhere: its OAuth metadata, or its OpenAPI document's `servers:`,
/// names another host, which counts what reaches it.
@Suite("Secrets go only to the host the person named, unless they allowed another", .timeLimit(.minutes(15)))
struct OriginTests {
    /// The requests that reached the other host.
    final class Log: Sendable {
        private let lines = Mutex<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    /// The other host: it answers the token and userinfo requests as an identity provider would, and counts them.
    static func withOtherHost(_ body: @Sendable (_ origin: String, _ requests: Log) async throws -> Void)
        async throws
    {
        let requests = Log()
        let router = Router()
        router.post("/token") { _, _ in
            requests.add("POST /token")
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(
                    byteBuffer: ByteBuffer(
                        string: #"{"access_token": "other-host-token", "token_type": "Bearer", "expires_in": 3600}"#)))
        }
        router.get("/userinfo") { _, _ in
            requests.add("GET /userinfo")
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"sub": "ana", "email": "ana@example.com"}"#)))
        }
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            try await body("http://127.0.0.1:\(port)", requests)
        }
    }

    /// The named host: it publishes `document` at `path`, and nothing else.
    static func withNamedHost(path: String, document: String, _ body: @Sendable (String) async throws -> Void)
        async throws
    {
        let router = Router()
        router.get(RouterPath(path)) { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: document)))
        }
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            try await body("http://127.0.0.1:\(port)")
        }
    }

    static func metadata(_ other: String) -> String {
        #"{"issuer": "x", "token_endpoint": "\#(other)/token", "userinfo_endpoint": "\#(other)/userinfo", "grant_types_supported": ["password"]}"#
    }

    /// A FastAPI-like document whose `servers:` entry is the other host: every path it names is there.
    static func openAPI(_ other: String) -> String {
        #"""
        {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "servers": [{"url": "\#(other)"}],
         "paths": {
           "/token": {"post": {"requestBody": {"content": {"application/x-www-form-urlencoded": {"schema": {
             "properties": {"grant_type": {}, "username": {}, "password": {}}}}}},
             "responses": {"200": {"content": {"application/json": {"schema": {}}}}}}},
           "/userinfo": {"get": {"security": [{"o": []}], "responses": {}}}},
         "components": {"securitySchemes": {"o": {"type": "oauth2", "flows": {"password": {"tokenUrl": "token"}}}}}}
        """#
    }

    @Test(
        "a document naming another host gets nothing sent there: refused before the password, naming both hosts",
        arguments: ["metadata", "openapi"])
    func refused(document: String) async throws {
        try await Self.withOtherHost { other, requests in
            let (path, text) =
                document == "metadata"
                ? ("/.well-known/openid-configuration", Self.metadata(other))
                : ("/openapi.json", Self.openAPI(other))
            try await Self.withNamedHost(path: path, document: text) { named in
                let sandbox = try Sandbox()
                let login = try await sandbox.swaggerctl(
                    ["login", "-s", named, "-u", "ana", "--password-stdin", "-q"], stdin: "Passw0rd!\n")
                #expect(login.status == 64, "\(login)")
                #expect(login.stderr.contains(named) && login.stderr.contains(other), "\(login)")
                #expect(login.stderr.contains("--allow-origin \(other)"), "\(login)")
                #expect(requests.all.isEmpty)
                #expect(!login.stderr.contains("Passw0rd"))
                // Nothing was kept that a later command could send there either.
                #expect(try await sandbox.swaggerctl("token").status == 4)
            }
        }
    }

    @Test("an allowed host is used, saved with the server, and said at each login even with -q")
    func allowed() async throws {
        try await Self.withOtherHost { other, requests in
            try await Self.withNamedHost(path: "/.well-known/openid-configuration", document: Self.metadata(other)) {
                named in
                let sandbox = try Sandbox()
                let login = try await sandbox.swaggerctl(
                    ["login", "-s", named, "-u", "ana", "--password-stdin", "-q", "--allow-origin", other],
                    stdin: "Passw0rd!\n")
                #expect(login.status == 0, "\(login)")
                #expect(login.stderr.contains("through \(other), which you allowed"), "\(login)")
                #expect(requests.all == ["POST /token", "GET /userinfo"])
                let show = try await sandbox.swaggerctl("server", "show", named)
                #expect(show.row("Other hosts") == "\(other) (allowed)", "\(show)")
                // Saved: later commands send the token there without the flag.
                let details = try await sandbox.swaggerctl("details")
                #expect(details.status == 0, "\(details)")
                #expect(requests.all.count == 3)
            }
        }
    }

    @Test("a description that moves a live session's tokens to another host asks first; the next use says it once")
    func movingTokens() async throws {
        try await Self.withOtherHost { other, requests in
            try await withDemoServer { server in
                let sandbox = try Sandbox()
                let url = server.apiURL
                try #require(try await sandbox.loginAsDemo(url).status == 0)
                let file = sandbox.root.appending(path: "moved.json")
                try Data(
                    #"{"server": "\#(url)", "allowedOrigins": ["\#(other)"], "profile": {"url": "\#(other)/userinfo"}}"#
                        .utf8
                ).write(to: file)
                // Off a terminal, each way of changing the description is refused, naming the session and the host.
                for arguments in [["server", "import", file.path], ["server", "set", url, "--allow-origin", other]] {
                    let refused = try await sandbox.swaggerctl(arguments)
                    #expect(refused.status == 64, "\(arguments): \(refused)")
                    #expect(refused.stderr.contains("demo@example.com on \(url) to \(other)"), "\(refused)")
                    #expect(refused.stderr.contains("Nothing was saved; add --yes"), "\(refused)")
                }
                let unchanged = try await sandbox.swaggerctl("details")
                #expect(unchanged.status == 0 && unchanged.stderr.isEmpty, "\(unchanged)")
                #expect(requests.all.isEmpty)

                let imported = try await sandbox.swaggerctl("server", "import", file.path, "--yes")
                #expect(imported.status == 0, "\(imported)")
                let first = try await sandbox.swaggerctl("details")
                #expect(first.stderr.contains("sessions now send tokens to \(other) too, as you allowed"), "\(first)")
                #expect(requests.all == ["GET /userinfo"])
                let second = try await sandbox.swaggerctl("details")
                #expect(second.status == 0 && second.stderr.isEmpty, "\(second)")
            }
        }
    }

    /// A document whose operations' paths, but one, would take a request to `authority` or to another port.
    static func leavingDocument(_ authority: String) -> String {
        let paths = [
            ("stealAt", "@\(authority)/steal-at"), ("stealSpace", " @\(authority)/steal-space"),
            ("stealPort", "1/steal-port"), ("stealSlashes", "//\(authority)/steal-slashes"),
            ("stealScheme", "http://\(authority)/steal-scheme"), ("info", "/manage/info"),
        ]
        let items = paths.map { id, path in
            #""\#(path)": {"get": {"operationId": "\#(id)", "responses": {"200": {"description": "ok"}}}}"#
        }
        return
            #"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {\#(items.joined(separator: ", "))}}"#
    }

    @Test(
        "an operation whose path would leave the origin is refused by name and marked; nothing reaches the other host")
    func operationsLeavingTheOrigin() async throws {
        try await Listener.run { authority, requests in
            let sandbox = try Sandbox()
            let file = sandbox.root.appending(path: "leaving.json")
            try Data(Self.leavingDocument(authority).utf8).write(to: file)
            try await FileServer.serve(file) { document in
                try await IdentityServer.run { url, server in
                    let login = try await sandbox.login(
                        url, email: "ana@example.com", password: "Passw0rd!", extra: ["--kind", "identity", "-q"])
                    try #require(login.status == 0, "\(login)")
                    let set = try await sandbox.swaggerctl("server", "set", url, "--openapi", document)
                    try #require(set.status == 0, "\(set)")
                    let token = try await sandbox.swaggerctl("token")
                    try #require(token.status == 0, "\(token)")
                    let fromEnvironment = [
                        "SWAGGERCTL_TOKEN": token.stdout.trimmingCharacters(in: .newlines), "SWAGGERCTL_SERVER": url,
                    ]
                    for id in ["stealAt", "stealSpace", "stealPort", "stealSlashes", "stealScheme"] {
                        for (extra, environment) in [([], [:]), (["--dry-run"], [:]), ([], fromEnvironment)] {
                            let call = try await sandbox.swaggerctl(["api", id] + extra, environment: environment)
                            #expect(call.status == 64, "\(id) \(extra): \(call)")
                            #expect(call.stderr.contains("\(id) is not sent: its path in the document"), "\(call)")
                            #expect(call.stdout.isEmpty, "\(id) \(extra): \(call)")
                        }
                    }
                    let info = try await sandbox.swaggerctl("api", "info")
                    #expect(info.status == 0 && info.stdout.contains("ana@example.com"), "\(info)")
                    let listing = try await sandbox.swaggerctl("operations")
                    let marked = listing.stdout.split(separator: "\n").filter { $0.contains("(refused: its path") }
                    #expect(marked.count == 5, "\(listing)")
                    #expect(requests.all.isEmpty, "\(requests.all)")
                    #expect(server.refreshes == 0)
                }
            }
        }
    }

    @Test("api -L: a redirect to another host goes there without Authorization or Cookie, and its 401 renews nothing")
    func redirectElsewhere() async throws {
        try await Listener.run { authority, requests in
            try await OperationsTests().withSession(OperationsTests.frameworks[0]) { sandbox, _ in
                let before = try await sandbox.swaggerctl("token")
                let call = try await sandbox.swaggerctl(
                    "api", "movedAway", "-f", "to=http://\(authority)/landing", "-L", "-H", "Cookie: session=kept")
                // Another host's 401 is a refusal of a request, not of this session (exit 4).
                #expect(call.status == 1, "\(call)")
                #expect(requests.all == ["GET /landing []"], "\(requests.all)")
                // No refresh: the access token is the one from before.
                let after = try await sandbox.swaggerctl("token")
                #expect(after.status == 0 && after.stdout == before.stdout, "\(after)")
            }
        }
    }

    @Test("api -L through two other hosts, and into a loop there: each hop without the token, and no crash")
    func redirectsElsewhere() async throws {
        try await Listener.run { first, hops in
            try await Listener.run { second, landings in
                try await OperationsTests().withSession(OperationsTests.frameworks[0]) { sandbox, _ in
                    let before = try await sandbox.swaggerctl("token")
                    let twice = try await sandbox.swaggerctl(
                        "api", "movedAway", "-f", "to=http://\(first)/hop?to=http://\(second)/landing", "-L")
                    #expect(twice.status == 1, "\(twice)")
                    #expect(hops.all == ["GET /hop []"], "\(hops.all)")
                    #expect(landings.all == ["GET /landing []"], "\(landings.all)")
                    let loop = try await sandbox.swaggerctl("api", "movedAway", "-f", "to=http://\(first)/loop", "-L")
                    #expect(loop.status == 5, "\(loop)")
                    #expect(loop.stderr.contains("was redirected"), "\(loop)")
                    #expect(hops.all.dropFirst().allSatisfy { $0 == "GET /loop []" } && hops.all.count > 2)
                    let after = try await sandbox.swaggerctl("token")
                    #expect(after.status == 0 && after.stdout == before.stdout, "\(after)")
                }
            }
        }
    }
}
