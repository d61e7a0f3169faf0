import FoundationEssentials
import SessionMachine
import SessionStorage
import SwaggerModel
import SwaggerOutput

extension SessionController {
    /// The stored sessions, those on `server` or of the account `name` only when given, and `SWAGGERCTL_TOKEN` when it is
    /// set. With `check`, the session that it selects is first checked with the server (refreshed if needed),
    /// and its status says so. The session that commands use without `-s` and `-e` is marked the default.
    /// - Parameters:
    ///   - check: The session to check, from `select(…, usingEnvironmentToken: true)`, or `nil`.
    ///   - server: `-s`: list only the sessions on this server.
    ///   - name: `-e` or `-u`: list only the sessions of this account.
    /// - Throws: `SwaggerError`: what the check met (ended 4, unreachable 3), or an unreadable session list.
    package func status(checking check: SessionSelection?, server: ServerReference? = nil, name: String? = nil)
        async throws(SwaggerError) -> StatusReport
    {
        var result: SessionStatus.Check?
        if let check {
            let outcome = try await profile(check, allowSaved: false)
            result = outcome.origin == .server(renewed: true) ? .refreshed : .valid
        }
        let known = try known()
        let (records, damaged) = (known.records, known.damaged)
        // A malformed SWAGGERCTL_SERVER marks no session the default; status still lists them all.
        let defaultServer = try? configuration.server(flag: nil, current: known.current, entries: known.entries)
        let server = try server.map { (reference) throws(SwaggerError) in
            try reference.resolved(among: known.entries)
        }
        var statuses = SessionStatus.list(records, now: now(), defaultServer: defaultServer).filter { status in
            (server.map { $0 == status.server } ?? true) && (name.map { $0 == status.email } ?? true)
        }
        for index in statuses.indices {
            statuses[index].serverName = ServerName.of(statuses[index].server, among: known.entries)
            if let record = records.first(where: { $0.account == statuses[index].account }) {
                statuses[index].token = await storedToken(of: record)
            }
        }
        if let account = check?.record?.account, let checked = statuses.firstIndex(where: { $0.account == account }) {
            statuses[checked].check = result
        }
        let environment = configuration.environmentToken.map { token in
            StatusReport.EnvironmentToken(
                expiresAt: JWTClaims.expiry(of: token), check: check?.environmentToken == nil ? nil : result)
        }
        return StatusReport(
            sessions: statuses, damaged: damaged, path: sessions.path, environmentToken: environment)
    }

    /// Whether the token store holds `record`'s tokens, read as a use of the session reads them: a session with
    /// only its refresh token, or only its client's proof, can still be used. The tokens are dropped at once.
    private func storedToken(of record: SessionRecord) async -> SessionStatus.TokenState {
        do {
            return try await tokens.credentials(for: record) == nil ? .missing : .stored
        } catch {
            return .unreadable(error.message)
        }
    }
}
