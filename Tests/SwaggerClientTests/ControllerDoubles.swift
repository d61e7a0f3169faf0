import Foundation
import SessionMachine
import SessionStorage
import SwaggerClient
import SwaggerHTTP
import SwaggerModel
import Synchronization
import TestSupport

/// What the stand-ins saw, in the order they saw it: how a test checks that one thing happened before another.
final class Journal: Sendable {
    private let entries = Mutex<[String]>([])

    func record(_ entry: String) {
        entries.withLock { $0.append(entry) }
    }

    var lines: [String] { entries.withLock { $0 } }
}

/// A server that answers as the test scripts it, and writes each request in the journal.
final class ScriptedService: SessionService {
    struct Script: Sendable {
        var login: Result<TokenGrant, APIServiceError> = .success(
            TokenGrant(accessToken: "access-1", refreshToken: "refresh-1"))
        /// Answered in turn; the last repeats.
        var refreshes: [Result<TokenGrant, APIServiceError>] = [
            .success(TokenGrant(accessToken: "access-2", refreshToken: "refresh-2"))
        ]
        var profiles: [Result<Profile, APIServiceError>] = [.success(Profile(fields: ["id": .integer(7)]))]
        var revocation: Result<Void, APIServiceError> = .success(())
        var responses: [Int] = [200]
        /// The `Location` of the response of each index in ``responses`` that has one.
        var locations: [Int: String] = [:]
        var device = DeviceAuthorization(
            deviceCode: "device-1", userCode: "WDJB-MJHT", verificationURI: URL(filePath: "/device"),
            interval: .milliseconds(1), expiresIn: .seconds(600))
        /// Answered in turn; the last repeats.
        var polls: [Result<DevicePoll, APIServiceError>] = [
            .success(.granted(TokenGrant(accessToken: "access-1", refreshToken: "refresh-1")))
        ]
    }

    private let journal: Journal
    private let script: Mutex<(script: Script, refreshes: Int, profiles: Int, responses: Int, polls: Int)>

    init(_ script: Script = Script(), journal: Journal) {
        self.journal = journal
        self.script = Mutex((script, 0, 0, 0, 0))
    }

    func login(_ attempt: LoginAttempt, password: String, client: ClientProof) async throws(APIServiceError)
        -> TokenGrant
    {
        journal.record("login \(attempt.accountName.value) app \(attempt.appID)")
        return try script.withLock { $0.script.login }.get()
    }

    func clientCredentials(_ attempt: LoginAttempt, client: ClientProof) async throws(APIServiceError) -> TokenGrant {
        journal.record("client credentials \(attempt.accountName.value)")
        return try script.withLock { $0.script.login }.get()
    }

    func refresh(_ request: RefreshRequest) async throws(APIServiceError) -> TokenGrant {
        switch request.renewal {
        case .refreshToken(let token): journal.record("refresh \(token)")
        case .clientCredentials: journal.record("client credentials again")
        }
        return try script.withLock { state in
            defer { state.refreshes += 1 }
            return state.script.refreshes[min(state.refreshes, state.script.refreshes.count - 1)]
        }.get()
    }

    func revoke(_ revocation: Revocation) async throws(APIServiceError) {
        journal.record("revoke \(revocation.credentials.refreshToken ?? "-")")
        try script.withLock { $0.script.revocation }.get()
    }

    func profile(_ request: ProfileRequest) async throws(APIServiceError) -> Profile {
        journal.record("profile \(request.accessToken)")
        return try script.withLock { state in
            defer { state.profiles += 1 }
            return state.script.profiles[min(state.profiles, state.script.profiles.count - 1)]
        }.get()
    }

    func send(_ request: APIRequest, to url: URL, accessToken: String?, as use: TokenUse) async throws(APIServiceError)
        -> APIResponse
    {
        journal.record("send \(accessToken.map(use.value) ?? "without the token") to \(url.absoluteString)")
        let (status, location) = script.withLock { state in
            defer { state.responses += 1 }
            let index = min(state.responses, state.script.responses.count - 1)
            return (state.script.responses[index], state.script.locations[state.responses])
        }
        return APIResponse(
            url: url, status: status, reason: "",
            headers: location.map { [HeaderField(name: "Location", value: $0)] } ?? [], body: Data("{}".utf8))
    }

    func document(at url: URL) async throws(APIServiceError) -> FetchedDocument? {
        journal.record("document \(url.absoluteString)")
        return nil
    }

    func probe(_ url: URL) async throws(APIServiceError) -> ProbeAnswer {
        journal.record("probe \(url.absoluteString)")
        return ProbeAnswer(status: 404)
    }

    func ask(_ url: URL) async throws(APIServiceError) -> APIResponse {
        journal.record("ask \(url.absoluteString)")
        return APIResponse(url: url, status: 404, reason: "Not Found", headers: [], body: Data())
    }

    func exchangeCode(
        _ description: ServerDescription, code: String, verifier: String, redirectURI: URL, clientSecret: String?,
        server: ServerURL
    ) async throws(APIServiceError) -> TokenGrant {
        journal.record("exchange \(code)")
        return try script.withLock { $0.script.login }.get()
    }

    func deviceAuthorization(_ description: ServerDescription, clientSecret: String?, server: ServerURL)
        async throws(APIServiceError) -> DeviceAuthorization
    {
        journal.record("device authorization")
        return script.withLock { $0.script.device }
    }

    func pollDeviceToken(_ description: ServerDescription, deviceCode: String, clientSecret: String?, server: ServerURL)
        async throws(APIServiceError) -> DevicePoll
    {
        journal.record("poll \(deviceCode)")
        return try script.withLock { state in
            defer { state.polls += 1 }
            return state.script.polls[min(state.polls, state.script.polls.count - 1)]
        }.get()
    }

    func trusting(_ caCertificate: String) -> Self { self }

    func proving(with key: ProofKey) -> Self { self }

    func presenting(_ key: ClientKey) -> Self { self }
}

/// Tokens kept in memory, as one backend, and written in the journal; `failure` makes every change fail.
final class MemoryTokenStore: TokenStoring {
    private let journal: Journal
    private let state = Mutex<(tokens: [Account: Credentials], failure: SwaggerError?, sparedChanges: Int)>(
        ([:], nil, 0))

    init(journal: Journal) {
        self.journal = journal
    }

    var tokens: [Account: Credentials] { state.withLock { $0.tokens } }

    /// Makes every later store, replace and remove fail with `error`, once `after` more of them have worked.
    func fail(with error: SwaggerError?, after: Int = 0) {
        state.withLock {
            $0.failure = error
            $0.sparedChanges = after
        }
    }

    func put(_ credentials: Credentials, for account: Account) {
        state.withLock { $0.tokens[account] = credentials }
    }

    func store(_ credentials: Credentials, for account: Account) async throws(SwaggerError) -> BackendKind {
        journal.record("store \(credentials.accessToken ?? "-")")
        try change { $0[account] = credentials }
        return .file
    }

    func credentials(for record: SessionRecord) async throws(SwaggerError) -> Credentials? {
        journal.record("read")
        return state.withLock { $0.tokens[record.account] }
    }

    func accessToken(for record: SessionRecord) async throws(SwaggerError) -> String? {
        journal.record("read access")
        return state.withLock { $0.tokens[record.account]?.accessToken }
    }

    func replace(_ session: Session) async throws(SwaggerError) {
        journal.record("replace \(session.credentials.accessToken ?? "-")")
        try change { $0[session.account] = session.credentials }
    }

    /// Fails as a change would, and counts as one among those ``fail(with:after:)`` spares, but changes nothing.
    func checkReplaceable(_ session: Session) async throws(SwaggerError) {
        journal.record("check \(session.credentials.accessToken ?? "-")")
        try change { _ in }
    }

    func remove(_ account: Account, recordedIn recorded: BackendKind?) async throws(SwaggerError) -> Bool {
        journal.record("remove")
        var removed = false
        try change { removed = $0.removeValue(forKey: account) != nil }
        return removed
    }

    func location(of kind: BackendKind, for account: Account) -> String { "memory" }

    private func change(_ body: (inout [Account: Credentials]) -> Void) throws(SwaggerError) {
        let failure: SwaggerError? = state.withLock { state in
            if let failure = state.failure, state.sparedChanges == 0 { return failure }
            state.sparedChanges = max(0, state.sparedChanges - 1)
            body(&state.tokens)
            return nil
        }
        if let failure { throw failure }
    }
}

/// A clock that stands still until the test moves it.
final class StoppedClock: Sendable {
    private let time: Mutex<Date>

    init(_ start: Date) {
        time = Mutex(start)
    }

    var now: Date { time.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        time.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
