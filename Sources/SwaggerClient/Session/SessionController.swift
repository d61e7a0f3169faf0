import Foundation

/// Carries out what the person asked for: owns a ``MainCoordinator``, performs the I/O that its actions name
/// (the ``APIService``, the ``Keystore`` and the ``SessionIndex``), and feeds the outcomes back in.
///
/// Every method throws only ``SwaggerError``, whose message is ready to show.
public struct SessionController: Sendable {
    /// The settings in force.
    public let configuration: Configuration
    /// The stored sessions.
    public let index: SessionIndex
    /// Where tokens are kept.
    public let keystore: any Keystore
    private let service: APIService

    /// Creates a controller.
    /// - Parameters:
    ///   - configuration: The settings in force.
    ///   - keystore: Where tokens are kept.
    ///   - service: The API client.
    public init(configuration: Configuration, keystore: any Keystore, service: APIService) {
        self.configuration = configuration
        self.index = SessionIndex(directory: configuration.directory)
        self.keystore = keystore
        self.service = service
    }

    /// Runs `body` with a controller for `configuration`, and closes its connections afterwards.
    /// - Parameters:
    ///   - configuration: The settings in force.
    ///   - delegate: Receives the API service's reports, such as waiting on and off.
    ///   - body: The work to do.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public static func withController<Result: Sendable>(
        configuration: Configuration, delegate: (any APIServiceDelegate)? = nil,
        _ body: (SessionController) async throws(SwaggerError) -> Result
    ) async throws(SwaggerError) -> Result {
        let service = APIService(timeout: configuration.timeout, delegate: delegate)
        let controller = SessionController(
            configuration: configuration, keystore: FileKeystore(directory: configuration.directory),
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

    /// The server to use, from `--server`, the environment, the last login, or the default.
    /// - Parameter flag: The `--server` value, if given.
    /// - Returns: The normalised server URL.
    /// - Throws: ``SwaggerError`` for a malformed URL or an unreadable session list.
    public func server(flag: String?) throws(SwaggerError) -> ServerURL {
        try configuration.server(flag: flag, index: index)
    }

    /// Logs in, stores the session, and fetches the profile straight away, as the original app did.
    /// - Parameters:
    ///   - email: The account's e-mail.
    ///   - password: The account's password. It is sent to the server and never stored.
    ///   - server: The API's base URL.
    ///   - appIDFlag: The `--app-id` value, if given.
    /// - Returns: The new session's profile.
    /// - Throws: ``SwaggerError``.
    public func login(email: String, password: String, server: ServerURL, appIDFlag: String?)
        async throws(SwaggerError) -> Profile
    {
        let account = Account(server: server.string, email: email)
        let appID = configuration.appID(flag: appIDFlag, saved: try index.record(server: server.string)?.appId)
        var coordinator = MainCoordinator()
        let action = coordinator.loginRequested(account)
        return try await drive(&coordinator, from: action, for: account, password: password, appID: appID)
    }

    /// Fetches the profile with the stored session. A token the server rejects is removed.
    /// - Parameters:
    ///   - server: The API's base URL.
    ///   - email: The account to use, or `nil` for the server's newest session.
    /// - Returns: The profile.
    /// - Throws: ``SwaggerError``; ``SwaggerError/Code/authentication`` when not logged in.
    public func details(server: ServerURL, email: String?) async throws(SwaggerError) -> Profile {
        let session = try await storedSession(server: server, email: email)
        var coordinator = MainCoordinator()
        _ = coordinator.restored(session)
        let action = coordinator.detailsRequested()
        return try await drive(&coordinator, from: action, for: session.account, password: nil, appID: nil)
    }

    /// The outcome of ``logout(server:email:)``.
    public enum LogoutOutcome: Sendable, Hashable {
        /// The session for this account was removed.
        case loggedOut(Account)
        /// There was no session to remove.
        case notLoggedIn
    }

    /// Removes the stored session for `server`: its tokens from the keystore, then its record.
    /// - Parameters:
    ///   - server: The API's base URL.
    ///   - email: The account to log out, or `nil` for the server's newest session.
    /// - Returns: What was removed.
    /// - Throws: ``SwaggerError`` when the stores cannot be changed.
    public func logout(server: ServerURL, email: String?) async throws(SwaggerError) -> LogoutOutcome {
        guard let record = try index.record(server: server.string, email: email) else {
            // Tokens without a record (from an interrupted login) are removed too.
            if let email, try await keystore.removeCredentials(for: Account(server: server.string, email: email)) {
                return .loggedOut(Account(server: server.string, email: email))
            }
            return .notLoggedIn
        }
        var coordinator = MainCoordinator()
        let credentials = try await keystore.credentials(for: record.account) ?? Credentials(accessToken: "")
        _ = coordinator.restored(Session(record: record, credentials: credentials))
        guard case .remove(let account) = coordinator.logoutRequested() else { return .notLoggedIn }
        try await remove(account)
        return .loggedOut(account)
    }

    /// Every stored session, newest first. Reads only the index, never a token.
    /// - Returns: The records.
    /// - Throws: ``SwaggerError`` when the index cannot be read.
    public func sessions() throws(SwaggerError) -> [SessionRecord] {
        try index.records()
    }

    /// The stored session for `server`.
    /// - Parameters:
    ///   - server: The API's base URL.
    ///   - email: The account to use, or `nil` for the server's newest session.
    /// - Returns: The session with its tokens.
    /// - Throws: ``SwaggerError`` with code ``SwaggerError/Code/authentication`` when there is none.
    public func storedSession(server: ServerURL, email: String?) async throws(SwaggerError) -> Session {
        let login = "swaggerctl login -s \(server) -e \(email ?? "you@example.com")"
        guard let record = try index.record(server: server.string, email: email) else {
            let who = email.map { "\($0) is not" } ?? "You are not"
            throw SwaggerError(.authentication, "\(who) logged in to \(server). Run `\(login)`.")
        }
        guard let credentials = try await keystore.credentials(for: record.account) else {
            throw SwaggerError(
                .authentication,
                "The session for \(record.email) on \(server) has no stored token. Run `\(login)` to log in again.")
        }
        return Session(record: record, credentials: credentials)
    }

    private func drive(
        _ coordinator: inout MainCoordinator, from first: MainCoordinator.Action, for account: Account,
        password: String?, appID: String?
    ) async throws(SwaggerError) -> Profile {
        var action = first
        while true {
            switch action {
            case .authenticate:
                let server = try ServerURL(account.server)
                do throws(APIServiceError) {
                    let result = try await service.login(
                        server: server, email: account.email, password: password ?? "", appID: appID ?? "")
                    let record = SessionRecord(
                        account: account, appId: appID ?? Configuration.defaultAppID, username: result.username,
                        keystore: keystore.kind, savedAt: Date(),
                        expiresAt: JWTClaims.expiry(of: result.credentials.accessToken))
                    action = coordinator.authenticated(Session(record: record, credentials: result.credentials))
                } catch {
                    action = coordinator.failed(error)
                }
            case .store(let session):
                try await keystore.store(session.credentials, for: session.account)
                try index.save(session.record)
                action = coordinator.stored()
            case .fetchProfile(let session):
                let server = try ServerURL(session.record.server)
                do throws(APIServiceError) {
                    let profile = try await service.fetchProfile(
                        server: server, accessToken: session.credentials.accessToken)
                    action = coordinator.profileReceived(profile)
                } catch {
                    action = coordinator.failed(error)
                }
            case .show(let profile):
                return profile
            case .discard(let dead, let error):
                try await remove(dead)
                throw message(for: error, on: account.server, email: account.email, removed: true)
            case .report(let error):
                throw message(for: error, on: account.server, email: account.email)
            case .remove, .none:
                throw SwaggerError(.failure, "swaggerctl reached an unexpected state. Please report this as a bug.")
            }
        }
    }

    /// Removes tokens first and the record last, so a failure never leaves tokens that nothing lists.
    private func remove(_ account: Account) async throws(SwaggerError) {
        _ = try await keystore.removeCredentials(for: account)
        try index.remove(account)
    }
}
