import Foundation
import SessionMachine
import SessionStorage
import SwaggerHTTP
import SwaggerModel
import Synchronization
import TestSupport
import Testing

@testable import SwaggerClient

/// The controller carrying out the coordinators' actions, behind its seams: a recorded transport under the real
/// service, tokens in memory, a clock that stands still, and the session list and saved profiles in a folder of their
/// own.
@Suite("SessionController: each flow's I/O, in order, without a process or a network", .timeLimit(.minutes(5)))
struct SessionControllerTests {
    /// 2033-05-18T03:33:20Z.
    static let start = Date(timeIntervalSince1970: 2_000_000_000)
    static let profile = Profile(fields: ["id": .integer(7)])

    /// The demo server's requests, as the recorded transport writes them in the journal.
    static let login =
        #"POST /api/User/AdminLogin {"appId":"swaggerctl-demo","email":"ana@example.com","password":"pw"}"#
    static func refresh(_ token: String) -> String {
        #"POST /api/User/RefreshToken {"appId":"swaggerctl-demo","refreshToken":"\#(token)"}"#
    }
    static func profile(_ token: String) -> String { "GET /api/User/User Bearer \(token)" }
    static func revoke(_ access: String, _ refresh: String) -> String {
        #"POST /api/User/Logout Bearer \#(access) {"refreshToken":"\#(refresh)"}"#
    }
    /// An OAuth 2 device code's poll of the token endpoint.
    static let poll =
        "POST /api/token grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&device_code=device-1"

    let folder: TemporaryDirectory
    let journal = Journal()
    let server: RecordedTransport
    let tokens: MemoryTokenStore
    let clock = StoppedClock(start)
    let warnings = Journal()

    init() throws {
        folder = try TemporaryDirectory()
        server = RecordedTransport.demo(journal: journal)
        tokens = MemoryTokenStore(journal: journal)
    }

    func controller(environment: [String: String] = [:]) throws -> SessionController {
        let configuration = try Configuration(
            environment: [
                "HOME": folder.url.path, "SWAGGERCTL_CONFIG_DIR": folder.appending("config").path,
                "SWAGGERCTL_CACHE_DIR": folder.appending("cache").path,
            ].merging(environment) { $1 })
        let clock = clock
        let warnings = warnings
        return SessionController(
            configuration: configuration, tokens: tokens, service: APIService(timeout: .seconds(5), transport: server),
            now: { clock.now }, warn: { warnings.record($0) },
            sleep: { [journal] wait in journal.record("sleep \(wait)") })
    }

    /// A session stored for ana on the demo server: its record, its tokens and its saved profile.
    @discardableResult
    func storedSession(
        expiresIn lifetime: TimeInterval = 900,
        credentials: Credentials = Credentials(accessToken: "access-1", refreshToken: "refresh-1"),
        refreshable: Bool? = true
    ) throws -> SessionRecord {
        var record = Fixtures.record(
            Fixtures.ana, savedAt: Self.start, expiresAt: Self.start.addingTimeInterval(lifetime))
        record.refreshable = refreshable
        let controller = try controller()
        try controller.sessions.save(record)
        // The registry describes its server, as a login leaves it.
        try controller.servers.save(
            ServerEntry(server: Fixtures.server, description: Fixtures.original(), updatedAt: Self.start))
        try controller.profiles?.save(Self.profile, for: Fixtures.ana, receivedAt: Self.start)
        tokens.put(credentials, for: Fixtures.ana)
        return record
    }

    func selection(_ controller: SessionController) throws -> SessionSelection {
        try controller.select(server: .url(Fixtures.server), name: nil)
    }

    static func code(_ body: () async throws -> Void) async -> SwaggerError.Code? {
        do {
            try await body()
            return nil
        } catch let error as SwaggerError {
            return error.code
        } catch {
            return nil
        }
    }

    /// An OAuth 2 server under the test's server, with a device authorization endpoint or without.
    static func oauth2(device: Bool) -> ServerDescription {
        var json: JSONValue = ["preset": "oauth2", "login": ["url": "/token"], "profile": ["url": "/userinfo"]]
        if device { json = json.merging(["deviceAuthorization": "/device"]) }
        return Fixtures.described(json)
    }

    // MARK: - Login

    @Test("login: the credentials, the profile with the new token, then the tokens, then the record and profile")
    func login() async throws {
        let controller = try controller()
        let outcome = try await controller.login(
            email: "ana@example.com", password: "pw", on: selection(controller), appIDFlag: nil,
            serverDescription: Fixtures.original())
        #expect(outcome.profile == Self.profile)
        #expect(journal.lines == [Self.login, Self.profile("access-1"), "store access-1"])
        let record = try #require(try controller.sessions.record(server: Fixtures.server))
        #expect(record.savedAt == Self.start)
        #expect(try controller.profiles?.profile(for: Fixtures.ana)?.profile == Self.profile)
    }

    @Test("device login: the code is shown, polls go on while pending, and the tokens are stored as a login's")
    func deviceLogin() async throws {
        server.register(
            "POST", "/api/token", RecordedTransport.oauth2Error("authorization_pending"),
            RecordedTransport.oauth2Error("slow_down"),
            .json(["access_token": "access-1", "refresh_token": "refresh-1", "token_type": "Bearer"]))
        let controller = try controller()
        let shown = Mutex<[String]>([])
        let description = Self.oauth2(device: true)
        let outcome = try await controller.login(
            email: "ana@example.com", method: .device(show: { code in shown.withLock { $0.append(code.userCode) } }),
            on: selection(controller), appIDFlag: nil, serverDescription: description)
        #expect(outcome.profile == Self.profile)
        #expect(shown.withLock { $0 } == ["WDJB-MJHT"])
        #expect(
            journal.lines == [
                "POST /api/device", "sleep 1.0 seconds", Self.poll, "sleep 1.0 seconds",
                Self.poll, "sleep 6.0 seconds", Self.poll, "GET /api/userinfo Bearer access-1", "store access-1",
            ])
    }

    @Test("device login: a server that names no device authorization endpoint is refused before anything is sent")
    func deviceLoginUnavailable() async throws {
        let controller = try controller()
        let description = Self.oauth2(device: false)
        let code = await Self.code {
            _ = try await controller.login(
                email: "ana@example.com", method: .device(show: { _ in }), on: selection(controller), appIDFlag: nil,
                serverDescription: description)
        }
        #expect(code == .usage)
        #expect(journal.lines.isEmpty)
    }

    @Test("device login: a refusal in the browser exits 4 and stores nothing")
    func deviceLoginDenied() async throws {
        server.register(
            "POST", "/api/token", RecordedTransport.oauth2Error("authorization_pending"),
            RecordedTransport.oauth2Error("access_denied"))
        let controller = try controller()
        let description = Self.oauth2(device: true)
        let code = await Self.code {
            _ = try await controller.login(
                email: "ana@example.com", method: .device(show: { _ in }), on: selection(controller), appIDFlag: nil,
                serverDescription: description)
        }
        #expect(code == .authentication)
        #expect(
            journal.lines == [
                "POST /api/device", "sleep 1.0 seconds", Self.poll, "sleep 1.0 seconds", Self.poll,
            ])
        #expect(try controller.sessions.records().isEmpty)
    }

    @Test(
        "login: a profile request that fails keeps the session and says both; an answer that is no profile keeps nothing"
    )
    func loginWithoutProfile() async throws {
        server.register("GET", "/api/User/User", .status(503))
        let half = try controller()
        let code = await Self.code {
            _ = try await half.login(
                email: "ana@example.com", password: "pw", on: selection(half), appIDFlag: nil,
                serverDescription: Fixtures.original())
        }
        #expect(code == .server)
        #expect(try half.sessions.records().map(\.account) == [Fixtures.ana])

        server.register("GET", "/api/User/User", .json([]))
        let other = Account(server: "http://127.0.0.1:9090/api", name: "ana@example.com")
        let wrong = try controller()
        let refused = await Self.code {
            _ = try await wrong.login(
                email: other.name, password: "pw", on: wrong.select(server: .url(other.server), name: nil),
                appIDFlag: nil, serverDescription: Fixtures.original(other.server))
        }
        #expect(refused == .server)
        #expect(try wrong.sessions.record(server: other.server) == nil)
        #expect(tokens.tokens[other] == nil)
    }

    @Test("login: tokens that cannot be stored leave nothing, and the store's own error is shown")
    func loginNotStored() async throws {
        let controller = try controller()
        tokens.fail(with: SwaggerError(.failure, "The keyring is locked."))
        await #expect(throws: SwaggerError(.failure, "The keyring is locked.")) {
            _ = try await controller.login(
                email: "ana@example.com", password: "pw", on: selection(controller), appIDFlag: nil,
                serverDescription: Fixtures.original())
        }
        #expect(try controller.sessions.records().isEmpty)
    }

    @Test("login: the password is refused before anything is sent over plain HTTP to another machine")
    func loginPlainHTTP() async throws {
        let controller = try controller()
        let remote = Fixtures.serverURL("http://api.example.com/v1")
        let code = await Self.code {
            _ = try await controller.login(
                email: "ana@example.com", password: "pw", on: controller.select(server: .url(remote), name: nil),
                appIDFlag: nil, serverDescription: Fixtures.original(remote))
        }
        #expect(code == .usage)
        #expect(journal.lines.isEmpty)
    }

    // MARK: - Using the session

    @Test("details with a fresh token: one read of the access token, one profile request, the profile saved")
    func freshDetails() async throws {
        try storedSession()
        let controller = try controller()
        clock.advance(by: 60)
        let outcome = try await controller.profile(selection(controller), allowSaved: true)
        #expect(outcome.origin == .server(renewed: false))
        #expect(journal.lines == ["read access", Self.profile("access-1")])
        #expect(try controller.profiles?.profile(for: Fixtures.ana)?.receivedAt == clock.now)
    }

    @Test("details past the expiry: refresh under the lock, store the rotation, then use the new token")
    func refreshUnderLock() async throws {
        try storedSession()
        let controller = try controller()
        clock.advance(by: 1000)
        let outcome = try await controller.profile(selection(controller), allowSaved: true)
        #expect(outcome.origin == .server(renewed: true))
        // The session is written back as it is first: the new tokens must have somewhere to go.
        #expect(
            journal.lines == [
                "read", "check access-1", Self.refresh("refresh-1"), "replace access-2", Self.profile("access-2"),
            ])
        #expect(tokens.tokens[Fixtures.ana] == Credentials(accessToken: "access-2", refreshToken: "refresh-2"))
        let record = try #require(try controller.sessions.record(server: Fixtures.server))
        #expect(record.expiresAt == nil, "an opaque token's expiry is unknown unless the server gives it")
    }

    @Test("a refresh that another process made while this one waited is used, not made again")
    func anotherProcessRefreshed() async throws {
        try storedSession()
        let controller = try controller()
        clock.advance(by: 1000)
        // What the other process left: new tokens, and a record whose token lives on.
        var renewed = try #require(try controller.sessions.record(server: Fixtures.server))
        renewed.expiresAt = clock.now.addingTimeInterval(900)
        renewed.issuedAt = clock.now
        tokens.put(Credentials(accessToken: "theirs", refreshToken: "their-refresh"), for: Fixtures.ana)
        try controller.sessions.save(renewed)
        var stale = renewed
        stale.serverDescription = Fixtures.original()
        stale.expiresAt = Self.start.addingTimeInterval(900)
        stale.issuedAt = nil
        // The selection was read before the other process's record was saved.
        let selection = SessionSelection(server: Fixtures.server, record: stale)
        _ = try await controller.profile(selection, allowSaved: true)
        #expect(journal.lines == ["read", Self.profile("theirs")])
    }

    @Test("a refresh that could not reach the server is seen by those that waited: they fail alike, asking nothing")
    func refreshFailureShared() async throws {
        try storedSession()
        server.register("POST", "/api/User/RefreshToken", .failure(.timedOut))
        let controller = try controller()
        clock.advance(by: 1000)
        let first = await #expect(throws: SwaggerError.self) {
            _ = try await controller.accessToken(selection(controller))
        }
        #expect(first?.code == .network)
        #expect(journal.lines == ["read", "check access-1", Self.refresh("refresh-1")])
        // A command that was waiting for the lock when the refresh failed (the clock stands still): the same line.
        let waited = await #expect(throws: SwaggerError.self) {
            _ = try await controller.accessToken(selection(controller))
        }
        #expect(waited == first)
        #expect(journal.lines == ["read", "check access-1", Self.refresh("refresh-1"), "read"])
        // One that began waiting after it tries again.
        clock.advance(by: 1)
        await #expect(throws: SwaggerError.self) { _ = try await controller.accessToken(selection(controller)) }
        #expect(journal.lines.filter { $0.hasPrefix("POST /api/User/RefreshToken") }.count == 2)
    }

    @Test("a refresh failure's note stands only for the same session, and only for those waiting before it")
    func refreshNote() throws {
        let record = Fixtures.record(Fixtures.ana, savedAt: Self.start, expiresAt: Self.start.addingTimeInterval(900))
        let note = try #require(RefreshNote(failedAt: Self.start.addingTimeInterval(10), renewing: record, .timedOut))
        #expect(RefreshNote(failedAt: Self.start, renewing: record, .refreshRejected) == nil)
        #expect(note.stands(for: record, waitingSince: Self.start.addingTimeInterval(5)))
        #expect(note.stands(for: record, waitingSince: Self.start.addingTimeInterval(10)))
        #expect(!note.stands(for: record, waitingSince: Self.start.addingTimeInterval(11)))
        var renewed = record
        renewed.expiresAt = Self.start.addingTimeInterval(1800)
        #expect(!note.stands(for: renewed, waitingSince: Self.start))
        #expect(!note.stands(for: nil, waitingSince: Self.start))
    }

    @Test("a second 401 ends the session: its tokens, record and saved profile are removed")
    func sessionEnded() async throws {
        try storedSession()
        server.register("GET", "/api/User/User", .status(401))
        let controller = try controller()
        let code = await Self.code { _ = try await controller.profile(selection(controller), allowSaved: true) }
        #expect(code == .authentication)
        #expect(
            journal.lines == [
                "read access", Self.profile("access-1"), "read", "check access-1", Self.refresh("refresh-1"),
                "replace access-2",
                Self.profile("access-2"), "remove",
            ])
        #expect(try controller.sessions.records().isEmpty)
        #expect(try controller.profiles?.profile(for: Fixtures.ana) == nil)
    }

    @Test("an unreachable server shows the saved profile, and --no-cache refuses it")
    func offline() async throws {
        try storedSession()
        server.register("GET", "/api/User/User", .failure(.unreachable("connection refused")))
        let controller = try controller()
        let outcome = try await controller.profile(selection(controller), allowSaved: true)
        #expect(outcome.origin == .saved(receivedAt: Self.start, because: .unreachable("connection refused")))
        let code = await Self.code { _ = try await controller.profile(selection(controller), allowSaved: false) }
        #expect(code == .network)
    }

    @Test("renewed tokens that cannot be stored are reported, and the old ones are not used")
    func rotationNotStored() async throws {
        try storedSession()
        let controller = try controller()
        clock.advance(by: 1000)
        tokens.fail(with: SwaggerError(.failure, "The disk is full."), after: 1)
        await #expect(throws: SwaggerError.self) { _ = try await controller.accessToken(selection(controller)) }
        #expect(journal.lines == ["read", "check access-1", Self.refresh("refresh-1"), "replace access-2"])
    }

    @Test("a session that cannot be written is not renewed: the refresh token is not spent, and the session stays")
    func renewalNotWritable() async throws {
        try storedSession()
        let controller = try controller()
        clock.advance(by: 1000)
        tokens.fail(with: SwaggerError(.failure, "The disk is full."))
        var thrown: SwaggerError?
        do {
            _ = try await controller.accessToken(selection(controller))
        } catch let error as SwaggerError {
            thrown = error
        }
        #expect(journal.lines == ["read", "check access-1"])
        #expect(thrown?.message == "The session was not renewed, and is as it was: The disk is full.")
        #expect(tokens.tokens[Fixtures.ana] == Credentials(accessToken: "access-1", refreshToken: "refresh-1"))
        #expect(try controller.sessions.records().count == 1)
    }

    @Test("refresh: the renewed record's expiry; a session without a refresh token is not renewed, nor ended")
    func refresh() async throws {
        server.register("POST", "/api/User/RefreshToken", .json(["accessToken": "opaque-2", "expiresIn": 3600]))
        try storedSession()
        let controller = try controller()
        let renewed = try await controller.refresh(selection(controller))
        guard case .renewed(let record) = renewed else {
            Issue.record("\(renewed)")
            return
        }
        #expect(record.expiresAt == Self.start.addingTimeInterval(3600))

        try storedSession(credentials: Credentials(accessToken: "access-1"), refreshable: false)
        let bare = try await controller.refresh(selection(controller))
        guard case .notRenewable = bare else {
            Issue.record("\(bare)")
            return
        }
        clock.advance(by: 1000)
        let code = await Self.code { _ = try await controller.refresh(selection(controller)) }
        #expect(code == .authentication)
        #expect(try controller.sessions.records().count == 1, "a session that cannot be renewed is not removed")
    }

    @Test("api: a 401 on a session that predates refreshable, with no refresh token, is the answer; it is kept")
    func requestKeepsOldSession() async throws {
        try storedSession(credentials: Credentials(accessToken: "access-1"), refreshable: nil)
        server.register("GET", "/api/things", .status(401))
        let controller = try controller()
        let request = try APIRequest("/things", on: Fixtures.server)
        var statuses: [Int] = []
        let outcome = try await controller.send(request, with: selection(controller)) { statuses.append($0.status) }
        #expect(outcome.status == 401)
        #expect(statuses == [401])
        #expect(
            journal.lines == ["read access", "GET /api/things Bearer access-1", "read"])
        #expect(try controller.sessions.records().count == 1)
    }

    @Test("api: a request built off the session's origin is refused before the session is read; nothing is sent")
    func requestOffOrigin() async throws {
        try storedSession()
        let controller = try controller()
        let request = try APIRequest(
            method: "GET", url: #require(URL(string: "http://127.0.0.1:8080@127.0.0.2:8080/api/things")), headers: [],
            body: nil)
        let error = await #expect(throws: SwaggerError.self) {
            _ = try await controller.send(request, with: selection(controller)) { _ in }
        }
        #expect(error?.code == .usage)
        #expect(journal.lines.isEmpty)
    }

    @Test("api -L: a redirect elsewhere goes without the token, and that host's 401 renews nothing")
    func foreignRefusalRenewsNothing() async throws {
        try storedSession()
        server.register("GET", "/api/things", .status(302, headers: [("Location", "http://127.0.0.2:8080/x")]))
        server.register("GET", "/x", .status(401))
        let controller = try controller()
        let request = try APIRequest("/things", on: Fixtures.server)
        let outcome = try await controller.send(request, with: selection(controller), crossOrigin: true) { _ in }
        #expect(outcome.status == 401)
        #expect(
            journal.lines == [
                "read access", "GET /api/things Bearer access-1",
                "GET /x",
            ])
        #expect(tokens.tokens[Fixtures.ana] == Credentials(accessToken: "access-1", refreshToken: "refresh-1"))
    }

    // MARK: - Logout

    @Test("logout: under the lock, read and revoke the tokens, see if the access token still works, then remove all")
    func logout() async throws {
        try storedSession()
        server.register("GET", "/api/User/User", .status(401))
        let controller = try controller()
        let outcome = try await controller.logout(selection(controller), revoke: true)
        #expect(outcome == .loggedOut(Fixtures.ana))
        #expect(journal.lines == ["read", Self.revoke("access-1", "refresh-1"), Self.profile("access-1"), "remove"])
        #expect(warnings.lines.isEmpty, "the server ended the access token with the refresh token")
        #expect(try controller.sessions.records().isEmpty)
        #expect(try controller.profiles?.profile(for: Fixtures.ana) == nil)
        #expect(tokens.tokens.isEmpty)
    }

    @Test("logout with the server down removes the session here all the same, and fails: the server did not end it")
    func logoutServerDown() async throws {
        try storedSession()
        server.register("POST", "/api/User/Logout", .failure(.unreachable("connection refused")))
        let controller = try controller()
        let error = await #expect(throws: SwaggerError.self) {
            _ = try await controller.logout(selection(controller), revoke: true)
        }
        #expect(error?.code == .failure)
        #expect(error?.message.hasPrefix("Logged out here, but the server was not told: ") == true)
        #expect(try controller.sessions.records().isEmpty)
        #expect(warnings.lines.isEmpty)
    }

    @Test("logout that cannot remove the tokens leaves the session whole, and says the server was told")
    func logoutNotRemoved() async throws {
        try storedSession()
        let controller = try controller()
        tokens.fail(with: SwaggerError(.failure, "The keyring is locked."))
        let error = await #expect(throws: SwaggerError.self) {
            _ = try await controller.logout(selection(controller), revoke: true)
        }
        #expect(error?.message.hasPrefix("The server ended the session, but it could not be removed here: ") == true)
        #expect(try controller.sessions.records().count == 1)
    }

    @Test("logout --all logs out each session in turn, revoking each before removing it")
    func logoutAll() async throws {
        try storedSession()
        let controller = try controller()
        let ivo = Fixtures.record(Fixtures.ivo, savedAt: Self.start.addingTimeInterval(-60))
        try controller.sessions.save(ivo)
        tokens.put(Credentials(accessToken: "ivo-access", refreshToken: "ivo-refresh"), for: Fixtures.ivo)
        let (removed, failures) = try await controller.logoutAll(revoke: true)
        #expect(removed == [Fixtures.ana, Fixtures.ivo] && failures.isEmpty)
        #expect(
            journal.lines == [
                "read", Self.revoke("access-1", "refresh-1"), Self.profile("access-1"), "remove", "read",
                Self.revoke("ivo-access", "ivo-refresh"),
                Self.profile("ivo-access"), "remove",
            ])
        #expect(try controller.sessions.records().isEmpty)
        // The profile answered with the access tokens the revocations did not name, so the logouts said they work on.
        #expect(warnings.lines.count == 2 && warnings.lines.allSatisfy { $0.contains("ended the refresh token;") })
    }

    @Test("a selection never shows SWAGGERCTL_TOKEN")
    func selectionRedacted() throws {
        let selection = SessionSelection(server: Fixtures.server, environmentToken: "SECRET")
        #expect(!String(describing: selection).contains("SECRET"))
        #expect(!String(reflecting: selection).contains("SECRET"))
    }
}

extension SessionController {
    /// A login with `email`, described so, for the tests that are not about how a server is described.
    fileprivate func login(
        email: String, password: String, on selection: SessionSelection, appIDFlag: String?,
        serverDescription: ServerDescription
    ) async throws(SwaggerError) -> ProfileOutcome {
        try await login(
            email: email, method: .password(password), on: selection, appIDFlag: appIDFlag,
            serverDescription: serverDescription)
    }

    fileprivate func login(
        email: String, method: LoginMethod, on selection: SessionSelection, appIDFlag: String?,
        serverDescription: ServerDescription
    ) async throws(SwaggerError) -> ProfileOutcome {
        try await login(
            as: AccountName(email, isEmail: true), method: method, on: selection, appIDFlag: appIDFlag,
            choice: ServerChoice(server: selection.server, serverDescription: serverDescription)
        ).profile
    }
}
