import Foundation

/// Carries out what the person asked for: owns a ``MainCoordinator``, performs the I/O that its actions name
/// (the ``APIService``, the ``TokenStore`` and the ``SessionIndex``), and feeds the outcomes back in.
///
/// Every method throws only ``SwaggerError``, whose message is ready to show.
public struct SessionController: Sendable {
    /// The settings in force.
    public let configuration: Configuration
    /// The stored sessions.
    public let index: SessionIndex
    /// Where tokens are kept.
    public let tokens: TokenStore
    private let service: APIService

    /// Creates a controller.
    /// - Parameters:
    ///   - configuration: The settings in force.
    ///   - tokens: Where tokens are kept.
    ///   - service: The API client.
    public init(configuration: Configuration, tokens: TokenStore, service: APIService) {
        self.configuration = configuration
        self.index = SessionIndex(directory: configuration.directory)
        self.tokens = tokens
        self.service = service
    }

    /// Runs `body` with a controller for `configuration`, and closes its connections afterwards.
    /// - Parameters:
    ///   - configuration: The settings in force.
    ///   - delegate: Receives the API service's reports, such as waiting on and off.
    ///   - warn: Receives one line for each keyring fallback, without the "warning:" prefix.
    ///   - body: The work to do.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public static func withController<Result: Sendable>(
        configuration: Configuration, delegate: (any APIServiceDelegate)? = nil,
        warn: @escaping @Sendable (String) -> Void = { _ in },
        _ body: (SessionController) async throws(SwaggerError) -> Result
    ) async throws(SwaggerError) -> Result {
        let service = APIService(timeout: configuration.timeout, delegate: delegate)
        let controller = SessionController(
            configuration: configuration, tokens: TokenStore(configuration: configuration, warn: warn),
            service: service)
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
    /// - Parameters:
    ///   - serverFlag: The `--server` value, if given.
    ///   - email: The `--email` value, if given.
    /// - Returns: The server, and its newest session (or the one for `email`) if there is one.
    /// - Throws: ``SwaggerError`` for a malformed URL or an unreadable session list.
    public func select(serverFlag: String?, email: String?) throws(SwaggerError) -> SessionSelection {
        let records = try index.records()
        let server = try configuration.server(flag: serverFlag, records: records)
        return SessionSelection(server: server, email: email, record: records.session(on: server.string, email: email))
    }

    /// Logs in, stores the session, and fetches the profile straight away, as the original app did.
    /// - Parameters:
    ///   - email: The account's e-mail.
    ///   - password: The account's password. It is sent to the server and never stored.
    ///   - selection: The server, and its newest session, whose app id is reused.
    ///   - appIDFlag: The `--app-id` value, if given.
    /// - Returns: The new session's profile.
    /// - Throws: ``SwaggerError``.
    public func login(email: String, password: String, on selection: SessionSelection, appIDFlag: String?)
        async throws(SwaggerError) -> Profile
    {
        let account = Account(server: selection.server.string, email: email)
        let appID = configuration.appID(flag: appIDFlag, saved: selection.record?.appId)
        var coordinator = MainCoordinator()
        let action = coordinator.loginRequested(account)
        return try await drive(
            &coordinator, from: action, for: account, password: password, appID: appID, recorded: nil)
    }

    /// Fetches the profile with the stored session. A token the server rejects is removed.
    /// - Parameter selection: The server and session to use.
    /// - Returns: The profile.
    /// - Throws: ``SwaggerError``; ``SwaggerError/Code/authentication`` when not logged in.
    public func details(_ selection: SessionSelection) async throws(SwaggerError) -> Profile {
        let record = try recordedSession(selection)
        var coordinator = MainCoordinator()
        _ = coordinator.restored(record)
        let action = coordinator.detailsRequested()
        return try await drive(
            &coordinator, from: action, for: record.account, password: nil, appID: nil, recorded: record.keystore)
    }

    /// The outcome of ``logout(_:)``.
    public enum LogoutOutcome: Sendable, Hashable {
        /// The session for this account was removed.
        case loggedOut(Account)
        /// There was no session to remove.
        case notLoggedIn
    }

    /// Removes the stored session: its tokens from every store that holds them, then its record. No token is
    /// read.
    /// - Parameter selection: The server and session to remove.
    /// - Returns: What was removed.
    /// - Throws: ``SwaggerError`` when a store cannot be changed; the session is then left as it was.
    public func logout(_ selection: SessionSelection) async throws(SwaggerError) -> LogoutOutcome {
        guard let record = selection.record else {
            // Tokens without a record (from an interrupted login) are removed too.
            guard let email = selection.email else { return .notLoggedIn }
            let account = Account(server: selection.server.string, email: email)
            return try await tokens.remove(account, recordedIn: nil) ? .loggedOut(account) : .notLoggedIn
        }
        var coordinator = MainCoordinator()
        _ = coordinator.restored(record)
        guard case .remove(let account) = coordinator.logoutRequested() else { return .notLoggedIn }
        try await remove(account, recordedIn: record.keystore)
        return .loggedOut(account)
    }

    /// Every stored session, newest first. Reads only the index, never a token.
    /// - Returns: The records.
    /// - Throws: ``SwaggerError`` when the index cannot be read.
    public func sessions() throws(SwaggerError) -> [SessionRecord] {
        try index.records()
    }

    /// The stored session that `selection` names, with its tokens.
    /// - Parameter selection: The server and session to use.
    /// - Returns: The session with its tokens.
    /// - Throws: ``SwaggerError`` with code ``SwaggerError/Code/authentication`` when there is none.
    public func storedSession(_ selection: SessionSelection) async throws(SwaggerError) -> Session {
        let record = try recordedSession(selection)
        return Session(record: record, credentials: try await credentials(for: record))
    }

    /// The record of the session that `selection` names.
    private func recordedSession(_ selection: SessionSelection) throws(SwaggerError) -> SessionRecord {
        guard let record = selection.record else {
            let who = selection.email.map { "\($0) is not" } ?? "You are not"
            let login = "swaggerctl login -s \(selection.server) -e \(selection.email ?? "you@example.com")"
            throw SwaggerError(.authentication, "\(who) logged in to \(selection.server). Run `\(login)`.")
        }
        return record
    }

    /// The tokens of `record`'s session, from whichever store holds them.
    private func credentials(for record: SessionRecord) async throws(SwaggerError) -> Credentials {
        guard let credentials = try await tokens.credentials(for: record) else {
            throw SwaggerError(
                .authentication,
                "The session for \(record.email) on \(record.server) has no stored token. "
                    + "Run `swaggerctl login -s \(record.server) -e \(record.email)` to log in again.")
        }
        return credentials
    }

    /// Carries out `coordinator`'s actions until it shows a profile or reports an error. `recorded` is the
    /// backend that a restored session's record names, and `nil` for a login.
    private func drive(
        _ coordinator: inout MainCoordinator, from first: MainCoordinator.Action, for account: Account,
        password: String?, appID: String?, recorded: KeystoreKind?
    ) async throws(SwaggerError) -> Profile {
        var action = first
        // The session this process stored: its token need not be read back from the keystore.
        var stored: Session?
        while true {
            switch action {
            case .authenticate:
                let server = try ServerURL(account.server)
                do throws(APIServiceError) {
                    let result = try await service.login(
                        server: server, email: account.email, password: password ?? "", appID: appID ?? "")
                    let record = SessionRecord(
                        account: account, appId: appID ?? Configuration.defaultAppID, username: result.username,
                        keystore: tokens.choice == .file ? .file : .secretService, savedAt: Date(),
                        expiresAt: JWTClaims.expiry(of: result.credentials.accessToken))
                    action = coordinator.authenticated(Session(record: record, credentials: result.credentials))
                } catch {
                    action = coordinator.failed(error)
                }
            case .store(var session):
                session.record.keystore = try await tokens.store(session.credentials, for: session.account)
                try index.save(session.record)
                stored = session
                action = coordinator.stored()
            case .fetchProfile(let record):
                let server = try ServerURL(record.server)
                let credentials =
                    if let stored, stored.account == record.account { stored.credentials } else {
                        try await credentials(for: record)
                    }
                do throws(APIServiceError) {
                    let profile = try await service.fetchProfile(server: server, accessToken: credentials.accessToken)
                    action = coordinator.profileReceived(profile)
                } catch {
                    action = coordinator.failed(error)
                }
            case .show(let profile):
                return profile
            case .discard(let dead, let error):
                try await remove(dead, recordedIn: stored?.record.keystore ?? recorded)
                throw message(for: error, on: account.server, email: account.email, removed: true)
            case .report(let error):
                throw message(for: error, on: account.server, email: account.email)
            case .remove, .none:
                throw SwaggerError(.failure, "swaggerctl reached an unexpected state. Please report this as a bug.")
            }
        }
    }

    /// Removes tokens first and the record last, so a failure never leaves tokens that nothing lists.
    private func remove(_ account: Account, recordedIn recorded: KeystoreKind?) async throws(SwaggerError) {
        _ = try await tokens.remove(account, recordedIn: recorded)
        try index.remove(account)
    }
}
