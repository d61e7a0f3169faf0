import FoundationEssentials
import SwaggerModel

/// The decisions of a logout, as a value-type state machine with no I/O: under the account's refresh lock, end
/// the session on its server, then remove it from this machine.
///
/// The server is told first, while the tokens that name the session are still here: a logout that is
/// interrupted leaves the session whole, to be logged out again, rather than a session that lives on the server
/// with nothing here to end it. A revocation that carries an access token that has expired renews it first, and
/// stores the renewal before it is used, as every use of a session does. Whether the server could be told or not,
/// the session is removed here.
package struct LogoutCoordinator: Sendable {
    /// Something that went wrong without stopping the logout.
    package enum Warning: Sendable, Hashable {
        /// The server offers no way to revoke a session, so its tokens stay valid there until they expire.
        case serverCannotRevoke(ServerURL)
        /// The tokens could not be read, so the server could not be told.
        case tokensUnreadable(SwaggerError, server: ServerURL)
        /// No store held the session's tokens, so the server could not be told.
        case tokensMissing(ServerURL)
        /// `--local` forgot the session, but its tokens could not be removed from their store, where they may remain.
        case tokensLeft(BackendKind)
        /// Telling the server would have carried the account's tokens over plain HTTP to `to`, which nobody
        /// allowed.
        case plainHTTPRefused(Account, to: ServerURL)
        /// The revocation, or the refresh before it, is on an origin nobody allowed.
        case foreignOrigin(Account, OriginRule.Foreign)
        /// The server, described so, could not be told.
        case revocationFailed(APIServiceError, server: ServerURL, description: ServerDescription)
        /// Nothing describes the server any more, so it could not be told.
        case undescribed(ServerURL)
        /// The server still takes the session's access token, until `until` where known: it ended the refresh token
        /// only (`endedRefresh`), or it ends sessions by a refresh token that this one, brought with `--with-token`,
        /// does not have.
        case accessTokenStays(ServerURL, until: Date?, endedRefresh: Bool)
    }

    /// What the logout asks its owner for next.
    package enum Action: Sendable, Hashable {
        /// The token's work: read the session's tokens (then send ``settled(_:now:)``, or ``tokensUnreadable(_:)``
        /// when they cannot be read), or renew the access token the revocation carries, and store the renewal (then
        /// send ``settled(_:now:)``).
        case settle(TokenWork)
        /// End the session on its server, then send ``revoked(_:now:)`` or ``revocationFailed(_:)``.
        case revoke(Revocation)
        /// The revocation carried only the refresh token: ask for the profile with the access token, to learn whether
        /// the server still takes it, then send ``accessChecked(taken:)``.
        case checkAccess(ProfileRequest)
        /// Remove the session from every store, then send ``removed()``, ``tokensNotRemoved(_:)`` or
        /// ``removalFailed(_:)``.
        case remove(SessionRecord)
    }

    /// What follows ``tokensNotRemoved(_:)``.
    package enum TokensNotRemovedAction: Sendable, Hashable {
        /// Remove the record and the saved profile all the same, then send ``removed()``.
        case forget(SessionRecord)
        /// Leave the session as it is here, and stop with this failure.
        case fail(SessionFailure)
    }

    /// How a logout ended.
    package struct Outcome: Sendable, Hashable {
        package var account: Account
        /// What went wrong without stopping it: a logout meets one thing at most, the server being told or not.
        package var warning: Warning?

        /// Whether the logout failed, though the session is gone from this machine: the server could have ended
        /// the session and did not, so it may still be used there.
        package var failed: Bool {
            switch warning {
            case .revocationFailed?, .undescribed?, .tokensUnreadable?, .tokensMissing?: true
            default: false
            }
        }
    }

    /// What became of telling the server, once the session is being removed here.
    private enum Told: Sendable {
        /// The server ended the session.
        case ended
        /// The server ended the refresh token, and still takes the access token until it expires.
        case endedRefresh
        /// The server was not told: `--local`, nothing to end it with, or the warning's reason.
        case notTold(Warning?)
    }

    private enum State: Sendable {
        case idle
        case locking
        case reading
        case refreshing(Credentials, ServerDescription)
        case storingRotation(Session, ServerDescription)
        case revoking(ServerDescription)
        /// The profile was asked for with the access token that the revocation did not carry.
        case checkingAccess
        case removing(Told)
        /// The tokens stay where they are, and the record goes.
        case forgetting
        case finished
    }

    private let record: SessionRecord
    private let revokes: Bool
    private let plainHTTP: PlainHTTP
    private var state: State = .idle
    /// When the access token the logout holds expires: the record's, or the renewal's.
    private var accessExpiry: Date?

    /// A logout of `record`'s session; with `revoke`, it is ended on the server too (not for `--local`).
    /// `plainHTTP` holds `SWAGGERCTL_ALLOW_HTTP` and the proxies.
    package init(_ record: SessionRecord, revoke: Bool, plainHTTP: PlainHTTP) {
        self.record = record
        self.revokes = revoke
        self.plainHTTP = plainHTTP
        self.accessExpiry = record.expiresAt
    }

    /// Take the account's refresh lock, so that no refresh can store new tokens meanwhile, then send
    /// ``lockTaken()``.
    package mutating func start() -> Account {
        guard case .idle = state else { invalid("start") }
        state = .locking
        return record.account
    }

    package mutating func lockTaken() -> Action {
        guard case .locking = state else { invalid("lockTaken") }
        guard revokes else {
            state = .removing(.notTold(nil))
            return .remove(record)
        }
        state = .reading
        return .settle(.readCredentials(record))
    }

    /// The owner did the token's work that the last action asked for, and found `result`.
    package mutating func settled(_ result: TokenResult, now: Date) -> Action {
        switch (state, result) {
        case (.reading, .credentials(let credentials)):
            return tokensRead(credentials, now: now)
        case (.reading, .keysMissing(let credentials)):
            // Without the DPoP key, the revocation goes unproven, which the server may refuse: the logout goes on,
            // and its outcome says what the server did.
            return tokensRead(credentials, now: now)
        case (.refreshing(let credentials, let description), .refreshed(let grant)):
            var session = Session(
                record: record,
                credentials: Credentials(
                    accessToken: grant.accessToken, refreshToken: grant.refreshToken ?? credentials.refreshToken,
                    clientSecret: credentials.clientSecret, clientKey: credentials.clientKey,
                    proofKey: credentials.proofKey))
            (session.record.issuedAt, session.record.expiresAt) = Expiry.times(of: grant, now: now)
            accessExpiry = session.record.expiresAt
            session.record.outputs.merge(grant.outputs) { $1 }
            state = .storingRotation(session, description)
            // Stored before it is used: a logout cut short after that leaves a session that works.
            return .settle(.store(session))
        case (.storingRotation(let session, let description), .stored),
            (.storingRotation(let session, let description), .notStored):
            // A renewal that could not be stored still ends the session on the server, and the session is removed
            // here all the same.
            state = .revoking(description)
            return .revoke(
                Revocation(
                    server: record.server, serverDescription: description, credentials: session.credentials,
                    outputs: session.record.outputs, binding: SessionBinding(session.credentials, of: record)))
        case (.refreshing(let credentials, let description), .refreshFailed(let error)):
            // A refused refresh token means the server has ended the session already; otherwise the revocation is
            // tried with the tokens there are.
            if error == .refreshRejected {
                state = .removing(.ended)
                return .remove(record)
            }
            state = .revoking(description)
            return .revoke(
                Revocation(
                    server: record.server, serverDescription: description, credentials: credentials,
                    outputs: record.outputs, binding: SessionBinding(credentials, of: record)))
        default:
            invalid("settled(\(result.name))")
        }
    }

    /// The tokens were read: `nil` when no backend holds any.
    private mutating func tokensRead(_ credentials: Credentials?, now: Date) -> Action {
        guard let description = record.serverDescription else {
            state = .removing(.notTold(.undescribed(record.server)))
            return .remove(record)
        }
        // Signed in with HTTP Basic, there is no session on the server to end: removing the password here is the
        // whole of the logout.
        if description.login.sendsNothing {
            state = .removing(.notTold(nil))
            return .remove(record)
        }
        guard let revocation = description.revocation else {
            state = .removing(.notTold(.serverCannotRevoke(record.server)))
            return .remove(record)
        }
        // The server still takes the session, and nothing here can end it: the logout says so rather than pass for
        // one that ended it.
        guard let credentials else {
            state = .removing(.notTold(.tokensMissing(record.server)))
            return .remove(record)
        }
        // A revocation that names the session by its refresh token has nothing to end without one, and the access
        // token, brought with --with-token, works on until it expires.
        guard credentials.refreshToken != nil || !description.revocationNeedsRefreshToken else {
            let stays = credentials.accessToken != nil && !accessHasExpired(now: now)
            state = .removing(
                .notTold(stays ? .accessTokenStays(record.server, until: accessExpiry, endedRefresh: false) : nil))
            return .remove(record)
        }
        if let refused = plainHTTP.refusal(for: record) {
            state = .removing(.notTold(.plainHTTPRefused(record.account, to: refused)))
            return .remove(record)
        }
        if let foreign = OriginRule.refusal(record.server, description) {
            state = .removing(.notTold(.foreignOrigin(record.account, foreign)))
            return .remove(record)
        }
        // An access token that the revocation carries, and that the server would refuse, is renewed first.
        let stale =
            credentials.accessToken == nil
            || Expiry.needsRefresh(expiresAt: record.expiresAt, issuedAt: record.issuedAt, now: now)
        if revocation.sendsAccessToken, stale, description.refresh != nil, let refreshToken = credentials.refreshToken {
            state = .refreshing(credentials, description)
            return .settle(
                .refresh(
                    RefreshRequest(
                        server: record.server, serverDescription: description, renewal: .refreshToken(refreshToken),
                        appID: record.appID, client: credentials.client, outputs: record.outputs,
                        binding: SessionBinding(credentials, of: record)),
                    of: record))
        }
        state = .revoking(description)
        return .revoke(
            Revocation(
                server: record.server, serverDescription: description, credentials: credentials,
                outputs: record.outputs, binding: SessionBinding(credentials, of: record)))
    }

    /// The tokens could not be read; a keyring that cannot be read cannot be cleared either, and removal says
    /// what to do.
    package mutating func tokensUnreadable(_ error: SwaggerError) -> Action {
        guard case .reading = state else { invalid("tokensUnreadable") }
        state = .removing(.notTold(.tokensUnreadable(error, server: record.server)))
        return .remove(record)
    }

    /// The server ended the session, or at least its refresh token. A revocation of a refresh token that does not
    /// name the access token may have left that working, if it has not expired: the profile says whether it does.
    package mutating func revoked(_ revocation: Revocation, now: Date) -> Action {
        guard case .revoking(let description) = state else { invalid("revoked") }
        guard let access = revocation.credentials.accessToken, revocation.credentials.refreshToken != nil,
            description.revocation?.namesAccessToken == false, !accessHasExpired(now: now)
        else {
            state = .removing(.ended)
            return .remove(record)
        }
        state = .checkingAccess
        return .checkAccess(
            ProfileRequest(
                server: record.server, serverDescription: description, accessToken: access,
                outputs: revocation.outputs, binding: revocation.binding))
    }

    /// What the profile said of the access token after the revocation: `taken` when it answered with the profile.
    /// Anything else (a refusal, a failure) claims nothing more than the revocation did.
    package mutating func accessChecked(taken: Bool) -> Action {
        guard case .checkingAccess = state else { invalid("accessChecked") }
        state = .removing(taken ? .endedRefresh : .ended)
        return .remove(record)
    }

    private func accessHasExpired(now: Date) -> Bool {
        accessExpiry.map { $0 <= now } ?? false
    }

    /// The server could not be told. The session is removed here all the same.
    package mutating func revocationFailed(_ error: APIServiceError) -> Action {
        guard case .revoking(let description) = state else { invalid("revocationFailed") }
        state = .removing(.notTold(.revocationFailed(error, server: record.server, description: description)))
        return .remove(record)
    }

    /// The tokens could not be removed from their store (a keyring that cannot be reached, say). `--local` forgets
    /// the session all the same, since a record that can never be removed would outlive every logout on a machine
    /// without the keyring; a logout that would tell the server leaves the session whole, to be tried again, or
    /// forgotten with `--local`.
    package mutating func tokensNotRemoved(_ error: SwaggerError) -> TokensNotRemovedAction {
        guard case .removing(let told) = state else { invalid("tokensNotRemoved") }
        guard !revokes else {
            // After the server ended the session, it is any removal's failure; before, the tokens' own.
            switch told {
            case .ended, .endedRefresh: return .fail(removalFailed(error))
            case .notTold:
                state = .finished
                return .fail(.tokensNotRemoved(record.account, error))
            }
        }
        state = .forgetting
        return .forget(record)
    }

    /// The session is gone from this machine.
    package mutating func removed() -> Outcome {
        switch state {
        case .removing(.ended):
            state = .finished
            return Outcome(account: record.account)
        case .removing(.endedRefresh):
            state = .finished
            return Outcome(
                account: record.account,
                warning: .accessTokenStays(record.server, until: accessExpiry, endedRefresh: true))
        case .removing(.notTold(let warning)):
            state = .finished
            return Outcome(account: record.account, warning: warning)
        case .forgetting:
            state = .finished
            return Outcome(account: record.account, warning: .tokensLeft(record.backend))
        default:
            invalid("removed")
        }
    }

    /// The session could not be removed: it is left as it was here.
    package mutating func removalFailed(_ error: SwaggerError) -> SessionFailure {
        switch state {
        case .removing(.ended), .removing(.endedRefresh):
            state = .finished
            return .notRemoved(record.account, error, revoked: true)
        case .removing, .forgetting:
            state = .finished
            return .notRemoved(record.account, error, revoked: false)
        default:
            invalid("removalFailed")
        }
    }

    /// Stops the process: the owner sent an event that cannot happen in this state. Only the state's name is
    /// shown, because a warning's error may quote the server.
    private func invalid(_ event: String) -> Never {
        preconditionFailure("LogoutCoordinator: \(event) cannot happen in state \(phase.rawValue)")
    }

    package typealias Phase = LogoutCoordinatorPhase

    /// The state the coordinator is in.
    var phase: Phase {
        switch state {
        case .idle: .idle
        case .locking: .locking
        case .reading: .reading
        case .refreshing: .refreshing
        case .storingRotation: .storingRotation
        case .revoking: .revoking
        case .checkingAccess: .checkingAccess
        case .removing: .removing
        case .forgetting: .forgetting
        case .finished: .finished
        }
    }
}

/// The states of ``LogoutCoordinator``, by name: what its transition table test is made from.
package enum LogoutCoordinatorPhase: String, CaseIterable, Sendable {
    case idle, locking, reading, refreshing, storingRotation, revoking, checkingAccess, removing, forgetting, finished
}
