import FoundationEssentials
import SessionMachine
import SessionStorage
import SwaggerHTTP
import SwaggerModel

extension SessionController {
    /// The outcome of ``logout(_:revoke:)``.
    package enum LogoutOutcome: Sendable, Hashable {
        /// The session for this account was removed; `nowActive` is the account active on its server now, when the
        /// one removed was active there and another is logged in.
        case loggedOut(Account, nowActive: String? = nil)
        /// There was no session to remove.
        case notLoggedIn
    }

    /// Logs out of the selected session: under its refresh lock, ends it on the server (with `revoke`, within the
    /// request timeout, renewing first an access token that the revocation carries and that has expired), then
    /// removes its tokens, its record and its saved profile. A server that cannot revoke is a warning; one that
    /// could and did not is a failure, once the session is removed here all the same.
    ///
    /// `revoke` is `false` for `--local`, which reads no token.
    /// - Throws: `SwaggerError` when a store cannot be changed, and the session is then left as it was here; or when
    ///   the server did not end the session.
    package func logout(_ selection: SessionSelection, revoke: Bool) async throws(SwaggerError) -> LogoutOutcome {
        for account in try sessions.removing() where account.server == selection.server {
            _ = try await removeDamaged(account)
        }
        guard let record = selection.record else { return try await logoutWithoutRecord(selection) }
        let (outcome, nowActive) = try await logout(record, revoke: revoke)
        if outcome.failed, let warning = outcome.warning {
            throw SwaggerError(.failure, warning.failure(in: messageContext))
        }
        return .loggedOut(outcome.account, nowActive: nowActive)
    }

    /// Logs out of every session on every server, each as ``logout(_:revoke:)`` does, and removes the records
    /// that cannot be read.
    /// - Returns: The accounts removed, records that could not be read included, and a failure for each session
    ///   that could not be removed or whose server was not told, naming its account.
    /// - Throws: `SwaggerError` when the session list cannot be read.
    func logoutAll(revoke: Bool) async throws(SwaggerError) -> (removed: [Account], failures: [SwaggerError]) {
        let known = try known()
        let damaged = known.damaged.compactMap { $0 }
        var failures: [SwaggerError] = []
        var removed: [Account] = []
        // One session that cannot be removed (its keyring out of reach, its server refusing) stops none of the
        // others; each failure is a line of the error at the end.
        for record in known.records {
            do throws(SwaggerError) {
                let (outcome, _) = try await logout(record, revoke: revoke)
                removed.append(record.account)
                if outcome.failed, let warning = outcome.warning {
                    failures.append(SwaggerError(.failure, "\(record.name): \(warning.failure(in: messageContext))"))
                }
            } catch {
                failures.append(SwaggerError(.failure, "\(record.name): \(error.message)"))
            }
        }
        for account in damaged + (try sessions.removing()) { _ = try await removeDamaged(account) }
        return (removed + damaged, failures)
    }

    private func logout(_ record: SessionRecord, revoke: Bool) async throws(SwaggerError)
        -> (LogoutCoordinator.Outcome, nowActive: String?)
    {
        var coordinator = LogoutCoordinator(record, revoke: revoke, plainHTTP: configuration.plainHTTP)
        // Held throughout, so that no refresh in another process can store new tokens for the session.
        let lock = try RefreshLock(for: coordinator.start(), in: lockDirectory)
        let removal = await told(coordinator.lockTaken(), &coordinator, of: record)
        let nowActive: String?
        do throws(SwaggerError) {
            nowActive = try nextActive(after: removal)
        } catch {
            throw message(for: coordinator.removalFailed(error))
        }
        do throws(SwaggerError) {
            try await removeTokens(of: removal)
        } catch {
            if case .fail(let failure) = coordinator.tokensNotRemoved(error) { throw message(for: failure) }
        }
        do throws(SwaggerError) {
            try forget(removal, releasing: lock)
        } catch {
            throw message(for: coordinator.removalFailed(error))
        }
        let outcome = coordinator.removed()
        if let warning = outcome.warning, !outcome.failed { warn(warning.line(in: messageContext)) }
        return (outcome, nowActive)
    }

    /// Carries out the coordinator's actions from `action` on, for `record`'s session, telling the server what it
    /// says to, until it names the session to remove.
    private func told(
        _ action: LogoutCoordinator.Action, _ coordinator: inout LogoutCoordinator, of record: SessionRecord
    ) async -> SessionRecord {
        var action = action
        // The logout holds the lock it took itself, and asks for no token work that takes one.
        var lock: RefreshLock?
        while true {
            switch action {
            case .settle(let work):
                do throws(SwaggerError) {
                    action = coordinator.settled(try await perform(work, holding: &lock), now: now())
                } catch {
                    action = coordinator.tokensUnreadable(error)
                }
            case .revoke(let revocation):
                do throws(APIServiceError) {
                    try await service(for: record).revoke(revocation)
                    action = coordinator.revoked(revocation, now: now())
                } catch {
                    action = coordinator.revocationFailed(error)
                }
            case .checkAccess(let request):
                let taken = (try? await service(for: record).profile(request)) != nil
                action = coordinator.accessChecked(taken: taken)
            case .remove(let removal):
                return removal
            }
        }
    }

    /// Removes what is left of a session that has no readable record: tokens from an interrupted login, and a
    /// record that cannot be read, which never blocks the other sessions.
    private func logoutWithoutRecord(_ selection: SessionSelection) async throws(SwaggerError) -> LogoutOutcome {
        var accounts = try damagedAccounts(of: selection)
        if let email = selection.name, !accounts.contains(where: { $0.name == email }) {
            accounts.append(Account(server: selection.server, name: email))
        }
        var removed: Account?
        for account in accounts where try await removeDamaged(account) { removed = account }
        return removed.map { .loggedOut($0) } ?? .notLoggedIn
    }

    /// Removes `account`'s tokens, record and saved profile, whatever state they are in, and says whether there
    /// was anything to remove.
    private func removeDamaged(_ account: Account) async throws(SwaggerError) -> Bool {
        let hadTokens = try await tokens.remove(account, recordedIn: nil)
        let hadRecord = try sessions.remove(account)
        _ = try? profiles?.remove(account)
        return hadTokens || hadRecord
    }
}
