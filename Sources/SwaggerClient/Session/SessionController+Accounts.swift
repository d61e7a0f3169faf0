import FoundationEssentials

extension SessionController {
    /// The accounts logged in to `server`, the active one first.
    /// - Throws: ``SwaggerError`` when the session list cannot be read.
    public func accounts(on server: ServerURL) throws(SwaggerError) -> [SessionRecord] {
        try index.records().filter { $0.server == server.string }
    }

    /// Makes `email`'s session the active one on its server, and that server the default for later commands.
    /// - Parameters:
    ///   - email: The account to use.
    ///   - server: Its server.
    /// - Returns: The session, now active.
    /// - Throws: ``SwaggerError`` with code ``SwaggerError/Code/authentication`` when `email` is not logged in
    ///   there.
    public func switchTo(_ email: String, on server: ServerURL) throws(SwaggerError) -> SessionRecord {
        guard var record = try index.record(server: server.string, email: email) else {
            let others = try accounts(on: server).map(\.email)
            let known =
                others.isEmpty
                ? "No account is" : "Only \(others.joined(separator: ", ")) \(others.count == 1 ? "is" : "are")"
            throw SwaggerError(
                .authentication,
                "\(email) is not logged in to \(server). \(known) logged in there; run "
                    + "`\(Self.login(server.string, email))` to add it.")
        }
        record.selectedAt = Date()
        try index.save(record)
        return record
    }

    /// Removes every session on every server: the tokens of each first (under its refresh lock, so that no
    /// refresh can store new ones), then every record, then every saved profile. With `revoke`, each session
    /// is then ended on its server; one that cannot be told is a warning.
    /// - Returns: The accounts removed, records that could not be read included.
    /// - Throws: ``SwaggerError`` when a store cannot be changed; what was removed before stays removed.
    public func logoutAll(revoke: Bool) async throws(SwaggerError) -> [Account] {
        let records = try index.records()
        let damaged = try index.damaged().compactMap { $0 }
        var revocations: [(SessionRecord, Credentials)] = []
        for record in records {
            let lock = try RefreshLock(for: record.account, in: lockDirectory)
            if revoke, let credentials = try? await tokens.credentials(for: record), Self.canRevoke(record, credentials)
            {
                revocations.append((record, credentials))
            }
            _ = try await tokens.remove(record.account, recordedIn: record.keystore)
            lock.releaseRemovingFile()
        }
        for account in damaged { _ = try await tokens.remove(account, recordedIn: nil) }
        let accounts = records.map(\.account) + damaged
        for account in accounts { try index.remove(account) }
        for account in accounts {
            do {
                try profiles?.remove(account)
            } catch {
                warn("the saved profile of \(account.email) could not be deleted: \(error.message)")
            }
        }
        for (record, credentials) in revocations {
            await revokeOnServer(record, credentials)
        }
        return accounts
    }

    /// Whether logout turns to the server: the original API names a session by its refresh token; for another
    /// kind, ``revokeOnServer(_:_:)`` revokes, or says that the server cannot.
    static func canRevoke(_ record: SessionRecord, _ credentials: Credentials) -> Bool {
        record.dialect != nil || credentials.refreshToken != nil
    }

    /// Ends the session on its server; a server that cannot be told, or is refused by the plain-HTTP rule, is a
    /// warning: the session is already gone from this machine. A server with no way to revoke is said to be so.
    func revokeOnServer(_ record: SessionRecord, _ credentials: Credentials) async {
        if let dialect = record.dialect, dialect.revocationURL == nil {
            warn(
                "the session was removed from this machine; \(record.server) offers no way to revoke it, so its "
                    + "tokens stay valid there until they expire.")
            return
        }
        do throws(SwaggerError) {
            try requireProtected(.stored(record))
            let server = try ServerURL(record.server)
            do throws(APIServiceError) {
                if let dialect = record.dialect {
                    try await service.revoke(dialect, credentials: credentials)
                } else {
                    try await service.logout(server: server, credentials: credentials)
                }
            } catch {
                warn(logoutWarning(for: error, on: record.server))
            }
        } catch {
            warn("the session was removed from this machine, but \(record.server) was not told: \(error.message)")
        }
    }
}
