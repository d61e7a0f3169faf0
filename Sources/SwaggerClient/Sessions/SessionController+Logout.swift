import FoundationEssentials
import SessionMachine
import SessionStorage
import SwaggerModel

extension SessionController {
    /// The outcome of ``logout(_:revoke:)``.
    package enum LogoutOutcome: Sendable, Hashable {
        /// The session for this account was removed.
        case loggedOut(Account)
        /// There was no session to remove.
        case notLoggedIn
    }

    /// Logs out of the selected session: under its refresh lock, ends it on the server (with `revoke`, within the
    /// request timeout), then removes its tokens, its record and its saved profile. A server that cannot be told
    /// is a warning; the session is removed here all the same.
    ///
    /// `revoke` is `false` for `--local`, which reads no token.
    /// - Throws: `SwaggerError` when a store cannot be changed; the session is then left as it was here.
    package func logout(_ selection: SessionSelection, revoke: Bool) async throws(SwaggerError) -> LogoutOutcome {
        guard let record = selection.record else { return try await logoutWithoutRecord(selection) }
        return .loggedOut(try await logout(record, revoke: revoke).account)
    }

    /// Logs out of every session on every server, each as ``logout(_:revoke:)`` does, and removes the records
    /// that cannot be read.
    /// - Returns: The accounts removed, records that could not be read included.
    /// - Throws: `SwaggerError` when a store cannot be changed; what was removed before stays removed.
    package func logoutAll(revoke: Bool) async throws(SwaggerError) -> [Account] {
        let (records, unreadable) = try sessions.contents()
        let damaged = unreadable.compactMap { $0 }
        for record in records { _ = try await logout(record, revoke: revoke) }
        for account in damaged { _ = try await removeDamaged(account) }
        return records.map(\.account) + damaged
    }

    private func logout(_ record: SessionRecord, revoke: Bool) async throws(SwaggerError)
        -> LogoutCoordinator.Outcome
    {
        var coordinator = LogoutCoordinator(record, revoke: revoke, plainHTTP: configuration.plainHTTP)
        // Held throughout, so that no refresh in another process can store new tokens for the session.
        let lock = try RefreshLock(for: coordinator.start(), in: lockDirectory)
        let removal: SessionRecord
        switch coordinator.lockTaken() {
        case .remove(let record):
            removal = record
        case .readTokens(let record):
            let credentials: Credentials?
            do throws(SwaggerError) {
                credentials = try await tokens.credentials(for: record)
            } catch {
                removal = coordinator.tokensUnreadable(error)
                break
            }
            switch coordinator.tokensRead(credentials) {
            case .remove(let record):
                removal = record
            case .revoke(let revocation):
                do throws(APIServiceError) {
                    try await service(for: record).revoke(revocation)
                    removal = coordinator.revoked()
                } catch {
                    removal = coordinator.revocationFailed(error)
                }
            }
        }
        do throws(SwaggerError) {
            try await remove(removal, releasing: lock)
        } catch {
            throw message(for: coordinator.removalFailed(error))
        }
        let outcome = coordinator.removed()
        if let warning = outcome.warning { warn(messages.warning(warning)) }
        return outcome
    }

    /// Removes what is left of a session that has no readable record: tokens from an interrupted login, and a
    /// record that cannot be read, which never blocks the other sessions.
    private func logoutWithoutRecord(_ selection: SessionSelection) async throws(SwaggerError) -> LogoutOutcome {
        var accounts = try damagedAccounts(of: selection)
        if let email = selection.email, !accounts.contains(where: { $0.email == email }) {
            accounts.append(Account(server: selection.server, email: email))
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
