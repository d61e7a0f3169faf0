import FoundationEssentials
import SwaggerModel

/// The decisions of a logout, as a value-type state machine with no I/O: under the account's refresh lock, end
/// the session on its server, then remove it from this machine.
///
/// The server is told first, while the tokens that name the session are still here: a logout that is
/// interrupted leaves the session whole, to be logged out again, rather than a session that lives on the server
/// with nothing here to end it. Whether the server could be told or not, the session is removed here.
package struct LogoutCoordinator: Sendable {
    /// Something that went wrong without stopping the logout.
    package enum Warning: Sendable, Hashable {
        /// The server offers no way to revoke a session, so its tokens stay valid there until they expire.
        case serverCannotRevoke(ServerURL)
        /// The tokens could not be read, so the server could not be told.
        case tokensUnreadable(SwaggerError, server: ServerURL)
        /// Telling the server would have carried the account's tokens over plain HTTP to `to`, which nobody
        /// allowed.
        case plainHTTPRefused(Account, to: ServerURL)
        /// The server could not be told.
        case revocationFailed(APIServiceError, server: ServerURL)
    }

    /// What follows ``lockTaken()``.
    package enum LockedAction: Sendable, Hashable {
        /// Read the session's tokens, then send ``tokensRead(_:)`` or ``tokensUnreadable(_:)``.
        case readTokens(SessionRecord)
        /// Remove the session from every store, then send ``removed()`` or ``removalFailed(_:)``.
        case remove(SessionRecord)
    }

    /// What follows ``tokensRead(_:)``.
    package enum TokensReadAction: Sendable, Hashable {
        /// End the session on its server, then send ``revoked()`` or ``revocationFailed(_:)``.
        case revoke(Revocation)
        case remove(SessionRecord)
    }

    /// How a logout ended.
    package struct Outcome: Sendable, Hashable {
        package var account: Account
        package var warnings: [Warning]
    }

    private enum State: Sendable {
        case idle
        case locking
        case reading
        case revoking
        case removing
        case finished
    }

    private let record: SessionRecord
    private let revokes: Bool
    private let plainHTTP: PlainHTTP
    private var state: State = .idle
    private var warnings: [Warning] = []
    private var serverToldToEnd = false

    /// A logout of `record`'s session; with `revoke`, it is ended on the server too (not for `--local`).
    /// `plainHTTP` holds `SWAGGERCTL_ALLOW_HTTP` and the proxies.
    package init(_ record: SessionRecord, revoke: Bool, plainHTTP: PlainHTTP) {
        self.record = record
        self.revokes = revoke
        self.plainHTTP = plainHTTP
    }

    /// Take the account's refresh lock, so that no refresh can store new tokens meanwhile, then send
    /// ``lockTaken()``.
    package mutating func start() -> Account {
        guard case .idle = state else { invalid("start") }
        state = .locking
        return record.account
    }

    package mutating func lockTaken() -> LockedAction {
        guard case .locking = state else { invalid("lockTaken") }
        guard revokes else {
            state = .removing
            return .remove(record)
        }
        state = .reading
        return .readTokens(record)
    }

    /// The tokens were read: `nil` when no backend holds any.
    package mutating func tokensRead(_ credentials: Credentials?) -> TokensReadAction {
        guard case .reading = state else { invalid("tokensRead") }
        state = .removing
        let description = record.serverDescription
        // The original API names a session by its refresh token: without one, it has nothing to end.
        guard let credentials, description.kind != .original || credentials.refreshToken != nil else {
            return .remove(record)
        }
        guard description.revocationURL != nil else {
            warnings.append(.serverCannotRevoke(record.server))
            return .remove(record)
        }
        if let refused = plainHTTP.refusal(record.server, description, sessionAllows: record.allowsPlainHTTP == true) {
            warnings.append(.plainHTTPRefused(record.account, to: refused))
            return .remove(record)
        }
        state = .revoking
        return .revoke(Revocation(server: record.server, serverDescription: description, credentials: credentials))
    }

    /// The tokens could not be read; a keyring that cannot be read cannot be cleared either, and removal says
    /// what to do.
    package mutating func tokensUnreadable(_ error: SwaggerError) -> SessionRecord {
        guard case .reading = state else { invalid("tokensUnreadable") }
        state = .removing
        warnings.append(.tokensUnreadable(error, server: record.server))
        return record
    }

    /// The server ended the session.
    package mutating func revoked() -> SessionRecord {
        guard case .revoking = state else { invalid("revoked") }
        state = .removing
        serverToldToEnd = true
        return record
    }

    /// The server could not be told. The session is removed here all the same.
    package mutating func revocationFailed(_ error: APIServiceError) -> SessionRecord {
        guard case .revoking = state else { invalid("revocationFailed") }
        state = .removing
        warnings.append(.revocationFailed(error, server: record.server))
        return record
    }

    /// The session is gone from this machine.
    package mutating func removed() -> Outcome {
        guard case .removing = state else { invalid("removed") }
        state = .finished
        return Outcome(account: record.account, warnings: warnings)
    }

    /// The session could not be removed: it is left as it was here.
    package mutating func removalFailed(_ error: SwaggerError) -> SessionFailure {
        guard case .removing = state else { invalid("removalFailed") }
        state = .finished
        return .notRemoved(record.account, error, revoked: serverToldToEnd)
    }

    private func invalid(_ event: String) -> Never {
        preconditionFailure("LogoutCoordinator: \(event) cannot happen in state \(state)")
    }
}
