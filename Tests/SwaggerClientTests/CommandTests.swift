import Foundation
import SessionMachine
import SessionStorage
import SwaggerHTTP
import SwaggerModel
import SwaggerServers
import TestSupport
import Testing

@testable import SwaggerClient

/// Each session command run as a function of its options and an environment: a recorded transport under the real
/// service, tokens in memory, a clock that stands still and a recording console. Each test is one flag's effect on
/// what is sent, printed and kept.
@Suite("Commands as functions: each flag's effect on the requests, the output and the store", .timeLimit(.minutes(5)))
struct CommandTests {
    /// 2033-05-18T03:33:20Z.
    static let start = Date(timeIntervalSince1970: 2_000_000_000)

    let folder: TemporaryDirectory
    let journal = Journal()
    let server: RecordedTransport
    let tokens: MemoryTokenStore
    let clock = StoppedClock(start)

    init() throws {
        folder = try TemporaryDirectory()
        server = RecordedTransport.demo(journal: journal)
        tokens = MemoryTokenStore(journal: journal)
    }

    var variables: [String: String] {
        [
            "HOME": folder.url.path, "SWAGGERCTL_CONFIG_DIR": folder.appending("config").path,
            "SWAGGERCTL_CACHE_DIR": folder.appending("cache").path,
        ]
    }

    func environment(_ console: RecordingConsole, _ extra: [String: String] = [:]) -> CommandEnvironment {
        let clock = clock
        return CommandEnvironment(
            variables: variables.merging(extra) { $1 }, console: console, now: { clock.now }, transport: server,
            tokens: tokens, sleep: { _ in })
    }

    /// A session for `account`, as a login leaves it: its record, its tokens, its server's entry and its saved
    /// profile; the last one stored is the active one on the server.
    func store(
        _ account: Account, access: String, refresh: String = "refresh-1", expiresIn lifetime: TimeInterval = 900
    ) throws {
        let controller = SessionController(
            configuration: try Configuration(environment: variables), tokens: tokens,
            service: APIService(timeout: .seconds(5), transport: server))
        try controller.sessions.save(
            Fixtures.record(account, savedAt: Self.start, expiresAt: Self.start.addingTimeInterval(lifetime)))
        try controller.servers.save(
            ServerEntry(server: Fixtures.server, description: Fixtures.original(), updatedAt: Self.start))
        try controller.profiles?.save(
            Profile(fields: ["id": .integer(7), "email": .string(account.name)]), for: account,
            receivedAt: Self.start)
        tokens.put(Credentials(accessToken: access, refreshToken: refresh), for: account)
    }

    /// Sessions for ana and then ivo on the one server, with tokens named after them: ivo's is the active one.
    func storeBoth() throws {
        try store(Fixtures.ana, access: "access-ana")
        try store(Fixtures.ivo, access: "access-ivo")
    }

    func code(_ body: () async throws(SwaggerError) -> Void) async -> SwaggerError? {
        do throws(SwaggerError) {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    var requests: [String] { journal.lines.filter { $0.contains(" /") } }

    /// `command` with `change` made to its options, as its flags would make it.
    func given<Command>(_ command: Command, _ change: (inout Command) -> Void) -> Command {
        var command = command
        change(&command)
        return command
    }

    // MARK: - details

    @Test("details prints the server's profile as a table, fetched with the active session's token")
    func details() async throws {
        try store(Fixtures.ana, access: "access-1")
        server.register("GET", "/api/User/User", .json(["id": 7, "email": "ana@example.com", "name": "Ana"]))
        let console = RecordingConsole()
        try await DetailsCommand().run(environment(console))
        #expect(requests == ["GET /api/User/User Bearer access-1"])
        // The rows the server family labels, in its order, each shown even when the server left it out.
        let rows = console.output.split(separator: "\n")
        #expect(rows.first == "ID            7")
        #expect(rows.dropFirst().first == "First name    Ana")
        #expect(rows.contains("Last name     unknown"))
        #expect(rows.contains("E-mail        ana@example.com"))
        #expect(console.labels == ["Fetching your profile"])
        #expect(console.notices.isEmpty)
    }

    @Test("details --format json prints every field as the server sent it")
    func detailsJSON() async throws {
        try store(Fixtures.ana, access: "access-1")
        server.register("GET", "/api/User/User", .json(["id": 7, "nickname": "ana"]))
        let console = RecordingConsole()
        try await given(DetailsCommand()) { $0.format = .json }.run(environment(console))
        let printed = try JSONSerialization.jsonObject(with: Data(console.output.utf8)) as? [String: Any]
        #expect(printed?.count == 2)
        #expect(printed?["id"] as? Int == 7)
        #expect(printed?["nickname"] as? String == "ana")
    }

    @Test("details -e uses that account's session, not the active one")
    func detailsForAccount() async throws {
        try storeBoth()
        let console = RecordingConsole()
        try await given(DetailsCommand()) { $0.session.account = "ana@example.com" }.run(environment(console))
        #expect(requests == ["GET /api/User/User Bearer access-ana"])
    }

    @Test("details with the server down shows the saved profile and how old it is; --no-cache exits 3 instead")
    func detailsOffline() async throws {
        try store(Fixtures.ana, access: "access-1")
        server.register(
            "GET", "/api/User/User", .failure(.unreachable("connection refused")),
            .failure(.unreachable("connection refused")))
        clock.advance(by: 120)
        let console = RecordingConsole()
        try await DetailsCommand().run(environment(console))
        #expect(console.output.contains("ana@example.com"))
        #expect(console.notices.count == 1)
        #expect(console.notices.first?.contains("2 min") == true)

        let refused = RecordingConsole()
        let error = await code { () async throws(SwaggerError) in
            try await given(DetailsCommand()) { $0.allowSaved = false }.run(environment(refused))
        }
        #expect(error?.code == .network)
        #expect(refused.output.isEmpty)
    }

    @Test("details with SWAGGERCTL_TOKEN sends that token, and reads nothing from the store")
    func detailsWithEnvironmentToken() async throws {
        try store(Fixtures.ana, access: "access-1")
        let console = RecordingConsole()
        try await DetailsCommand().run(
            environment(console, ["SWAGGERCTL_TOKEN": "given-token", "SWAGGERCTL_SERVER": Fixtures.server.string]))
        #expect(journal.lines == ["GET /api/User/User Bearer given-token"])
    }

    // MARK: - token

    @Test("token prints the access token alone; --format header prints the header line that carries it")
    func token() async throws {
        try store(Fixtures.ana, access: "access-1")
        let plain = RecordingConsole()
        try await TokenCommand().run(environment(plain))
        #expect(plain.output == "access-1\n")
        let header = RecordingConsole()
        try await given(TokenCommand()) { $0.format = .header }.run(environment(header))
        #expect(header.output == "Authorization: Bearer access-1\n")
        #expect(requests.isEmpty)
    }

    @Test("token --format exec-credential answers in the API version that KUBERNETES_EXEC_INFO asks for")
    func tokenExecCredential() async throws {
        try store(Fixtures.ana, access: "access-1")
        let console = RecordingConsole()
        let info = #"{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential"}"#
        try await given(TokenCommand()) { $0.format = .execCredential }.run(
            environment(console, ["KUBERNETES_EXEC_INFO": info]))
        let printed = try JSONSerialization.jsonObject(with: Data(console.output.utf8)) as? [String: Any]
        #expect(printed?["apiVersion"] as? String == "client.authentication.k8s.io/v1beta1")
        #expect((printed?["status"] as? [String: Any])?["token"] as? String == "access-1")
    }

    @Test("token past the expiry spends the refresh token first, and prints the new access token")
    func tokenRefreshed() async throws {
        try store(Fixtures.ana, access: "access-1", expiresIn: 60)
        clock.advance(by: 61)
        let console = RecordingConsole()
        try await TokenCommand().run(environment(console))
        #expect(console.output == "access-2\n")
        #expect(requests == [SessionControllerTests.refresh("refresh-1")])
    }

    // MARK: - refresh

    @Test("refresh spends the refresh token now, and says when the new access token expires")
    func refresh() async throws {
        try store(Fixtures.ana, access: "access-1")
        server.register(
            "POST", "/api/User/RefreshToken",
            .json(["accessToken": "access-2", "refreshToken": "refresh-2", "expiresIn": 600]))
        let console = RecordingConsole()
        try await RefreshCommand().run(environment(console))
        #expect(requests == [SessionControllerTests.refresh("refresh-1")])
        #expect(
            console.output
                == "Refreshed the session for ana@example.com on \(Fixtures.server): the access token expires "
                + "\(RelativeTime.stamp(Self.start.addingTimeInterval(600), now: Self.start)).\n")
        #expect(tokens.tokens[Fixtures.ana]?.accessToken == "access-2")
    }

    // MARK: - status

    @Test("status lists each session, the active one marked, and asks the server nothing")
    func status() async throws {
        try store(Fixtures.ana, access: "access-1")
        try store(Fixtures.ivo, access: "access-2")
        let console = RecordingConsole()
        try await given(StatusCommand()) { $0.format = .json }.run(environment(console))
        let printed = try JSONSerialization.jsonObject(with: Data(console.output.utf8)) as? [[String: Any]]
        let active = printed?.filter { $0["active"] as? Bool == true }.compactMap { $0["email"] as? String }
        #expect(printed?.count == 2)
        #expect(active == ["ivo@example.com"])
        #expect(requests.isEmpty)
        #expect(!console.output.contains("access-"))
    }

    @Test("status -s for a server with no session exits 4, naming the filter; with none anywhere, exits 4 too")
    func statusEmpty() async throws {
        let console = RecordingConsole()
        let nowhere = await code { () async throws(SwaggerError) in try await StatusCommand().run(environment(console))
        }
        #expect(nowhere == .notLoggedInAnywhere)
        try store(Fixtures.ana, access: "access-1")
        let filtered = await code { () async throws(SwaggerError) in
            try await given(StatusCommand()) { $0.session.server = .url(Fixtures.otherServer) }
                .run(environment(RecordingConsole()))
        }
        #expect(filtered?.code == .authentication)
        #expect(filtered?.message.contains("-s \(Fixtures.otherServer)") == true)
    }

    @Test("status --check asks the server whether the session still holds")
    func statusCheck() async throws {
        try store(Fixtures.ana, access: "access-1")
        try await given(StatusCommand()) { $0.check = true }.run(environment(RecordingConsole()))
        #expect(requests == ["GET /api/User/User Bearer access-1"])
    }

    // MARK: - switch

    @Test("switch -e makes that account the active one: a later details uses its token")
    func switchAccount() async throws {
        try storeBoth()
        let console = RecordingConsole()
        try await SwitchCommand(session: SessionChoice(account: "ana@example.com")).run(environment(console))
        #expect(
            console.notices == [
                "Switched to ana@example.com on \(Fixtures.server), which is now the default server."
            ])
        try await DetailsCommand().run(environment(RecordingConsole()))
        #expect(requests == ["GET /api/User/User Bearer access-ana"])
    }

    @Test("switch without -e asks on a terminal, and takes the account whose number is given")
    func switchAsks() async throws {
        try storeBoth()
        let console = RecordingConsole(answers: ["3", "2"])
        try await SwitchCommand().run(environment(console))
        #expect(console.notices.contains("\"3\" is not one of the numbers 1 to 2."))
        #expect(console.notices.last?.hasPrefix("Switched to ana@example.com") == true)
    }

    @Test("switch without -e off a terminal exits 64, naming the accounts to choose from")
    func switchOffTerminal() async throws {
        try storeBoth()
        let error = await code { () async throws(SwaggerError) in
            try await SwitchCommand().run(environment(RecordingConsole()))
        }
        #expect(error?.code == .usage)
        #expect(error?.message.contains("ivo@example.com, ana@example.com") == true)
    }

    // MARK: - logout

    @Test("logout revokes the session on the server, removes its tokens here, and says so")
    func logout() async throws {
        try store(Fixtures.ana, access: "access-1")
        // The access token no longer works once the session is revoked: nothing is left to warn of.
        server.register("GET", "/api/User/User", .status(401))
        let console = RecordingConsole()
        try await LogoutCommand().run(environment(console))
        #expect(requests.first == SessionControllerTests.revoke("access-1", "refresh-1"))
        #expect(tokens.tokens.isEmpty)
        #expect(console.notices == ["Logged out ana@example.com from \(Fixtures.server)."])
    }

    @Test("logout --local removes the session without a word to the server")
    func logoutLocal() async throws {
        try store(Fixtures.ana, access: "access-1")
        try await given(LogoutCommand()) { $0.local = true }.run(environment(RecordingConsole()))
        #expect(requests.isEmpty)
        #expect(tokens.tokens.isEmpty)
    }

    @Test("logout --all ends every session, each revoked, and counts them")
    func logoutAll() async throws {
        try storeBoth()
        server.register("GET", "/api/User/User", .status(401))
        let console = RecordingConsole()
        try await given(LogoutCommand()) { $0.all = true }.run(environment(console))
        #expect(requests.filter { $0.hasPrefix("POST /api/User/Logout") }.count == 2)
        #expect(tokens.tokens.isEmpty)
        #expect(console.notices == ["Logged out 2 sessions on 1 server."])
    }

    @Test("logout without -e, of a server with two accounts, asks which; off a terminal it exits 64 and keeps both")
    func logoutChooses() async throws {
        try storeBoth()
        let error = await code { () async throws(SwaggerError) in
            try await LogoutCommand().run(environment(RecordingConsole()))
        }
        #expect(error?.code == .usage)
        #expect(tokens.tokens.count == 2)
        try await LogoutCommand().run(environment(RecordingConsole(answers: ["2"])))
        #expect(tokens.tokens.keys.map(\.name) == ["ivo@example.com"])
    }

    // MARK: - api

    @Test("api -X POST -f and -F send the fields as one JSON object, -F's typed, with the session's token")
    func apiFields() async throws {
        try store(Fixtures.ana, access: "access-1")
        server.register("POST", "/api/items", .json(["id": 1], status: 201))
        var command = APICommand("/items")
        command.method = "POST"
        command.rawFields = ["name=7"]
        command.fields = ["count=7", "open=true"]
        let console = RecordingConsole()
        try await command.run(environment(console))
        #expect(requests == [#"POST /api/items Bearer access-1 {"count":7,"name":"7","open":true}"#])
        // Off a terminal, the body as the server sent it.
        #expect(console.output == #"{"id":1}"# + "\n")
    }

    @Test("api --dry-run prints the request as a curl line, and sends nothing")
    func apiDryRun() async throws {
        try store(Fixtures.ana, access: "access-1")
        var command = APICommand("/items")
        command.dryRun = true
        command.headers = ["X-Trace: 1"]
        let console = RecordingConsole()
        try await command.run(environment(console))
        #expect(requests.isEmpty)
        #expect(console.output.hasPrefix("curl \(Fixtures.server)/items "))
        #expect(console.output.contains("-H 'X-Trace: 1'"))
        // The token is fetched when the line runs, never printed.
        #expect(console.output.contains(#"-H 'Authorization: Bearer '"$(swaggerctl token -s \#(Fixtures.server))""#))
        #expect(!console.output.contains("access-1"))
    }

    @Test("api --paginate follows the Link header to the last page; --max-pages stops it early")
    func apiPaginate() async throws {
        try store(Fixtures.ana, access: "access-1")
        func page(_ number: Int, next: Int?) -> RecordedTransport.Outcome {
            .json(
                [.integer(Int64(number))],
                headers: next.map { [("Link", "<\(Fixtures.server)/items?page=\($0)>; rel=\"next\"")] } ?? [])
        }
        server.register("GET", "/api/items", page(1, next: 2), page(2, next: 3), page(3, next: nil))
        var command = APICommand("/items")
        command.paging = APICommand.Pages()
        command.jq = ".[]"
        let console = RecordingConsole()
        try await command.run(environment(console))
        #expect(console.output == "1\n2\n3\n")
        #expect(
            requests == [
                "GET /api/items Bearer access-1", "GET /api/items?page=2 Bearer access-1",
                "GET /api/items?page=3 Bearer access-1",
            ])

        server.register("GET", "/api/items", page(1, next: 2), page(2, next: 3), page(3, next: nil))
        command.paging = APICommand.Pages(limit: 2)
        let limited = RecordingConsole()
        try await command.run(environment(limited))
        #expect(limited.output == "1\n2\n")
        #expect(limited.notices.count == 1)
    }

    @Test("api -i prints the status line and headers before the body; --silent prints neither body nor error")
    func apiInclude() async throws {
        try store(Fixtures.ana, access: "access-1")
        server.register("GET", "/api/items", .json(["ok": true], headers: [("X-Request-Id", "r-1")]))
        var command = APICommand("/items")
        command.include = true
        let console = RecordingConsole()
        try await command.run(environment(console))
        #expect(console.output.hasPrefix("HTTP/1.1 200 OK\n"))
        #expect(console.output.contains("\nX-Request-Id: r-1\n"))
        #expect(console.output.hasSuffix("\n\n" + #"{"ok":true}"# + "\n"))

        command.include = false
        command.silent = true
        let silent = RecordingConsole()
        try await command.run(environment(silent))
        #expect(silent.output.isEmpty)
    }

    @Test("api exits by the answer's class: 1 for a 404, 5 for a 503, 4 for a 401 that a refresh does not cure")
    func apiStatus() async throws {
        try store(Fixtures.ana, access: "access-1")
        for (status, expected) in [(404, SwaggerError.Code.failure), (503, .server), (401, .authentication)] {
            server.register("GET", "/api/items", .json(["message": "no"], status: status))
            let error = await code { () async throws(SwaggerError) in
                try await APICommand("/items").run(environment(RecordingConsole()))
            }
            #expect(error?.code == expected, "\(status)")
        }
    }

    @Test("api --jq with a mistake in the program exits 64 before anything is sent")
    func apiBadProgram() async throws {
        try store(Fixtures.ana, access: "access-1")
        var command = APICommand("/items")
        command.jq = ".["
        let error = await code { () async throws(SwaggerError) in try await command.run(environment(RecordingConsole()))
        }
        #expect(error?.code == .usage)
        #expect(journal.lines.isEmpty)
    }

    // MARK: - login

    /// A login to the demo server's API, described as the `original` preset, so that nothing is looked for first.
    func login(_ change: (inout LoginCommand) -> Void = { _ in }) throws -> LoginCommand {
        var command = LoginCommand()
        command.server = .url(Fixtures.server)
        var flags = ServerFlags()
        try flags.set("preset", "original")
        command.description = GivenDescription(flags: flags)
        change(&command)
        return command
    }

    /// What `command` fails with, `input` piped to it, having sent and stored nothing: a refusal made first.
    func refusal(of command: LoginCommand, input: String) async -> SwaggerError? {
        let error = await code { () async throws(SwaggerError) in
            try await command.run(environment(RecordingConsole(input: input)))
        }
        #expect(journal.lines.isEmpty, "a refusal sends and stores nothing")
        return error
    }

    @Test("login -e --password-stdin posts the piped password, keeps the tokens, and prints the profile")
    func loginWithPipedPassword() async throws {
        let console = RecordingConsole(input: "pw\n")
        try await login {
            $0.account = AccountName("ana@example.com", isEmail: true)
            $0.passwordStdin = true
        }.run(environment(console))
        #expect(
            journal.lines == [
                SessionControllerTests.login, SessionControllerTests.profile("access-1"), "store access-1",
            ])
        #expect(console.notices.last == "Logged in to \(Fixtures.server) as ana@example.com.")
        #expect(console.output.hasPrefix("ID            7\n"))
        #expect(console.labels.last == "Logging in to \(Fixtures.server)")
    }

    @Test("login -q says nothing on success, and shows no progress; the session is kept all the same")
    func loginQuiet() async throws {
        let console = RecordingConsole(input: "pw")
        try await login {
            $0.account = AccountName("ana@example.com", isEmail: true)
            $0.passwordStdin = true
            $0.quiet = true
        }.run(environment(console))
        #expect(console.output.isEmpty)
        #expect(console.notices.isEmpty)
        #expect(console.labels.isEmpty)
        #expect(tokens.tokens[Fixtures.ana]?.accessToken == "access-1")
    }

    @Test("login on a terminal asks for the account and then the password, each by its prompt")
    func loginAsks() async throws {
        let console = RecordingConsole(answers: ["ana@example.com", "pw"])
        try await login().run(environment(console))
        #expect(journal.lines.first == SessionControllerTests.login)
        #expect(console.notices.contains { $0.hasPrefix("Password for ana@example.com on \(Fixtures.server)") })
    }

    @Test("login --password-stdin with nothing piped exits 64 before anything is sent")
    func loginEmptyInput() async throws {
        let command = try login {
            $0.account = AccountName("ana@example.com", isEmail: true)
            $0.passwordStdin = true
        }
        #expect(await refusal(of: command, input: "")?.code == .usage)
    }

    @Test("login off a terminal, with no -s and no server known, exits 64 and sends nothing")
    func loginWithoutServer() async throws {
        #expect(await refusal(of: try login { $0.server = nil }, input: "pw") == .loginWithoutServer)
    }

    @Test("login --with-token checks the piped token with a profile request, then keeps it as the session")
    func loginWithToken() async throws {
        // The profile says whose the token is.
        server.register("GET", "/api/User/User", .json(["id": 7, "email": "ana@example.com"]))
        let console = RecordingConsole(input: "given-token\n")
        try await login { $0.withToken = true }.run(environment(console))
        #expect(journal.lines == [SessionControllerTests.profile("given-token"), "store given-token"])
        #expect(console.notices.last == "Logged in to \(Fixtures.server) as ana@example.com.")
        #expect(console.labels.last == "Checking the token with \(Fixtures.server)")
    }

    @Test("login --with-token refuses a token with a space before anything is sent")
    func loginWithBadToken() async throws {
        #expect(await refusal(of: try login { $0.withToken = true }, input: "two words")?.code == .usage)
    }

    @Test("login --name gives the server a name that -s takes from then on")
    func loginNamed() async throws {
        let console = RecordingConsole(input: "pw")
        let name = NameRequest(try ServerName("demo"), rename: false)
        try await login {
            $0.account = AccountName("ana@example.com", isEmail: true)
            $0.passwordStdin = true
            $0.name = name
        }.run(environment(console))
        #expect(console.notices.last?.hasPrefix("Logged in to \(Fixtures.server) (now named demo)") == true)
        let demo = try ServerReference("demo")
        try await given(DetailsCommand()) { $0.session.server = demo }.run(environment(RecordingConsole()))
        #expect(journal.lines.last == SessionControllerTests.profile("access-1"))
    }

    // MARK: - server

    /// The description flags that a `server set` or a login gives.
    func flags(_ pairs: [(String, String)]) throws -> ServerFlags {
        var flags = ServerFlags()
        for (name, value) in pairs { try flags.set(name, value) }
        return flags
    }

    @Test("server list with no server known says so on stderr, and prints nothing a script would read")
    func serverListEmpty() async throws {
        let console = RecordingConsole()
        try await ServerListCommand().run(environment(console))
        #expect(console.output.isEmpty)
        #expect(console.notices == ["swaggerctl knows no server yet. Log in to one, or describe it with `server set`."])
        let json = RecordingConsole()
        try await ServerListCommand(format: .json).run(environment(json))
        #expect(json.output == "[]\n")
    }

    @Test("server set with flags keeps them without reading what the server publishes; server show shows them")
    func serverSet() async throws {
        var command = ServerSetCommand(
            .url(Fixtures.server),
            description: GivenDescription(flags: try flags([("preset", "original"), ("profile-path", "/me")])))
        command.name = NameRequest(try ServerName("demo"), rename: false)
        let console = RecordingConsole()
        try await command.run(environment(console))
        #expect(journal.lines.isEmpty)
        #expect(console.notices.last == "Saved how to talk to \(Fixtures.server) (now named demo).")
        let shown = RecordingConsole()
        try await ServerShowCommand(server: try ServerReference("demo"), format: .json).run(environment(shown))
        let shownJSON = try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any]
        #expect(shownJSON?["name"] as? String == "demo")
        #expect(shownJSON?["preset"] as? String == "original")
        let profile = (shownJSON?["profile"] as? [String: Any])?["request"] as? [String: Any]
        #expect(profile?["url"] as? String == "/me")
    }

    @Test("server forget refuses a server with sessions, naming the logout; without them it forgets the server")
    func serverForget() async throws {
        try store(Fixtures.ana, access: "access-1")
        let refused = await code { () async throws(SwaggerError) in
            try await ServerForgetCommand(.url(Fixtures.server)).run(environment(RecordingConsole()))
        }
        #expect(refused?.code == .failure)
        #expect(refused?.message.contains("swaggerctl logout -s \(Fixtures.server) -e ana@example.com") == true)
        try await given(LogoutCommand()) { $0.local = true }.run(environment(RecordingConsole()))
        let console = RecordingConsole()
        try await ServerForgetCommand(.url(Fixtures.server)).run(environment(console))
        #expect(console.notices == ["Forgot \(Fixtures.server)."])
        let list = RecordingConsole()
        try await ServerListCommand(format: .json).run(environment(list))
        #expect(list.output == "[]\n")
    }

    @Test("server import reads what server export wrote, for the server the file names")
    func serverImport() async throws {
        try await ServerSetCommand(
            .url(Fixtures.server), description: GivenDescription(flags: try flags([("preset", "original")]))
        ).run(environment(RecordingConsole()))
        let exported = RecordingConsole()
        try await ServerShowCommand(format: .json).run(environment(exported))
        let file = folder.appending("api.json")
        try Data(exported.output.utf8).write(to: file)
        try await ServerForgetCommand(.url(Fixtures.server)).run(environment(RecordingConsole()))
        let console = RecordingConsole()
        try await ServerImportCommand(file: file.path).run(environment(console))
        #expect(console.notices.last == "Saved how to talk to \(Fixtures.server), from \(file.path).")
        let again = RecordingConsole()
        try await ServerShowCommand(format: .json).run(environment(again))
        #expect(again.output == exported.output)
    }

    // MARK: - git-credential

    @Test("git-credential get answers for the session's origin with the account and a fresh token, and others not")
    func gitCredential() async throws {
        try store(Fixtures.ana, access: "access-1")
        let console = RecordingConsole()
        try await GitCredentialCommand.get(
            request: "protocol=http\nhost=127.0.0.1:8080\n\n", connection: ConnectionChoice()
        ).run(environment(console))
        #expect(console.output.contains("username=ana@example.com\npassword=access-1\n"))

        let elsewhere = RecordingConsole()
        try await GitCredentialCommand.get(
            request: "protocol=https\nhost=git.example.com\n\n", connection: ConnectionChoice()
        ).run(environment(elsewhere))
        #expect(elsewhere.output.isEmpty)
    }

    @Test("git-credential --setup prints the two config lines for the server's origin, the program quoted")
    func gitCredentialSetup() async throws {
        try store(Fixtures.ana, access: "access-1")
        let console = RecordingConsole()
        try await GitCredentialCommand.setup(
            .url(Fixtures.server), program: "/opt/my tools/swaggerctl", connection: ConnectionChoice()
        ).run(environment(console))
        #expect(
            console.output
                == "git config --global credential.http://127.0.0.1:8080.helper ''\n"
                + "git config --global --add credential.http://127.0.0.1:8080.helper "
                + "'!'\\''/opt/my tools/swaggerctl'\\'' git-credential'\n")
    }
}
