import FoundationEssentials
import SessionMachine
import SessionStorage
import SwaggerModel

extension SessionController {
    /// The profile, with the stored session or `SWAGGERCTL_TOKEN`: refreshed first when the access token is due,
    /// and once more on a 401. A session the server no longer accepts is removed.
    ///
    /// `allowSaved` says whether an unreachable server may be answered with the saved profile.
    /// - Throws: `SwaggerError`, with code `authentication` when not logged in or the session ended.
    package func profile(_ selection: SessionSelection, allowSaved: Bool) async throws(SwaggerError) -> ProfileOutcome {
        var coordinator = MainCoordinator(purpose: ProfilePurpose(allowsSavedProfile: allowSaved))
        let start = coordinator.start(
            try source(of: try await described(selection)), now: now(), plainHTTP: configuration.plainHTTP)
        var step = try await settle(start, &coordinator)
        while true {
            switch step {
            case .fetch(let request):
                let profile: Profile
                do throws(APIServiceError) {
                    profile = try await service(for: selection.record).profile(request)
                } catch {
                    switch coordinator.profileFailed(error) {
                    case .lockForRefresh(let account): step = try await underLock(account, &coordinator)
                    case .endSession(let end): throw await endSession(end, releasing: RefreshLock?.none)
                    case .proceed(let next): step = next
                    case .fail(let failure): throw message(for: failure)
                    }
                    continue
                }
                switch coordinator.profileReceived(profile) {
                case .saveAndShow(let outcome, let account): return save(outcome, for: account)
                case .show(let outcome): return outcome
                }
            case .loadSavedProfile(let account):
                switch coordinator.savedProfileLoaded(savedProfile(of: account)) {
                case .show(let outcome): return outcome
                case .fail(let failure): throw message(for: failure)
                }
            }
        }
    }

    /// `selection`, with its server described from what it publishes when `SWAGGERCTL_TOKEN` is used on a server
    /// that nothing here describes: found as a login finds it, with nothing secret sent, and kept for this command
    /// alone, since `SWAGGERCTL_TOKEN` writes nothing.
    private func described(_ selection: SessionSelection) async throws(SwaggerError) -> SessionSelection {
        guard selection.environmentToken != nil, selection.serverDescription == nil else { return selection }
        let choice = try await serverChoice(given: [], on: selection, confidential: false)
        var described = selection
        described.entry = ServerEntry(server: selection.server, description: choice.serverDescription, updatedAt: now())
        return described
    }

    /// An access token that has not expired, refreshed first when it is due. It is never an expired token.
    package func accessToken(_ selection: SessionSelection) async throws(SwaggerError) -> UsableToken {
        var coordinator = MainCoordinator(purpose: TokenPurpose())
        let start = coordinator.start(
            try source(of: selection), now: now(), plainHTTP: configuration.plainHTTP)
        return try await settle(start, &coordinator)
    }

    /// The token for git's request, from the stored session on the place git names (never `SWAGGERCTL_TOKEN`);
    /// `nil` when there is none, for git to ask elsewhere.
    package func gitCredential(_ request: GitCredentialRequest) async throws(SwaggerError) -> UsableToken? {
        // One read of the sessions and the registry: the record found is the selection's.
        let known = try known()
        guard let record = request.session(among: known.records) else { return nil }
        return try await accessToken(
            SessionSelection(
                server: record.server, name: record.name, record: record,
                entry: known.entries.first { $0.server == record.server }))
    }

    /// The server that `git-credential --setup` writes git's configuration for: the one `reference` names, which has
    /// a session on its origin, as `get` answers only for those.
    /// - Throws: `SwaggerError`: usage for an unknown name; authentication when no session is on its origin.
    package func gitCredentialSetup(for reference: ServerReference) throws(SwaggerError) -> ServerURL {
        let known = try known()
        let server = try reference.resolved(among: known.entries)
        let origin = ServerURL(originOf: server.url)
        guard known.records.contains(where: { ServerURL(originOf: $0.server.url) == origin }) else {
            throw GitCredentialAnswer.noSession(on: server)
        }
        return server
    }

    /// Renews the stored session now, whatever its access token's expiry.
    /// - Returns: The session as renewed, or as it is when its server gave no refresh token and its access token
    ///   is still good.
    package func refresh(_ selection: SessionSelection) async throws(SwaggerError) -> RefreshPurpose.Step {
        var coordinator = MainCoordinator(purpose: RefreshPurpose())
        let start = coordinator.refreshRequested(
            try storedRecord(of: selection), plainHTTP: configuration.plainHTTP)
        return try await settle(start, &coordinator)
    }

    /// Carries out `action` and what follows it, until the coordinator names its purpose's step.
    func settle<Flow: TokenFlow>(_ action: TokenStart<Flow.Step>, _ coordinator: inout Flow)
        async throws(SwaggerError) -> Flow.Step
    {
        switch action {
        case .readAccessToken(let record):
            let accessToken: String?
            if record.needsKeys {
                // A token bound to a key is of no use without it: the key is read with the tokens.
                let credentials = try await tokens.credentials(for: record)
                try keys.keep(credentials, of: record)
                accessToken = credentials?.accessToken
            } else {
                accessToken = try await tokens.accessToken(for: record)
            }
            switch coordinator.tokenRead(accessToken) {
            case .lockForRefresh(let account): return try await underLock(account, &coordinator)
            case .proceed(let step): return step
            case .fail(let failure): throw message(for: failure, session: record)
            }
        case .lockForRefresh(let account):
            return try await underLock(account, &coordinator)
        case .proceed(let step):
            return step
        case .fail(let failure):
            throw message(for: failure)
        }
    }

    /// Takes the refresh lock, reads the session again, and refreshes if the coordinator says so. The lock is
    /// released on return, before the step is taken.
    func underLock<Flow: TokenFlow>(_ account: Account, _ coordinator: inout Flow)
        async throws(SwaggerError) -> Flow.Step
    {
        let waitingSince = now()
        let lock = try RefreshLock(for: account, in: lockDirectory)
        let record = try currentRecord(of: account)
        let credentials = if let record { try await tokens.credentials(for: record) } else { Credentials?.none }
        if let record { try keys.keep(credentials, of: record) }
        let request: RefreshRequest
        switch coordinator.lockTaken(record: record, credentials: credentials, now: now()) {
        case .refresh(let refresh): request = refresh
        case .proceed(let step): return step
        case .endSession(let end): throw await endSession(end, releasing: lock)
        case .fail(let failure): throw message(for: failure, session: record)
        }
        // A refresh of this same session that could not reach the server while this command waited is this one's
        // too: the server is not waited out again by every waiter in turn.
        let met = lock.note().flatMap { $0.stands(for: record, waitingSince: waitingSince) ? $0.error : nil }
        if met == nil, let record, let credentials {
            do throws(SwaggerError) {
                try await checkRenewable(Session(record: record, credentials: credentials))
            } catch {
                throw message(for: coordinator.renewalNotWritable(error))
            }
        }
        let grant: TokenGrant
        do throws(APIServiceError) {
            if let met { throw met }
            grant = try await service(for: record).refresh(request)
        } catch {
            if met == nil, let record, let note = RefreshNote(failedAt: now(), renewing: record, error) {
                lock.leave(note)
            }
            switch coordinator.refreshFailed(error) {
            case .endSession(let end): throw await endSession(end, releasing: lock)
            case .proceed(let step): return step
            case .fail(let failure): throw message(for: failure)
            }
        }
        // The server has spent the old refresh token: from here on, only the new tokens are any good.
        let session = coordinator.refreshed(grant, now: now())
        do throws(SwaggerError) {
            try await storeRenewal(session)
        } catch {
            throw message(for: coordinator.rotationNotStored(error))
        }
        lock.leave(nil)
        return coordinator.rotationStored()
    }

    /// Learns, before a refresh spends the refresh token, that the renewed session could be stored: the token store
    /// and the session list are tried, and neither changes.
    func checkRenewable(_ session: Session) async throws(SwaggerError) {
        try await tokens.checkReplaceable(session)
        try sessions.checkWritable()
    }

    /// Stores a renewed session: its tokens on the disk first, then its record, whole but perhaps not yet on the
    /// disk. A crash of the machine may lose that record and leave the one before it, with which the new tokens
    /// work as well (a passed expiry only renews them again); the old tokens are spent, so they must not come back.
    func storeRenewal(_ session: Session) async throws(SwaggerError) {
        try await tokens.replace(session)
        try sessions.save(session.record, durability: .whole)
    }

    /// Removes a session that the server no longer accepts, and returns the error that says so.
    func endSession(_ end: SessionEnd, releasing held: consuming RefreshLock?) async -> SwaggerError {
        let ended = message(for: end.failure, session: end.record)
        do throws(SwaggerError) {
            let nowActive: String? =
                switch consume held {
                case .some(let lock): try await remove(end.record, releasing: lock)
                case .none:
                    try await remove(end.record, releasing: RefreshLock(for: end.record.account, in: lockDirectory))
                }
            if let nowActive { warn(Account.nowActiveNotice(nowActive, on: end.record.server)) }
        } catch {
            return SwaggerError(
                ended.code, "\(ended.message) It could not be removed from this machine: \(error.message)")
        }
        return ended
    }

    /// Saves a profile for offline use; a profile that cannot be saved is still shown.
    func save(_ outcome: ProfileOutcome, for account: Account) -> ProfileOutcome {
        do {
            try profiles?.save(outcome.profile, for: account, receivedAt: now())
        } catch {
            warn("the profile could not be saved for offline use: \(error.message)")
        }
        return outcome
    }

    /// The profile saved for `account`; a cache that cannot be read is a warning, and no profile.
    private func savedProfile(of account: Account) -> SavedProfile? {
        do {
            return try profiles?.profile(for: account)
        } catch {
            warn(error.message)
            return nil
        }
    }
}
