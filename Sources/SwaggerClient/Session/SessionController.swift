import FoundationEssentials

/// Carries out what the person asked for: owns a ``MainCoordinator`` for each request, performs the I/O that
/// its actions name (the ``APIService``, the ``TokenStore``, the ``SessionIndex``, the ``ProfileCache`` and
/// the refresh lock), and feeds the outcomes back in.
///
/// Every method throws only ``SwaggerError``, whose message is ready to show.
public struct SessionController: Sendable {
    /// The settings in force.
    public let configuration: Configuration
    /// The stored sessions.
    public let index: SessionIndex
    /// Where tokens are kept.
    public let tokens: TokenStore
    /// The saved profiles; `nil` when there is no cache folder.
    public let profiles: ProfileCache?
    let service: APIService
    let warn: @Sendable (String) -> Void

    /// Creates a controller.
    /// - Parameters:
    ///   - configuration: The settings in force.
    ///   - tokens: Where tokens are kept.
    ///   - service: The API client.
    ///   - warn: Receives one line for each thing that went wrong without stopping the command.
    public init(
        configuration: Configuration, tokens: TokenStore, service: APIService,
        warn: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.index = SessionIndex(directory: configuration.directory)
        self.tokens = tokens
        self.profiles = configuration.cacheDirectory.map(ProfileCache.init(directory:))
        self.service = service
        self.warn = warn
    }

    /// Runs `body` with a controller for `configuration`, and closes its connections afterwards.
    /// - Parameters:
    ///   - configuration: The settings in force.
    ///   - delegate: Receives the API service's reports, such as waiting on and off.
    ///   - warn: Receives one line for each keyring fallback or other problem that does not stop the
    ///     command, without the "warning:" prefix.
    ///   - log: Receives each line that describes a request or response, when `configuration.verbose` is on.
    ///   - body: The work to do.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public static func withController<Result: Sendable>(
        configuration: Configuration, delegate: (any APIServiceDelegate)? = nil,
        warn: @escaping @Sendable (String) -> Void = { _ in }, log: @escaping @Sendable (String) -> Void = { _ in },
        _ body: (SessionController) async throws(SwaggerError) -> Result
    ) async throws(SwaggerError) -> Result {
        let service = APIService(
            timeout: configuration.timeout, proxies: configuration.proxies, trust: configuration.trust,
            delegate: delegate, log: configuration.verbose ? log : nil)
        let controller = SessionController(
            configuration: configuration, tokens: TokenStore(configuration: configuration, warn: warn),
            service: service, warn: warn)
        do {
            let result = try await body(controller)
            await service.shutdown()
            return result
        } catch {
            await service.shutdown()
            throw error
        }
    }

    /// Resolves the server and the stored session to use on it, from one read of the session list.
    ///
    /// With `usingEnvironmentToken` and `SWAGGERCTL_TOKEN` set, the token is used instead and the session list
    /// is not read: the server is `--server`, else `SWAGGERCTL_SERVER`, else the default.
    /// - Parameters:
    ///   - serverFlag: The `--server` value, if given.
    ///   - email: The `--email` value, if given.
    ///   - usingEnvironmentToken: Whether the command uses `SWAGGERCTL_TOKEN` when it is set.
    /// - Returns: The server, and its active session (or the one for `email`) if there is one.
    /// - Throws: ``SwaggerError`` for a malformed URL or an unreadable session list.
    public func select(serverFlag: String?, email: String?, usingEnvironmentToken: Bool = false)
        throws(SwaggerError) -> SessionSelection
    {
        if usingEnvironmentToken, let token = configuration.environmentToken {
            let server = try configuration.server(flag: serverFlag, records: [])
            return SessionSelection(server: server, email: email, environmentToken: token)
        }
        let records = try index.records()
        let server = try configuration.server(flag: serverFlag, records: records)
        return SessionSelection(server: server, email: email, record: records.session(on: server.string, email: email))
    }

    // MARK: - Commands

    /// Logs in, stores the session, and fetches the profile straight away, as the original app did.
    ///
    /// When the profile request fails after a good login, the session is kept (its token is good) and the
    /// error says both.
    /// - Parameters:
    ///   - email: The account's e-mail.
    ///   - password: The account's password. It is sent to the server and never stored.
    ///   - selection: The server, and its active session, whose app id is reused.
    ///   - appIDFlag: The `--app-id` value, if given.
    ///   - dialect: How to talk to a server that is not the original API, from ``dialect(_:on:clientSecret:)``.
    ///   - clientSecret: The OAuth 2 client secret, kept with the tokens.
    /// - Returns: The new session's profile.
    /// - Throws: ``SwaggerError``.
    public func login(
        email: String, password: String, on selection: SessionSelection, appIDFlag: String?,
        dialect: ServerDialect? = nil, clientSecret: String? = nil
    ) async throws(SwaggerError) -> MainCoordinator.ProfileOutcome {
        let account = Account(server: selection.server.string, email: email)
        let appID = configuration.appID(flag: appIDFlag, saved: selection.record?.appId)
        let plainHTTP = configuration.allowsPlainHTTP || selection.record?.allowsPlainHTTP == true
        let servers = try [selection.server] + (dialect.map(Self.servers(of:)) ?? [])
        for server in servers { try requireProtected(server, allowed: plainHTTP, sending: "your password") }
        var coordinator = MainCoordinator()
        coordinator.loginRequested(
            account, appID: appID, allowsPlainHTTP: plainHTTP && !servers.allSatisfy(\.isProtected), dialect: dialect,
            clientSecret: clientSecret)
        let login: APIService.Login
        do throws(APIServiceError) {
            login =
                if let dialect {
                    try await service.login(dialect, email: email, password: password, clientSecret: clientSecret)
                } else {
                    try await service.login(server: selection.server, email: email, password: password, appID: appID)
                }
        } catch {
            throw message(for: error, on: account.server, email: email, kind: dialect?.kind ?? .original)
        }
        return try await profile(from: perform(coordinator.authenticated(login, now: Date()), &coordinator))
    }

    /// The profile, with the stored session or `SWAGGERCTL_TOKEN`: refreshed first when the access token has
    /// expired, and once more on a 401. A session the server no longer accepts is removed.
    /// - Parameters:
    ///   - selection: The server and session to use.
    ///   - allowSaved: Whether an unreachable server may be answered with the saved profile.
    /// - Returns: The profile and where it came from.
    /// - Throws: ``SwaggerError``; ``SwaggerError/Code/authentication`` when not logged in or the session ended.
    public func profile(_ selection: SessionSelection, allowSaved: Bool) async throws(SwaggerError)
        -> MainCoordinator.ProfileOutcome
    {
        try await profile(from: run(source(of: selection), for: .profile(allowSaved: allowSaved)))
    }

    /// An access token that has not expired, refreshed first when needed. It is never an expired token.
    /// - Parameter selection: The server and session to use.
    /// - Returns: The access token.
    /// - Throws: ``SwaggerError``.
    public func accessToken(_ selection: SessionSelection) async throws(SwaggerError) -> String {
        try await token(from: run(source(of: selection), for: .token))
    }

    /// Refreshes the stored session now, whatever its access token's expiry.
    /// - Parameter selection: The server and session to refresh.
    /// - Returns: The account, and when its new access token expires, if the token says.
    /// - Throws: ``SwaggerError``.
    public func refresh(_ selection: SessionSelection) async throws(SwaggerError) -> (Account, expiresAt: Date?) {
        let record = try storedRecord(of: selection)
        try requireProtected(.stored(record))
        var coordinator = MainCoordinator()
        let token = try await token(from: handle(coordinator.refreshRequested(record), &coordinator))
        return (record.account, JWTClaims.expiry(of: token))
    }

    /// The outcome of ``logout(_:revoke:)``.
    public enum LogoutOutcome: Sendable, Hashable {
        /// The session for this account was removed.
        case loggedOut(Account)
        /// There was no session to remove.
        case notLoggedIn
    }

    /// Removes the stored session from every store (its tokens, its record and its saved profile), and then,
    /// with `revoke`, ends it on the server within the request timeout. The local session is gone first, so a
    /// server that is down never keeps a token on this machine; a revocation that fails is a warning.
    /// - Parameters:
    ///   - selection: The server and session to remove.
    ///   - revoke: Whether to tell the server; `false` for `--local`, which reads no token.
    /// - Returns: What was removed.
    /// - Throws: ``SwaggerError`` when a store cannot be changed; the session is then left as it was.
    public func logout(_ selection: SessionSelection, revoke: Bool) async throws(SwaggerError) -> LogoutOutcome {
        guard let record = selection.record else { return try await logoutWithoutRecord(selection) }
        // Under the lock, so a refresh in another process cannot store new tokens after they are removed.
        let lock = try RefreshLock(for: record.account, in: lockDirectory)
        var credentials: Credentials?
        var unreadable: SwaggerError?
        if revoke {
            // A keyring that cannot be read cannot be cleared either; removal then says what to do, so a read
            // failure only matters when removal succeeds all the same.
            do throws(SwaggerError) {
                credentials = try await tokens.credentials(for: record)
            } catch {
                unreadable = error
            }
        }
        try await remove(record, releasing: lock)
        if let unreadable {
            warn(
                "the session was removed from this machine, but its token could not be read to end it on "
                    + "\(record.server): \(unreadable.message)")
        }
        if let credentials, Self.canRevoke(record, credentials) { await revokeOnServer(record, credentials) }
        return .loggedOut(record.account)
    }

    /// Removes what is left of a session that has no readable record: tokens from an interrupted login, and
    /// a record that cannot be read, which never blocks the other sessions and is removed here.
    private func logoutWithoutRecord(_ selection: SessionSelection) async throws(SwaggerError) -> LogoutOutcome {
        let server = selection.server.string
        var accounts = try damagedAccounts(of: selection)
        if let email = selection.email, !accounts.contains(where: { $0.email == email }) {
            accounts.append(Account(server: server, email: email))
        }
        var removed: Account?
        for account in accounts {
            let hadTokens = try await tokens.remove(account, recordedIn: nil)
            if try index.remove(account) || hadTokens { removed = account }
            _ = try? profiles?.remove(account)
        }
        return removed.map { .loggedOut($0) } ?? .notLoggedIn
    }

    /// The accounts of the selection's server (and e-mail, if given) whose records cannot be read.
    private func damagedAccounts(of selection: SessionSelection) throws(SwaggerError) -> [Account] {
        try index.damaged().compactMap { $0 }.filter {
            $0.server == selection.server.string && (selection.email == nil || $0.email == selection.email)
        }
    }

    /// Every stored session, most recently active first. Reads only the index, never a token.
    /// - Returns: The records.
    /// - Throws: ``SwaggerError`` when the index cannot be read.
    public func sessions() throws(SwaggerError) -> [SessionRecord] {
        try index.records()
    }

    // MARK: - Carrying out the coordinator's actions

    /// What a flow over a stored session or `SWAGGERCTL_TOKEN` ends with.
    enum Outcome {
        case profile(MainCoordinator.ProfileOutcome)
        case token(String)
        /// A token to send the person's own request with.
        case send(accessToken: String)
    }

    /// What is left to do once the refresh lock is released.
    private enum AfterLock {
        case use(MainCoordinator.Use)
        case loadSavedProfile(Account)
    }

    func source(of selection: SessionSelection) throws(SwaggerError) -> MainCoordinator.Source {
        if let token = selection.environmentToken {
            return .environment(token: token, server: selection.server.string)
        }
        return .stored(try storedRecord(of: selection))
    }

    private func storedRecord(of selection: SessionSelection) throws(SwaggerError) -> SessionRecord {
        guard let record = selection.record else {
            let server = selection.server.string
            if let damaged = try damagedAccounts(of: selection).first {
                throw SwaggerError(
                    .failure,
                    "The session record for \(damaged.email) on \(server) in \(index.path) cannot be read. Run "
                        + "`swaggerctl logout -s \(server) -e \(damaged.email)` to remove it, then log in again.")
            }
            let who = selection.email.map { "\($0) is not" } ?? "You are not"
            let login = "swaggerctl login -s \(selection.server) -e \(selection.email ?? "you@example.com")"
            throw SwaggerError(.authentication, "\(who) logged in to \(selection.server). Run `\(login)`.")
        }
        return record
    }

    private func run(_ source: MainCoordinator.Source, for purpose: MainCoordinator.Purpose)
        async throws(SwaggerError) -> Outcome
    {
        try requireProtected(source)
        var coordinator = MainCoordinator()
        return try await handle(coordinator.start(source, for: purpose, now: Date()), &coordinator)
    }

    func handle(_ action: MainCoordinator.StartAction, _ coordinator: inout MainCoordinator)
        async throws(SwaggerError) -> Outcome
    {
        switch action {
        case .readAccessToken(let record):
            switch coordinator.tokenRead(try await tokens.accessToken(for: record)) {
            case .use(let use): return try await perform(use, &coordinator)
            case .fail(let failure): throw message(for: failure)
            }
        case .lockForRefresh(let account):
            return try await refreshUnderLock(account, &coordinator)
        case .use(let use):
            return try await perform(use, &coordinator)
        case .fail(let failure):
            throw message(for: failure)
        }
    }

    private func perform(_ use: MainCoordinator.Use, _ coordinator: inout MainCoordinator)
        async throws(SwaggerError) -> Outcome
    {
        switch use {
        case .deliver(let accessToken):
            return .token(accessToken)
        case .send(let accessToken):
            return .send(accessToken: accessToken)
        case .fetchProfile(let server, let dialect, let accessToken):
            let profile: Profile
            do throws(APIServiceError) {
                profile =
                    if let dialect {
                        try await service.fetchProfile(dialect, accessToken: accessToken)
                    } else {
                        try await service.fetchProfile(server: serverURL(server), accessToken: accessToken)
                    }
            } catch {
                switch coordinator.profileFailed(error) {
                case .lockForRefresh(let account): return try await refreshUnderLock(account, &coordinator)
                case .endSession(let end): throw await endSession(end, releasing: nil)
                case .loadSavedProfile(let account): return try await loadSavedProfile(account, &coordinator)
                case .storeNewSession(let session): return try await storeNewSession(session, &coordinator)
                case .fail(let failure): throw message(for: failure)
                }
            }
            switch coordinator.profileReceived(profile) {
            case .saveAndShow(let outcome, let account): return .profile(save(outcome, for: account))
            case .show(let outcome): return .profile(outcome)
            case .storeNewSession(let session): return try await storeNewSession(session, &coordinator)
            }
        }
    }

    /// Stores a login's session once its profile request has answered: the tokens first, then the record.
    private func storeNewSession(_ session: Session, _ coordinator: inout MainCoordinator)
        async throws(SwaggerError) -> Outcome
    {
        let keystore = try await tokens.store(session.credentials, for: session.account)
        try index.save(coordinator.tokensStored(in: keystore))
        switch coordinator.sessionSaved() {
        case .saveAndShow(let outcome, let account): return .profile(save(outcome, for: account))
        case .fail(let failure): throw message(for: failure)
        }
    }

    /// Saves a profile for offline use; a profile that cannot be saved is still shown.
    private func save(_ outcome: MainCoordinator.ProfileOutcome, for account: Account) -> MainCoordinator.ProfileOutcome
    {
        do {
            try profiles?.save(outcome.profile, for: account, receivedAt: Date())
        } catch {
            warn("the profile could not be saved for offline use: \(error.message)")
        }
        return outcome
    }

    func refreshUnderLock(_ account: Account, _ coordinator: inout MainCoordinator)
        async throws(SwaggerError) -> Outcome
    {
        switch try await withRefreshLock(account, &coordinator) {
        case .use(let use): return try await perform(use, &coordinator)
        case .loadSavedProfile(let account): return try await loadSavedProfile(account, &coordinator)
        }
    }

    /// Takes the refresh lock, reads the session again, and refreshes if the coordinator says so. The lock is
    /// released on return, before the new token is used.
    private func withRefreshLock(_ account: Account, _ coordinator: inout MainCoordinator)
        async throws(SwaggerError) -> AfterLock
    {
        let lock = try RefreshLock(for: account, in: lockDirectory)
        let record = try index.record(server: account.server, email: account.email)
        let credentials = if let record { try await tokens.credentials(for: record) } else { Credentials?.none }
        let request: MainCoordinator.Refresh
        switch coordinator.lockTaken(record: record, credentials: credentials, now: Date()) {
        case .refresh(let refresh): request = refresh
        case .use(let use): return .use(use)
        case .endSession(let end): throw await endSession(end, releasing: lock)
        case .fail(let failure): throw message(for: failure)
        }
        let login: APIService.Login
        do throws(APIServiceError) {
            login =
                if let dialect = request.dialect {
                    try await service.refresh(
                        dialect, refreshToken: request.refreshToken, clientSecret: request.clientSecret)
                } else {
                    try await service.refresh(
                        server: serverURL(request.server), refreshToken: request.refreshToken, appID: request.appID)
                }
        } catch {
            switch coordinator.refreshFailed(error) {
            case .endSession(let end): throw await endSession(end, releasing: lock)
            case .loadSavedProfile(let account): return .loadSavedProfile(account)
            case .fail(let failure): throw message(for: failure)
            }
        }
        // The server has spent the old refresh token: from here on, only the new tokens are any good.
        let session = coordinator.refreshed(login, now: Date())
        do {
            try await tokens.replace(session)
            try index.save(session.record)
        } catch {
            throw SwaggerError(
                error.code,
                "The server renewed the session for \(account.email) on \(account.server), but the new tokens "
                    + "could not be stored, so the session is now unusable: \(error.message) Fix that, then run "
                    + "`swaggerctl login -s \(account.server) -e \(account.email)`.")
        }
        return .use(coordinator.rotationStored())
    }

    private func loadSavedProfile(_ account: Account, _ coordinator: inout MainCoordinator)
        async throws(SwaggerError) -> Outcome
    {
        var saved: SavedProfile?
        do {
            saved = try profiles?.profile(for: account)
        } catch {
            warn(error.message)
        }
        switch coordinator.savedProfileLoaded(saved) {
        case .show(let outcome): return .profile(outcome)
        case .fail(let failure): throw message(for: failure)
        }
    }

    /// Removes a session the server no longer accepts, and returns the error that says so.
    private func endSession(_ end: MainCoordinator.SessionEndedAction, releasing held: consuming RefreshLock?)
        async -> SwaggerError
    {
        let record = end.record
        let ended = message(for: .sessionEnded(record, because: end.reason))
        do throws(SwaggerError) {
            switch consume held {
            case .some(let lock): try await remove(record, releasing: lock)
            case .none: try await remove(record, releasing: RefreshLock(for: record.account, in: lockDirectory))
            }
        } catch {
            return SwaggerError(
                ended.code, "\(ended.message) It could not be removed from this machine: \(error.message)")
        }
        return ended
    }

    /// Removes tokens first and the record next, so a failure never leaves tokens that nothing lists; then the
    /// saved profile, which is personal data; and last the lock file, which only a stored session needs.
    private func remove(_ record: SessionRecord, releasing lock: consuming RefreshLock) async throws(SwaggerError) {
        _ = try await tokens.remove(record.account, recordedIn: record.keystore)
        try index.remove(record.account)
        do {
            try profiles?.remove(record.account)
        } catch {
            warn("the saved profile could not be deleted: \(error.message)")
        }
        lock.releaseRemovingFile()
    }

    /// Refuses, before anything is sent, to send a session's tokens over plain HTTP to another machine, unless
    /// the login allowed it or `SWAGGERCTL_ALLOW_HTTP` does. Every request of a flow goes to the source's server.
    func requireProtected(_ source: MainCoordinator.Source) throws(SwaggerError) {
        switch source {
        case .stored(let record):
            let servers = try [ServerURL(record.server)] + (record.dialect.map(Self.servers(of:)) ?? [])
            for server in servers {
                try requireProtected(
                    server, allowed: configuration.allowsPlainHTTP || record.allowsPlainHTTP == true,
                    sending: "the tokens for \(record.email)")
            }
        case .environment(_, let server):
            try requireProtected(
                ServerURL(server), allowed: configuration.allowsPlainHTTP, sending: "the token in SWAGGERCTL_TOKEN")
        }
    }

    private func requireProtected(_ server: ServerURL, allowed: Bool, sending what: String) throws(SwaggerError) {
        guard !server.isProtected, !allowed else { return }
        throw SwaggerError(
            .usage,
            "Refusing to send \(what) to \(server) over plain HTTP, where anyone on the network between can read "
                + "what is sent. Use https://, or, if you accept that, log in with --allow-http (or set "
                + "SWAGGERCTL_ALLOW_HTTP=1).")
    }

    /// The origins of every endpoint of `dialect`, which the plain-HTTP rule applies to as to the server.
    static func servers(of dialect: ServerDialect) throws(SwaggerError) -> [ServerURL] {
        var servers: [ServerURL] = []
        for text in dialect.urls {
            guard let url = URL(string: text), let origin = ServerURL.origin(of: url) else {
                throw SwaggerError(.usage, "\"\(text.prefix(200))\" is not an http or https URL.")
            }
            servers.append(try ServerURL(origin.absoluteString))
        }
        return servers
    }

    /// A stored server URL, which was canonical when it was stored; one that no longer parses is a contract
    /// violation of the record, reported as the request's failure.
    private func serverURL(_ text: String) throws(APIServiceError) -> ServerURL {
        do {
            return try ServerURL(text)
        } catch {
            throw .contractViolation("the stored server URL cannot be read: \(error.message)")
        }
    }

    /// Where the refresh locks are: the configuration folder, beside the session list they guard.
    var lockDirectory: PrivateDirectory { PrivateDirectory(configuration.directory) }

    private func profile(from outcome: Outcome) -> MainCoordinator.ProfileOutcome {
        guard case .profile(let profile) = outcome else {
            preconditionFailure("a profile flow ends with a profile")
        }
        return profile
    }

    private func token(from outcome: Outcome) -> String {
        guard case .token(let token) = outcome else { preconditionFailure("a token flow ends with a token") }
        return token
    }
}
