import FoundationEssentials

/// The session flow's decisions, as a value-type state machine with no I/O.
///
/// ``SessionController`` owns one for each command. It performs the action that an event returns, and feeds
/// the outcome back in as the next event. Each event returns its own action type, which holds only the
/// actions that can follow it, so the owner never meets an action that makes no sense where it is. Each
/// state carries everything the flow needs, so the owner keeps no copy of the session.
///
/// The decisions made here:
/// - refresh before using an access token that has expired or expires within ``expiryMargin`` (or, for a token
///   that lives less than twice that, within the second half of its life);
/// - after taking the refresh lock, use the tokens another process stored meanwhile rather than spend the
///   refresh token a second time;
/// - on a 401, refresh once and repeat the request once;
/// - end the session when the server rejects the refresh, or when the profile is refused again after one
///   (401) or forbidden (403);
/// - for `swaggerctl api`, refresh once and repeat on a 401 as well, but keep the session when the repeat is
///   refused too, or forbidden: one endpoint refusing a token that was just renewed says nothing about the
///   session, and its answer is shown as it is;
/// - show the saved profile when the server cannot be reached;
/// - store a new session only after its profile request: never when the answer is not a profile at all (not
///   a JSON object: the address names something else), and with a failure that says both when it failed
///   otherwise;
/// - the access token's expiry: its JWT `exp`, else the `expiresIn` of the login or refresh.
///
/// Feeding an event in a state where it cannot happen is a programming error in the owner, and stops the
/// process as a failed precondition does.
public struct MainCoordinator: Sendable {
    /// How close to its expiry an access token is refreshed before use, to allow for clock skew and for the
    /// time the request takes. A token that lives less than twice as long is refreshed halfway through its life
    /// instead, or every use would refresh it.
    public static let expiryMargin: TimeInterval = 30

    /// Where the access token comes from.
    public enum Source: Sendable, Hashable, Redacting {
        /// A session that `login` stored.
        case stored(SessionRecord)
        /// `SWAGGERCTL_TOKEN`, for `server`: used as it is, never stored and never refreshed.
        case environment(token: String, server: String)
    }

    /// What the person asked for.
    public enum Purpose: Sendable, Hashable {
        /// The profile (`details`, `status --check`). With `allowSaved`, an unreachable server is answered with
        /// the profile saved at the last successful request.
        case profile(allowSaved: Bool)
        /// An access token that has not expired (`token`, `refresh`).
        case token
        /// A request of the person's own (`api`): one, or one for each page.
        case request
    }

    /// What to do with an access token that is ready to use.
    public enum Use: Sendable, Hashable, Redacting {
        /// Request the profile with it, from the original API on `server` or as `dialect` says, then send
        /// ``MainCoordinator/profileReceived(_:)`` or ``MainCoordinator/profileFailed(_:)``.
        case fetchProfile(server: String, dialect: ServerDialect?, accessToken: String)
        /// Hand it to the person: the flow is complete.
        case deliver(accessToken: String)
        /// Send the person's request with it, then send ``MainCoordinator/responseReceived(status:)`` or
        /// ``MainCoordinator/requestFailed(_:)``.
        case send(accessToken: String)
    }

    /// The refresh request to send while the refresh lock is held.
    public struct Refresh: Sendable, Hashable, Redacting {
        /// The API's base URL.
        public var server: String
        /// The refresh token to spend.
        public var refreshToken: String
        /// The app id that the login sent.
        public var appID: String
        /// How the server refreshes, when it is not the original API.
        public var dialect: ServerDialect?
        /// The OAuth 2 client secret, when the client has one.
        public var clientSecret: String?
    }

    /// Why a flow ends without a result. The owner words it; the stored session is kept unless
    /// ``SessionEndedAction`` said to remove it.
    public enum Failure: Sendable, Hashable {
        /// The request failed; the session is kept.
        case request(APIServiceError, Source)
        /// The login stored its session, but the profile request that followed failed.
        case profileAfterLogin(APIServiceError, SessionRecord)
        /// The login succeeded, but its profile answer is not a profile; nothing was stored.
        case unusableProfile(APIServiceError, Account, dialect: ServerDialect?)
        /// The server no longer accepts the session, which the owner has removed.
        case sessionEnded(SessionRecord, because: APIServiceError)
        /// The session's record is there, but no store holds its token.
        case noStoredToken(SessionRecord)
        /// The session disappeared while this process waited for the refresh lock: another one logged out or
        /// found it ended.
        case sessionGone(Account)
        /// The access token has expired and there is no refresh token to renew it.
        case expiredWithoutRefreshToken(SessionRecord)
        /// `SWAGGERCTL_TOKEN` has expired, and a token that is not stored cannot be refreshed.
        case environmentTokenExpired(server: String)
    }

    /// A session the owner must remove from every store, with its saved profile, before reporting
    /// ``Failure/sessionEnded(_:because:)``.
    public struct SessionEndedAction: Sendable, Hashable {
        /// The session to remove.
        public var record: SessionRecord
        /// What the server said: a 401 on the refresh or after it, or a 403.
        public var reason: APIServiceError
    }

    /// A profile to show, and where it came from.
    public struct ProfileOutcome: Sendable, Hashable {
        /// Where a shown profile came from.
        public enum Origin: Sendable, Hashable {
            /// The server, just now; `refreshed` when the tokens were refreshed on the way.
            case server(refreshed: Bool)
            /// The profile that arrived at `receivedAt`, saved, because the server could not be reached.
            case saved(receivedAt: Date, because: APIServiceError)
        }

        /// The profile.
        public var profile: Profile
        /// Where it came from.
        public var origin: Origin
        /// The kind of server it came from, which decides how it is laid out.
        public var kind: ServerKind = .original
    }

    // MARK: - Actions

    /// What follows ``start(_:for:now:)`` and ``refreshRequested(_:)``.
    public enum StartAction: Sendable, Hashable {
        /// Read the stored access token (only that: the refresh token is read under the lock), then send
        /// ``tokenRead(_:)``.
        case readAccessToken(SessionRecord)
        /// Take the account's refresh lock, read the record and both tokens again, then send
        /// ``lockTaken(record:credentials:now:)``.
        case lockForRefresh(Account)
        /// Use this token.
        case use(Use)
        /// Stop.
        case fail(Failure)
    }

    /// What follows ``tokenRead(_:)``.
    public enum TokenReadAction: Sendable, Hashable {
        /// Use this token.
        case use(Use)
        /// Stop.
        case fail(Failure)
    }

    /// What follows ``lockTaken(record:credentials:now:)``. Only ``refresh(_:)`` keeps the lock.
    public enum LockedAction: Sendable, Hashable {
        /// Send this refresh request, still holding the lock, then send ``refreshed(_:now:)`` or
        /// ``refreshFailed(_:)``.
        case refresh(Refresh)
        /// Release the lock and use this token, which another process stored meanwhile.
        case use(Use)
        /// The session cannot be renewed: remove it, release the lock, and report.
        case endSession(SessionEndedAction)
        /// Release the lock and stop.
        case fail(Failure)
    }

    /// What follows ``refreshFailed(_:)``. The lock is released first in every case.
    public enum RefreshFailedAction: Sendable, Hashable {
        /// The server rejected the refresh token: remove the session and report.
        case endSession(SessionEndedAction)
        /// Read the saved profile, then send ``savedProfileLoaded(_:)``.
        case loadSavedProfile(Account)
        /// Stop; the session is kept.
        case fail(Failure)
    }

    /// What follows ``profileReceived(_:)``.
    public enum ProfileAction: Sendable, Hashable {
        /// Save the profile for this account, then show it.
        case saveAndShow(ProfileOutcome, Account)
        /// Show the profile; nothing is saved for a token from the environment.
        case show(ProfileOutcome)
        /// A login's profile arrived: store the new session's tokens, then send ``tokensStored(in:)``.
        case storeNewSession(Session)
    }

    /// What follows ``sessionSaved()``.
    public enum NewSessionAction: Sendable, Hashable {
        /// Save the profile for this account, then show it.
        case saveAndShow(ProfileOutcome, Account)
        /// Stop: the session is stored, but its profile could not be fetched.
        case fail(Failure)
    }

    /// What follows ``profileFailed(_:)``.
    public enum ProfileFailedAction: Sendable, Hashable {
        /// The token was rejected: take the refresh lock, read again, then send
        /// ``lockTaken(record:credentials:now:)``.
        case lockForRefresh(Account)
        /// The token was rejected after a refresh: remove the session and report.
        case endSession(SessionEndedAction)
        /// Read the saved profile, then send ``savedProfileLoaded(_:)``.
        case loadSavedProfile(Account)
        /// A login's profile request failed in a way that leaves the session usable: store it all the same,
        /// then send ``tokensStored(in:)``.
        case storeNewSession(Session)
        /// Stop.
        case fail(Failure)
    }

    /// What follows ``responseReceived(status:)``.
    public enum ResponseAction: Sendable, Hashable {
        /// The token was refused: take the refresh lock, read again, then send
        /// ``lockTaken(record:credentials:now:)``, which leads to the same request again.
        case lockForRefresh(Account)
        /// The response is the answer, whatever its status. Send ``nextRequest()`` for another page.
        case answered
    }

    /// What follows ``savedProfileLoaded(_:)``.
    public enum SavedProfileAction: Sendable, Hashable {
        /// Show the saved profile, with a notice saying why it is not fresh.
        case show(ProfileOutcome)
        /// Stop: nothing was saved.
        case fail(Failure)
    }

    // MARK: - State

    private struct Flow: Sendable {
        var source: Source
        var purpose: Purpose
        /// The token in use came from under the refresh lock: another 401 ends the session.
        var refreshed = false
        /// The person asked for a refresh, so one is made even if another process refreshed meanwhile.
        var forced = false

        var server: String {
            switch source {
            case .stored(let record): record.server
            case .environment(_, let server): server
            }
        }

        var record: SessionRecord? {
            if case .stored(let record) = source { record } else { nil }
        }

        var dialect: ServerDialect? { record?.dialect }
    }

    /// A login under way: what it will store once its profile request has answered.
    private struct NewSession: Sendable {
        var session: Session
        /// The profile request's outcome; `nil` until it has one.
        var profile: Result<Profile, APIServiceError>?
    }

    private enum State: Sendable {
        case idle
        case authenticating(SessionRecord, clientSecret: String?)
        case checkingNewSession(NewSession)
        case storingNewSession(NewSession)
        case savingNewSession(NewSession)
        case readingAccessToken(Flow)
        /// `rejected` is the token that a 401 refused, when that is why the lock is wanted.
        case waitingForLock(Flow, rejected: String?)
        case refreshing(Flow, Session)
        case storingRotation(Flow, Session)
        case fetchingProfile(Flow, accessToken: String)
        case sending(Flow, accessToken: String)
        case answered(Flow, accessToken: String)
        case loadingSavedProfile(Flow, because: APIServiceError)
        case finished
    }

    private var state: State = .idle

    /// Creates a coordinator with no flow under way.
    public init() {}

    // MARK: - Login

    /// The person asked to log in to `account`: with `appID` on the original API, or as `dialect` says, with
    /// the OAuth 2 `clientSecret` if there is one, allowing plain HTTP to another machine or not. The owner
    /// posts the credentials, then sends ``authenticated(_:now:)``, or reports the login's error.
    public mutating func loginRequested(
        _ account: Account, appID: String, allowsPlainHTTP: Bool = false, dialect: ServerDialect? = nil,
        clientSecret: String? = nil
    ) {
        guard case .idle = state else { invalid("loginRequested") }
        var record = SessionRecord(account: account, appId: appID, keystore: .file, savedAt: Date.distantPast)
        // Saved only where it matters, so later commands to a plain-HTTP server need no flag.
        record.allowsPlainHTTP = allowsPlainHTTP ? true : nil
        record.dialect = dialect
        state = .authenticating(record, clientSecret: clientSecret)
    }

    /// The server accepted the credentials.
    /// - Returns: The profile request that checks the new session, before anything is stored.
    public mutating func authenticated(_ login: APIService.Login, now: Date) -> Use {
        guard case .authenticating(var record, let clientSecret) = state else { invalid("authenticated") }
        record.username = login.username
        record.savedAt = now
        (record.issuedAt, record.expiresAt) = Self.times(of: login, now: now)
        record.refreshable = login.credentials.refreshToken != nil
        var credentials = login.credentials
        credentials.clientSecret = clientSecret
        state = .checkingNewSession(NewSession(session: Session(record: record, credentials: credentials)))
        return .fetchProfile(server: record.server, dialect: record.dialect, accessToken: credentials.accessToken)
    }

    /// The new session's tokens are stored, in `keystore`.
    /// - Returns: The session's record, for the owner to save before sending ``sessionSaved()``.
    public mutating func tokensStored(in keystore: KeystoreKind) -> SessionRecord {
        guard case .storingNewSession(var new) = state else { invalid("tokensStored") }
        new.session.record.keystore = keystore
        state = .savingNewSession(new)
        return new.session.record
    }

    /// The new session's record is saved.
    /// - Returns: The profile to save and show, or the failure of its request.
    public mutating func sessionSaved() -> NewSessionAction {
        guard case .savingNewSession(let new) = state, let profile = new.profile else { invalid("sessionSaved") }
        state = .finished
        switch profile {
        case .success(let profile):
            return .saveAndShow(
                ProfileOutcome(profile: profile, origin: .server(refreshed: false), kind: new.session.record.kind),
                new.session.account)
        case .failure(let error):
            // The login's token is good and stored; only the profile is missing.
            return .fail(.profileAfterLogin(error, new.session.record))
        }
    }

    // MARK: - A stored session or SWAGGERCTL_TOKEN

    /// The person asked for `purpose` with the session from `source`.
    public mutating func start(_ source: Source, for purpose: Purpose, now: Date) -> StartAction {
        guard case .idle = state else { invalid("start") }
        let flow = Flow(source: source, purpose: purpose)
        switch source {
        case .environment(let token, let server):
            let times = JWTClaims.times(of: token)
            if purpose == .token, Self.needsRefresh(expiresAt: times.expiresAt, issuedAt: times.issuedAt, now: now) {
                state = .finished
                return .fail(.environmentTokenExpired(server: server))
            }
            return .use(use(token, in: flow))
        case .stored(let record):
            if Self.needsRefresh(expiresAt: record.expiresAt, issuedAt: record.issuedAt, now: now) {
                state = .waitingForLock(flow, rejected: nil)
                return .lockForRefresh(record.account)
            }
            state = .readingAccessToken(flow)
            return .readAccessToken(record)
        }
    }

    /// The person asked to refresh the stored session now, whatever its access token's expiry.
    public mutating func refreshRequested(_ record: SessionRecord) -> StartAction {
        guard case .idle = state else { invalid("refreshRequested") }
        state = .waitingForLock(Flow(source: .stored(record), purpose: .token, forced: true), rejected: nil)
        return .lockForRefresh(record.account)
    }

    /// The stored access token was read; `nil` when no store holds one.
    public mutating func tokenRead(_ accessToken: String?) -> TokenReadAction {
        guard case .readingAccessToken(let flow) = state, let record = flow.record else {
            invalid("tokenRead")
        }
        guard let accessToken else {
            state = .finished
            return .fail(.noStoredToken(record))
        }
        return .use(use(accessToken, in: flow))
    }

    /// The refresh lock is held, and the session was read again under it: `record` and `credentials` are
    /// `nil` when they are no longer stored.
    public mutating func lockTaken(record: SessionRecord?, credentials: Credentials?, now: Date) -> LockedAction {
        guard case .waitingForLock(var flow, let rejected) = state, let original = flow.record else {
            invalid("lockTaken")
        }
        guard let record else {
            state = .finished
            return .fail(.sessionGone(original.account))
        }
        flow.source = .stored(record)
        guard let credentials else {
            state = .finished
            return .fail(.noStoredToken(record))
        }
        // Another process may have refreshed (or logged in again) while this one waited. A rotating refresh
        // token may be spent only once, so its new tokens are used instead: a different token than the one
        // refused, or a record that changed and whose token has not run out. Only the change is trusted here,
        // not the margin: a token that lives less than the margin would otherwise be refreshed by every
        // process that waited for it.
        let replaced =
            if let rejected { credentials.accessToken != rejected } else {
                !flow.forced && record != original && !Self.hasExpired(record.expiresAt, now: now)
            }
        if replaced {
            flow.refreshed = true
            return .use(use(credentials.accessToken, in: flow))
        }
        guard let refreshToken = credentials.refreshToken else {
            state = .finished
            if rejected != nil { return .endSession(SessionEndedAction(record: record, reason: .tokenRejected)) }
            switch flow.purpose {
            case .profile, .request:
                // The expiry is only what the token says; the server decides.
                flow.refreshed = true
                return .use(use(credentials.accessToken, in: flow))
            case .token:
                return .fail(.expiredWithoutRefreshToken(record))
            }
        }
        state = .refreshing(flow, Session(record: record, credentials: credentials))
        return .refresh(
            Refresh(
                server: record.server, refreshToken: refreshToken, appID: record.appId, dialect: record.dialect,
                clientSecret: credentials.clientSecret))
    }

    /// The server rotated the tokens.
    /// - Returns: The renewed session, for the owner to store in the backend that holds the session, before
    ///   it sends ``rotationStored()`` and releases the lock.
    public mutating func refreshed(_ login: APIService.Login, now: Date) -> Session {
        guard case .refreshing(let flow, var session) = state else { invalid("refreshed") }
        // A server that does not rotate sends no new refresh token; the one it has is still good (RFC 6749 §6).
        let refreshToken = login.credentials.refreshToken ?? session.credentials.refreshToken
        session.credentials = Credentials(
            accessToken: login.credentials.accessToken, refreshToken: refreshToken,
            clientSecret: session.credentials.clientSecret)
        (session.record.issuedAt, session.record.expiresAt) = Self.times(of: login, now: now)
        session.record.refreshable = refreshToken != nil
        if let username = login.username { session.record.username = username }
        state = .storingRotation(flow, session)
        return session
    }

    /// The renewed session is stored.
    /// - Returns: What to do with its access token, once the lock is released.
    public mutating func rotationStored() -> Use {
        guard case .storingRotation(var flow, let session) = state else {
            invalid("rotationStored")
        }
        flow.source = .stored(session.record)
        flow.refreshed = true
        return use(session.credentials.accessToken, in: flow)
    }

    /// The refresh request failed.
    public mutating func refreshFailed(_ error: APIServiceError) -> RefreshFailedAction {
        guard case .refreshing(let flow, let session) = state else { invalid("refreshFailed") }
        if error == .refreshRejected {
            state = .finished
            return .endSession(SessionEndedAction(record: session.record, reason: error))
        }
        if error.isUnreachable, case .profile(allowSaved: true) = flow.purpose {
            state = .loadingSavedProfile(flow, because: error)
            return .loadSavedProfile(session.account)
        }
        state = .finished
        return .fail(.request(error, flow.source))
    }

    // MARK: - The profile

    /// The profile arrived.
    public mutating func profileReceived(_ profile: Profile) -> ProfileAction {
        if case .checkingNewSession(var new) = state {
            new.profile = .success(profile)
            state = .storingNewSession(new)
            return .storeNewSession(new.session)
        }
        guard case .fetchingProfile(let flow, _) = state else { invalid("profileReceived") }
        state = .finished
        let outcome = ProfileOutcome(
            profile: profile, origin: .server(refreshed: flow.refreshed), kind: flow.record?.kind ?? .original)
        guard let record = flow.record else { return .show(outcome) }
        return .saveAndShow(outcome, record.account)
    }

    /// The profile request failed.
    public mutating func profileFailed(_ error: APIServiceError) -> ProfileFailedAction {
        if case .checkingNewSession(var new) = state {
            if case .notAProfile = error {
                // An answer that is not a profile means the wrong place or the wrong kind of server: a session
                // that no later command could use is not stored.
                state = .finished
                return .fail(.unusableProfile(error, new.session.account, dialect: new.session.record.dialect))
            }
            new.profile = .failure(error)
            state = .storingNewSession(new)
            return .storeNewSession(new.session)
        }
        guard case .fetchingProfile(let flow, let accessToken) = state else {
            invalid("profileFailed")
        }
        guard let record = flow.record else {
            state = .finished
            return .fail(.request(error, flow.source))
        }
        switch error {
        case .tokenRejected where !flow.refreshed:
            state = .waitingForLock(flow, rejected: accessToken)
            return .lockForRefresh(record.account)
        case .tokenRejected, .forbidden:
            // A second 401, or a 403: the server knows this session and will not serve it. A refresh would
            // not change its mind.
            state = .finished
            return .endSession(SessionEndedAction(record: record, reason: error))
        default:
            break
        }
        if error.isUnreachable, case .profile(allowSaved: true) = flow.purpose {
            state = .loadingSavedProfile(flow, because: error)
            return .loadSavedProfile(record.account)
        }
        state = .finished
        return .fail(.request(error, flow.source))
    }

    // MARK: - The person's own requests

    /// The response to the person's request arrived, with `status`.
    public mutating func responseReceived(status: Int) -> ResponseAction {
        guard case .sending(let flow, let accessToken) = state else { invalid("responseReceived") }
        if status == 401, !flow.refreshed, let record = flow.record, record.refreshable != false {
            state = .waitingForLock(flow, rejected: accessToken)
            return .lockForRefresh(record.account)
        }
        state = .answered(flow, accessToken: accessToken)
        return .answered
    }

    /// No response arrived.
    /// - Returns: The failure to report; the session is kept.
    public mutating func requestFailed(_ error: APIServiceError) -> Failure {
        guard case .sending(let flow, _) = state else { invalid("requestFailed") }
        state = .finished
        return .request(error, flow.source)
    }

    /// The person's request needs another request, such as the next page.
    /// - Returns: The token to send it with, which may be refreshed once more on a 401.
    public mutating func nextRequest() -> Use {
        guard case .answered(var flow, let accessToken) = state else { invalid("nextRequest") }
        flow.refreshed = false
        return use(accessToken, in: flow)
    }

    /// The saved profile was read: `nil` when none was saved.
    public mutating func savedProfileLoaded(_ saved: SavedProfile?) -> SavedProfileAction {
        guard case .loadingSavedProfile(let flow, let error) = state else {
            invalid("savedProfileLoaded")
        }
        state = .finished
        guard let saved else { return .fail(.request(error, flow.source)) }
        return .show(
            ProfileOutcome(
                profile: saved.profile, origin: .saved(receivedAt: saved.receivedAt, because: error),
                kind: flow.record?.kind ?? .original))
    }

    // MARK: - Helpers

    /// Stops the process: the owner sent an event that cannot happen in this state. Only the state's name is
    /// shown, because its payload holds tokens.
    private func invalid(_ event: String) -> Never {
        let name =
            switch state {
            case .idle: "idle"
            case .authenticating: "authenticating"
            case .checkingNewSession: "checkingNewSession"
            case .storingNewSession: "storingNewSession"
            case .savingNewSession: "savingNewSession"
            case .readingAccessToken: "readingAccessToken"
            case .waitingForLock: "waitingForLock"
            case .refreshing: "refreshing"
            case .storingRotation: "storingRotation"
            case .fetchingProfile: "fetchingProfile"
            case .sending: "sending"
            case .answered: "answered"
            case .loadingSavedProfile: "loadingSavedProfile"
            case .finished: "finished"
            }
        preconditionFailure("MainCoordinator: \(event) cannot happen in state \(name)")
    }

    private mutating func use(_ accessToken: String, in flow: Flow) -> Use {
        switch flow.purpose {
        case .profile:
            state = .fetchingProfile(flow, accessToken: accessToken)
            return .fetchProfile(server: flow.server, dialect: flow.dialect, accessToken: accessToken)
        case .token:
            state = .finished
            return .deliver(accessToken: accessToken)
        case .request:
            state = .sending(flow, accessToken: accessToken)
            return .send(accessToken: accessToken)
        }
    }

    /// When the access token was issued and expires: its JWT's `iat` and `exp` when it is a JWT that says, else
    /// `now` and the login's `expiresIn` later, else unknown.
    static func times(of login: APIService.Login, now: Date) -> (issuedAt: Date?, expiresAt: Date?) {
        let claims = JWTClaims.times(of: login.credentials.accessToken)
        if claims.expiresAt != nil { return claims }
        guard let lifetime = login.expiresIn else { return claims }
        return (now, now.addingTimeInterval(lifetime.timeInterval))
    }

    /// Whether an access token must be refreshed before use: it has expired, or will within ``expiryMargin``,
    /// or within half its lifetime when that is shorter. A token with no known expiry is used until the server
    /// rejects it.
    static func needsRefresh(expiresAt: Date?, issuedAt: Date?, now: Date) -> Bool {
        guard let expiresAt else { return false }
        let lifetime = issuedAt.map { expiresAt.timeIntervalSince($0) } ?? .infinity
        return expiresAt.timeIntervalSince(now) <= min(expiryMargin, max(0, lifetime) / 2)
    }

    /// Whether an access token has run out: the server will refuse it.
    static func hasExpired(_ expiresAt: Date?, now: Date) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt <= now
    }
}

extension APIServiceError {
    /// The server could not be reached at all, so what was saved is the best there is: refused, unresolvable
    /// or timed out. Never a TLS failure, an HTTP status or a malformed answer.
    var isUnreachable: Bool {
        switch self {
        case .unreachable, .timedOut: true
        default: false
        }
    }
}

/// A stored session: what the index knows plus the secrets.
public struct Session: Sendable, Hashable {
    /// The session's record in the index.
    public var record: SessionRecord
    /// The tokens.
    public var credentials: Credentials

    /// The session's key.
    public var account: Account { record.account }

    /// Creates a session.
    /// - Parameters:
    ///   - record: The session's record.
    ///   - credentials: The tokens.
    public init(record: SessionRecord, credentials: Credentials) {
        self.record = record
        self.credentials = credentials
    }
}
