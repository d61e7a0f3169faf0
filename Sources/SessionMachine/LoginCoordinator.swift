import FoundationEssentials
import SwaggerModel

/// The decisions of a login, as a value-type state machine with no I/O: which app id to send, whether the
/// password may cross plain HTTP, what the new session holds, and what is stored when its first profile
/// request fails.
///
/// The order is the original app's: post the credentials, fetch the profile with the new token, and only then
/// store the session, so that an address that answers with something other than a profile stores nothing.
package struct LoginCoordinator: Sendable {
    /// What the person asked for, with what earlier sessions and the environment say.
    package struct Request: Sendable, Hashable, Redacting {
        package var account: Account
        package var serverDescription: ServerDescription
        package var appIDFlag: String?
        package var appIDFromEnvironment: String?
        /// The server's active session, whose app id and plain-HTTP allowance a new login keeps.
        package var previous: SessionRecord?
        /// `--allow-http` or `SWAGGERCTL_ALLOW_HTTP`.
        package var plainHTTP: PlainHTTP
        /// The OAuth 2 client secret, kept with the tokens.
        package var clientSecret: String?
        /// `--ca-cert` or `SWAGGERCTL_CA_CERT`, as an absolute path.
        package var caCertificate: String?

        package init(
            account: Account, serverDescription: ServerDescription, appIDFlag: String? = nil,
            appIDFromEnvironment: String? = nil, previous: SessionRecord? = nil, plainHTTP: PlainHTTP = PlainHTTP(),
            clientSecret: String? = nil, caCertificate: String? = nil
        ) {
            self.account = account
            self.serverDescription = serverDescription
            self.appIDFlag = appIDFlag
            self.appIDFromEnvironment = appIDFromEnvironment
            self.previous = previous
            self.plainHTTP = plainHTTP
            self.clientSecret = clientSecret
            self.caCertificate = caCertificate
        }
    }

    /// The app id used when nothing else names one.
    package static let defaultAppID = "swaggerctl-demo"

    /// What follows ``loginRequested(_:)``.
    package enum StartAction: Sendable, Hashable {
        /// Post the credentials as `attempt` says, then send ``authenticated(_:now:)`` or
        /// ``authenticationFailed(_:)``.
        case authenticate(LoginAttempt)
        case fail(SessionFailure)
    }

    /// The tokens to store for the new session, then send ``tokensStored(in:)`` or ``tokensNotStored(_:)``.
    package struct StoreTokens: Sendable, Hashable, Redacting {
        package var account: Account
        package var credentials: Credentials
    }

    /// What follows ``profileFailed(_:)``.
    package enum ProfileFailedAction: Sendable, Hashable {
        case storeTokens(StoreTokens)
        case fail(SessionFailure)
    }

    /// What follows ``recordSaved()``.
    package enum SavedAction: Sendable, Hashable {
        /// Save the profile for this account, then show it.
        case saveAndShow(ProfileOutcome, Account)
        /// The session is stored, but its profile could not be fetched.
        case fail(SessionFailure)
    }

    /// What follows ``recordNotSaved(_:)``: the tokens that nothing would list any more are removed from this
    /// backend, and the failure reported.
    package struct DiscardTokens: Sendable, Hashable {
        package var account: Account
        package var backend: BackendKind
        package var failure: SessionFailure
    }

    /// A login whose credentials are on their way.
    private struct Pending: Sendable {
        var attempt: LoginAttempt
        var allowsPlainHTTP: Bool?
        var clientSecret: String?
        var caCertificate: String?
    }

    /// A login that the server accepted: everything the new session's record needs but its backend.
    private struct Granted: Sendable {
        var pending: Pending
        var credentials: Credentials
        var username: String?
        var savedAt: Date
        var issuedAt: Date?
        var expiresAt: Date?

        func record(in backend: BackendKind) -> SessionRecord {
            SessionRecord(
                account: pending.attempt.account, appID: pending.attempt.appID, username: username, backend: backend,
                savedAt: savedAt, expiresAt: expiresAt, issuedAt: issuedAt,
                refreshable: credentials.refreshToken != nil, allowsPlainHTTP: pending.allowsPlainHTTP,
                caCertificate: pending.caCertificate, serverDescription: pending.attempt.serverDescription)
        }
    }

    private enum State: Sendable {
        case idle
        case authenticating(Pending)
        case checkingProfile(Granted)
        case storingTokens(Granted, Result<Profile, APIServiceError>)
        case savingRecord(SessionRecord, Result<Profile, APIServiceError>)
        case finished
    }

    private var state: State = .idle

    package init() {}

    /// The person asked to log in.
    package mutating func loginRequested(_ request: Request) -> StartAction {
        guard case .idle = state else { invalid("loginRequested") }
        state = .finished
        let server = request.account.server
        let plainHTTP = request.plainHTTP
        let saved = request.previous?.allowsPlainHTTP == true
        if let refused = plainHTTP.refusal(server, request.serverDescription, sessionAllows: saved) {
            return .fail(.plainHTTPRefused(server: refused, sending: .password))
        }
        let attempt = LoginAttempt(
            account: request.account, serverDescription: request.serverDescription,
            appID: request.appIDFlag ?? request.appIDFromEnvironment ?? request.previous?.appID ?? Self.defaultAppID)
        // Saved only where it matters, so later commands to a plain-HTTP server need no flag.
        let needed = PlainHTTP(proxies: plainHTTP.proxies).refusal(server, request.serverDescription) != nil
        state = .authenticating(
            Pending(
                attempt: attempt, allowsPlainHTTP: needed ? true : nil, clientSecret: request.clientSecret,
                caCertificate: request.caCertificate ?? request.previous?.caCertificate))
        return .authenticate(attempt)
    }

    /// The server accepted the credentials.
    /// - Returns: The profile request that checks the new session, before anything is stored.
    package mutating func authenticated(_ grant: TokenGrant, now: Date) -> ProfileRequest {
        guard case .authenticating(let pending) = state else { invalid("authenticated") }
        var credentials = grant.credentials
        credentials.clientSecret = pending.clientSecret
        let (issuedAt, expiresAt) = Expiry.times(of: grant, now: now)
        state = .checkingProfile(
            Granted(
                pending: pending, credentials: credentials, username: grant.username, savedAt: now,
                issuedAt: issuedAt, expiresAt: expiresAt))
        let attempt = pending.attempt
        return ProfileRequest(
            server: attempt.account.server, serverDescription: attempt.serverDescription,
            accessToken: grant.accessToken)
    }

    /// The server refused the credentials, or could not be asked.
    package mutating func authenticationFailed(_ error: APIServiceError) -> SessionFailure {
        guard case .authenticating(let pending) = state else { invalid("authenticationFailed") }
        state = .finished
        let account = pending.attempt.account
        return .requestFailed(
            error, server: account.server, email: account.email, kind: pending.attempt.serverDescription.kind)
    }

    /// The new session's profile arrived.
    package mutating func profileReceived(_ profile: Profile) -> StoreTokens {
        guard case .checkingProfile(let granted) = state else { invalid("profileReceived") }
        state = .storingTokens(granted, .success(profile))
        return StoreTokens(account: granted.pending.attempt.account, credentials: granted.credentials)
    }

    /// The new session's profile request failed.
    package mutating func profileFailed(_ error: APIServiceError) -> ProfileFailedAction {
        guard case .checkingProfile(let granted) = state else { invalid("profileFailed") }
        let attempt = granted.pending.attempt
        if case .notAProfile = error {
            // An answer that is not a profile means the wrong place or the wrong kind of server: a session that
            // no later command could use is not stored.
            state = .finished
            return .fail(.unusableProfile(error, attempt.account, attempt.serverDescription))
        }
        // Anything else leaves a session that works, such as a profile endpoint that is down for now.
        state = .storingTokens(granted, .failure(error))
        return .storeTokens(StoreTokens(account: attempt.account, credentials: granted.credentials))
    }

    /// The tokens are stored, in `backend`.
    /// - Returns: The new session's record, for the owner to save before sending ``recordSaved()`` or
    ///   ``recordNotSaved(_:)``.
    package mutating func tokensStored(in backend: BackendKind) -> SessionRecord {
        guard case .storingTokens(let granted, let profile) = state else { invalid("tokensStored") }
        let record = granted.record(in: backend)
        state = .savingRecord(record, profile)
        return record
    }

    /// No backend could store the tokens; nothing was stored.
    package mutating func tokensNotStored(_ error: SwaggerError) -> SessionFailure {
        guard case .storingTokens(let granted, _) = state else { invalid("tokensNotStored") }
        state = .finished
        return .notStored(granted.pending.attempt.account, error)
    }

    /// The new session's record is saved.
    package mutating func recordSaved() -> SavedAction {
        guard case .savingRecord(let record, let profile) = state else { invalid("recordSaved") }
        state = .finished
        switch profile {
        case .success(let profile):
            return .saveAndShow(
                ProfileOutcome(profile: profile, origin: .server(renewed: false), kind: record.kind), record.account)
        case .failure(let error):
            // The login's token is good and stored; only the profile is missing.
            return .fail(.profileAfterLogin(error, record))
        }
    }

    /// The record could not be saved, so no later command would find the stored tokens.
    package mutating func recordNotSaved(_ error: SwaggerError) -> DiscardTokens {
        guard case .savingRecord(let record, _) = state else { invalid("recordNotSaved") }
        state = .finished
        return DiscardTokens(
            account: record.account, backend: record.backend, failure: .notStored(record.account, error))
    }

    private func invalid(_ event: String) -> Never {
        let name =
            switch state {
            case .idle: "idle"
            case .authenticating: "authenticating"
            case .checkingProfile: "checkingProfile"
            case .storingTokens: "storingTokens"
            case .savingRecord: "savingRecord"
            case .finished: "finished"
            }
        preconditionFailure("LoginCoordinator: \(event) cannot happen in state \(name)")
    }
}
