import FoundationEssentials
import SessionMachine
import SessionStorage
import SwaggerHTTP
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
                    step = try await settle(coordinator.profileFailed(error), &coordinator)
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
    func gitCredential(_ request: GitCredentialRequest) async throws(SwaggerError) -> UsableToken? {
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
    func gitCredentialSetup(for reference: ServerReference) throws(SwaggerError) -> ServerURL {
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

    /// Carries out the coordinator's actions from `action` on, until it names its purpose's step. The refresh lock,
    /// when one was taken, is released on return, before the step is taken.
    func settle<Purpose>(_ action: MainCoordinator<Purpose>.Action, _ coordinator: inout MainCoordinator<Purpose>)
        async throws(SwaggerError) -> Purpose.Step
    {
        var action = action
        var lock: RefreshLock?
        while true {
            switch action {
            case .settle(let work):
                action = coordinator.settled(try await perform(work, holding: &lock), now: now())
            case .endSession(let end):
                throw await endSession(end, releasing: lock.take())
            case .proceed(let step):
                return step
            case .fail(let failure):
                throw message(for: failure)
            }
        }
    }

    /// Does the token's work that a coordinator asks for, deciding nothing, and says what it found. `lock` holds the
    /// refresh lock once ``TokenWork/lock(_:)`` has taken it.
    func perform(_ work: TokenWork, holding lock: inout RefreshLock?) async throws(SwaggerError) -> TokenResult {
        switch work {
        case .readAccessToken(let record):
            return .accessToken(try await tokens.accessToken(for: record))
        case .readCredentials(let record):
            let credentials = try await tokens.credentials(for: record)
            if let credentials, !service.holdsKey(credentials, of: record) { return .keysMissing(credentials) }
            return .credentials(credentials)
        case .lock(let account):
            let waitingSince = now()
            let held = try RefreshLock(for: account, in: lockDirectory)
            let note = held.note()
            lock = consume held
            let record = try currentRecord(of: account)
            let credentials = if let record { try await tokens.credentials(for: record) } else { Credentials?.none }
            if let record, let credentials, !service.holdsKey(credentials, of: record) {
                throw message(for: .keyMissing(record))
            }
            return .locked(
                LockedSession(record: record, credentials: credentials, note: note, waitingSince: waitingSince))
        case .checkRenewable(let session):
            do throws(SwaggerError) {
                try await checkRenewable(session)
            } catch {
                return .notRenewable(error)
            }
            return .renewable
        case .refresh(let request, let record):
            do throws(APIServiceError) {
                return .refreshed(try await service(for: record).refresh(request))
            } catch {
                return .refreshFailed(error)
            }
        case .store(let session):
            do throws(SwaggerError) {
                try await storeRenewal(session)
            } catch {
                return .notStored(error)
            }
            return .stored
        case .leaveNote(let note):
            switch lock {
            case .some(let held): held.leave(note)
            case .none: break
            }
            return .noteLeft
        }
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
