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

extension RecordedTransport {
    /// The demo server's API under ``Fixtures/server``, and an OAuth 2 server's token, device and userinfo endpoints
    /// beside it, answering as a session's first login, renewal and revocation do; each request in `journal`. A test
    /// registers its own answers over these.
    static func demo(journal: Journal) -> RecordedTransport {
        let server = RecordedTransport { journal.record($0) }
        let first: JSONValue = ["accessToken": "access-1", "refreshToken": "refresh-1"]
        server.register("POST", "/api/User/AdminLogin", .json(first))
        server.register(
            "POST", "/api/User/RefreshToken", .json(["accessToken": "access-2", "refreshToken": "refresh-2"]))
        server.register("GET", "/api/User/User", .json(["id": 7]))
        server.register("POST", "/api/User/Logout", .status(200))
        server.register(
            "POST", "/api/device",
            .json([
                "device_code": "device-1", "user_code": "WDJB-MJHT", "verification_uri": "http://127.0.0.1:8080/device",
                "interval": 1, "expires_in": 600,
            ]))
        server.register(
            "POST", "/api/token",
            .json(["access_token": "access-1", "refresh_token": "refresh-1", "token_type": "Bearer"]))
        server.register("GET", "/api/userinfo", .json(["id": 7]))
        return server
    }

    /// An OAuth 2 error answer (RFC 6749 §5.2, RFC 8628 §3.5).
    static func oauth2Error(_ code: String) -> Outcome {
        .json(["error": .string(code)], status: 400)
    }
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
