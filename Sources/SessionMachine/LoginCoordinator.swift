import FoundationEssentials
import SwaggerModel

/// The decisions of a login, as a value-type state machine with no I/O: which app id to send, whether the
/// password may cross plain HTTP, which account signed in, how the token goes, what the new session holds, and
/// what is stored when its first profile request fails.
///
/// The order is the original app's: post the credentials, fetch the profile with the new token, and only then
/// store the session, so that an address that answers with something other than a profile stores nothing.
package struct LoginCoordinator: Sendable {
    /// What the person asked for, with what earlier sessions and the environment say.
    package struct Request: Sendable, Hashable, Redacting {
        package var server: ServerURL
        /// The account as the person named it: always for a password; for a sign-in in the browser, the account
        /// that must sign in, or `nil` to take whoever does.
        package var name: AccountName?
        package var serverDescription: ServerDescription
        /// `--app-id`.
        package var appIDFlag: String?
        /// `SWAGGERCTL_APP_ID`.
        package var appIDFromEnvironment: String?
        /// The server's registry entry, whose app id and certificate authority (`server set`) come after the
        /// flags and before the environment and the earlier session.
        package var entry: ServerEntry?
        /// The server's active session, whose app id and plain-HTTP allowance a new login keeps.
        package var previous: SessionRecord?
        /// `--allow-http` or `SWAGGERCTL_ALLOW_HTTP`.
        package var plainHTTP: PlainHTTP
        /// What the OAuth 2 client proves itself with, kept with the tokens.
        package var client: ClientProof
        /// Whether the client signs in as itself (RFC 6749 §4.4): the account is the client, and the session is
        /// renewed by asking again.
        package var asClient: Bool
        /// The DPoP key the tokens are asked to be bound to, kept with them.
        package var proof: ProofBinding?
        /// `--ca-cert` or `SWAGGERCTL_CA_CERT`, as an absolute path.
        package var caCertificate: String?
        /// Whether the person brings the token (`--with-token`): the server made it before, so its profile is all
        /// that checks it, and says whose it is.
        package var givenToken = false

        package init(
            server: ServerURL, name: AccountName?, serverDescription: ServerDescription, appIDFlag: String? = nil,
            appIDFromEnvironment: String? = nil, entry: ServerEntry? = nil, previous: SessionRecord? = nil,
            plainHTTP: PlainHTTP = PlainHTTP(), client: ClientProof = ClientProof(), asClient: Bool = false,
            proof: ProofBinding? = nil, caCertificate: String? = nil
        ) {
            self.server = server
            self.name = name
            self.serverDescription = serverDescription
            self.appIDFlag = appIDFlag
            self.appIDFromEnvironment = appIDFromEnvironment
            self.entry = entry
            self.previous = previous
            self.plainHTTP = plainHTTP
            self.client = client
            self.asClient = asClient
            self.proof = proof
            self.caCertificate = caCertificate
        }
    }

    /// The app id used when nothing else names one.
    static let defaultAppID = "swaggerctl-demo"

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

    /// What follows ``profileReceived(_:)``.
    package enum ProfileReceivedAction: Sendable, Hashable {
        case storeTokens(StoreTokens)
        /// Someone else signed in than the account asked for, or nobody that can be named; nothing is stored.
        case fail(SessionFailure)
    }

    /// What follows ``profileFailed(_:)``.
    package enum ProfileFailedAction: Sendable, Hashable {
        case storeTokens(StoreTokens)
        /// The server refused the new token under the description's scheme and asked for another: ask again with
        /// it, then send ``profileReceived(_:)`` or ``profileFailed(_:)``.
        case retryProfile(ProfileRequest)
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
        var client: ClientProof
        var caCertificate: String?
        /// Whether the person signed in in a browser, where anyone may sign in: the account is who did.
        var inBrowser: Bool
        /// Whether the client signed in as itself: the account is the client.
        var isClient: Bool
        var proof: ProofBinding?
        /// Whether the person brought the token, which only the profile checks.
        var givenToken = false
    }

    /// A login that the server accepted: everything the new session's record needs but its account and backend.
    private struct Granted: Sendable {
        var pending: Pending
        var credentials: Credentials
        var username: String?
        /// Who the ID token says signed in, when the grant brought one.
        var signedIn: Identity?
        var savedAt: Date
        var issuedAt: Date?
        var expiresAt: Date?
        /// The description, with the token's scheme as the server asked for it.
        var description: ServerDescription
        /// Whether the profile was already asked for again under another scheme.
        var retried = false
        /// What the login's answer yielded for later steps.
        var outputs: [String: String] = [:]

        func record(_ account: Account, in backend: BackendKind) -> SessionRecord {
            var record = SessionRecord(
                account: account, appID: pending.attempt.appID, username: username, backend: backend,
                savedAt: savedAt, expiresAt: expiresAt, issuedAt: issuedAt,
                refreshable: credentials.refreshToken != nil || pending.isClient,
                allowsPlainHTTP: pending.allowsPlainHTTP, caCertificate: pending.caCertificate,
                serverDescription: description, signIn: pending.isClient ? .client : nil,
                proofKey: pending.proof?.thumbprint)
            record.presentsCertificate = pending.client.key?.certificate != nil ? true : nil
            record.outputs = outputs
            return record
        }

        func profileRequest() -> ProfileRequest {
            ProfileRequest(
                server: pending.attempt.server, serverDescription: description,
                accessToken: credentials.accessToken ?? "",
                client: pending.isClient ? pending.attempt.name?.value : nil, outputs: outputs)
        }
    }

    private enum State: Sendable {
        case idle
        case authenticating(Pending)
        case checkingProfile(Granted)
        case storingTokens(Granted, Account, Result<Profile, APIServiceError>)
        case savingRecord(SessionRecord, Result<Profile, APIServiceError>)
        case finished
    }

    private var state: State = .idle
    /// The tokens the server gave, until the session is kept: a login that fails after the grant has them ended
    /// on the server, since nothing here could end them later. Never a token the person brought, which is theirs.
    private var unkept: Granted?
    /// What becomes of the session the new one replaces, decided when it is read; said once the new one is kept.
    private var replaced: Unkept?
    /// Until when the replaced session works on the server, if it is not ended: when its token expires, unless a
    /// refresh token renews it.
    private var replacedUntil: Date?

    package init() {}

    /// The person asked to log in.
    package mutating func loginRequested(_ request: Request) -> StartAction {
        guard case .idle = state else { invalid("loginRequested") }
        state = .finished
        let server = request.server
        let plainHTTP = request.plainHTTP
        let saved = request.previous?.allowsPlainHTTP == true
        let sending: SessionFailure.Secret = request.givenToken ? .givenToken : .password
        if let refused = plainHTTP.refusal(server, request.serverDescription, sessionAllows: saved) {
            return .fail(.plainHTTPRefused(server: refused, sending: sending))
        }
        if let foreign = OriginRule.refusal(server, request.serverDescription) {
            return .fail(.foreignOrigin(server: server, foreign, sending: sending))
        }
        // A client secret given with this login makes the client a confidential one from now on.
        var description = request.serverDescription
        if request.client.secret != nil { description.usesClientSecret = true }
        let attempt = LoginAttempt(
            server: server, name: request.name, serverDescription: description,
            appID: request.appIDFlag ?? request.entry?.appID ?? request.appIDFromEnvironment ?? request.previous?.appID
                ?? Self.defaultAppID)
        // Saved only where it matters, so later commands to a plain-HTTP server need no flag.
        let needed = PlainHTTP(proxies: plainHTTP.proxies).refusal(server, request.serverDescription) != nil
        state = .authenticating(
            Pending(
                attempt: attempt, allowsPlainHTTP: needed ? true : nil, client: request.client,
                caCertificate: request.caCertificate ?? request.entry?.caCertificate ?? request.previous?.caCertificate,
                inBrowser: [.web, .device].contains(request.serverDescription.signIn),
                isClient: request.asClient, proof: request.proof, givenToken: request.givenToken))
        return .authenticate(attempt)
    }

    /// The server accepted the credentials.
    /// - Returns: The profile request that checks the new session, before anything is stored.
    package mutating func authenticated(_ grant: TokenGrant, now: Date) -> ProfileRequest {
        guard case .authenticating(let pending) = state else { invalid("authenticated") }
        var credentials = grant.credentials
        credentials.clientSecret = pending.client.secret
        credentials.clientKey = pending.client.key
        credentials.proofKey = pending.proof?.privateKey
        let (issuedAt, expiresAt) = Expiry.times(of: grant, now: now)
        var granted = Granted(
            pending: pending, credentials: credentials, username: grant.username,
            signedIn: grant.idToken.flatMap(JWTClaims.identity(of:)), savedAt: now, issuedAt: issuedAt,
            expiresAt: expiresAt, description: pending.attempt.serverDescription)
        granted.outputs = grant.outputs
        state = .checkingProfile(granted)
        if !pending.givenToken { unkept = granted }
        return granted.profileRequest()
    }

    /// The server refused the credentials, or could not be asked.
    package mutating func authenticationFailed(_ error: APIServiceError) -> SessionFailure {
        guard case .authenticating(let pending) = state else { invalid("authenticationFailed") }
        state = .finished
        let attempt = pending.attempt
        // A client refused is named as the client, which has no password to be wrong.
        if pending.isClient, case .badCredentials = error {
            return .clientRefused(server: attempt.server, client: attempt.accountName)
        }
        return .requestFailed(
            error, server: attempt.server, account: attempt.name?.value, description: attempt.serverDescription)
    }

    /// The new session's profile arrived.
    package mutating func profileReceived(_ profile: Profile) -> ProfileReceivedAction {
        guard case .checkingProfile(let granted) = state else { invalid("profileReceived") }
        // The ID token says who signed in where there is one; else the profile does.
        switch account(granted, signedIn: granted.signedIn ?? Identity(profile: profile)) {
        case .success(let account):
            state = .storingTokens(granted, account, .success(profile))
            return .storeTokens(StoreTokens(account: account, credentials: granted.credentials))
        case .failure(let failure):
            state = .finished
            return .fail(failure)
        }
    }

    /// The new session's profile request failed.
    package mutating func profileFailed(_ error: APIServiceError) -> ProfileFailedAction {
        guard case .checkingProfile(var granted) = state else { invalid("profileFailed") }
        let attempt = granted.pending.attempt
        // A fresh token refused with a challenge for another scheme (Django REST framework's `Token`) is sent
        // once more as the server asks; the scheme is then the description's.
        if case .tokenRejected(let challenge?) = error, !granted.retried, let use = Self.scheme(named: challenge),
            use != granted.description.token
        {
            granted.retried = true
            granted.description.token = use
            state = .checkingProfile(granted)
            return .retryProfile(granted.profileRequest())
        }
        // A token the person brought that the profile refuses, or could not be checked, is not stored: nothing but
        // the profile ever said it was good.
        if granted.pending.givenToken, !Self.isNotAProfile(error) {
            state = .finished
            let refused = if case .forbidden = error { true } else { error.isTokenRejection }
            return .fail(
                refused
                    ? .tokenRefused(server: attempt.server, error)
                    : .requestFailed(
                        error, server: attempt.server, account: attempt.name?.value, description: granted.description))
        }
        if case .notAProfile = error {
            // An answer that is not a profile means the wrong place or the wrong kind of server: a session that
            // no later command could use is not stored.
            state = .finished
            return .fail(
                .unusableProfile(
                    error, Account(server: attempt.server, name: attempt.name?.value ?? ""), granted.description))
        }
        // Anything else leaves a session that works, such as a profile endpoint that is down for now, once it is
        // known whose it is.
        switch account(granted, signedIn: granted.signedIn) {
        case .success(let account):
            state = .storingTokens(granted, account, .failure(error))
            return .storeTokens(StoreTokens(account: account, credentials: granted.credentials))
        case .failure:
            state = .finished
            return .fail(
                .requestFailed(
                    error, server: attempt.server, account: attempt.name?.value, description: granted.description))
        }
    }

    /// The account the new session is kept under: the one the person named, unless they signed in in a browser
    /// as someone else; or, where they named none, whoever signed in.
    private func account(_ granted: Granted, signedIn: Identity?) -> Decided {
        let attempt = granted.pending.attempt
        let server = attempt.server
        guard granted.pending.inBrowser || granted.pending.givenToken else {
            return .success(Account(server: server, name: attempt.accountName.value))
        }
        switch (attempt.name, signedIn) {
        case (let name?, let identity?) where !identity.matches(name.value):
            return .failure(.otherAccountSignedIn(server: server, asked: name.value, signedIn: identity.name))
        case (let name?, _):
            return .success(Account(server: server, name: name.value))
        case (nil, let identity?):
            return .success(Account(server: server, name: identity.name))
        case (nil, nil):
            return .failure(.unknownAccountSignedIn(server: server))
        }
    }

    /// Whose the new session is, or why that is not known.
    private enum Decided {
        case success(Account)
        case failure(SessionFailure)
    }

    private static func isNotAProfile(_ error: APIServiceError) -> Bool {
        if case .notAProfile = error { true } else { false }
    }

    /// The `Authorization` scheme a challenge names, as servers write it (RFC 9110 compares schemes without case);
    /// `nil` for one whose token goes elsewhere, such as an API key's header.
    private static func scheme(named challenge: String) -> TokenUse? {
        let known = ["bearer": "Bearer", "token": "Token", "jwt": "JWT"]
        return known[challenge].map { TokenUse(header: "Authorization", scheme: $0) }
    }

    /// The tokens are stored, in `backend`.
    /// - Returns: The new session's record, for the owner to save before sending ``recordSaved()`` or
    ///   ``recordNotSaved(_:)``.
    package mutating func tokensStored(in backend: BackendKind) -> SessionRecord {
        guard case .storingTokens(let granted, let account, let profile) = state else { invalid("tokensStored") }
        let record = granted.record(account, in: backend)
        state = .savingRecord(record, profile)
        return record
    }

    /// The account already had a session here, `record`, whose tokens are `credentials` (`nil` when none could be
    /// read): read before the new tokens take their place in the token store. One login is one session: once the
    /// new one is kept, ``replacedSession()`` says how the earlier one ends.
    package mutating func earlierSessionRead(_ record: SessionRecord, _ credentials: Credentials?, now: Date) {
        guard case .storingTokens(let granted, _, _) = state else { invalid("earlierSessionRead") }
        let description = record.serverDescription ?? granted.description
        // A login that sends nothing keeps the credentials themselves, and a token brought again is the same one:
        // neither leaves a session of its own on the server.
        guard let credentials, description.login.request != nil || description.signIn == .token,
            credentials.accessToken != granted.credentials.accessToken
                || credentials.refreshToken != granted.credentials.refreshToken
        else { return }
        replacedUntil = credentials.refreshToken == nil ? record.expiresAt : nil
        guard description.revocation != nil,
            credentials.refreshToken != nil || !description.revocationNeedsRefreshToken
        else {
            // One that has expired, with nothing to renew it, is over already.
            let alive = credentials.refreshToken != nil || record.expiresAt.map { $0 > now } ?? true
            if alive { replaced = .stay(Leftover(until: replacedUntil)) }
            return
        }
        replaced = .revoke(
            Revocation(
                server: record.server, serverDescription: description, credentials: credentials,
                outputs: record.outputs, binding: SessionBinding(credentials, of: record)))
    }

    /// How the session this login replaced ends, once the new one is kept: revoked on the server as `logout` revokes
    /// one (then send ``replacedNotRevoked(_:)`` if that fails), or left to expire there, which the person is told.
    /// `nil` when there was none, or nothing of it lives on the server.
    package func replacedSession() -> Unkept? {
        guard case .finished = state else { return nil }
        return replaced
    }

    /// The replaced session could not be ended on the server.
    package func replacedNotRevoked(_ error: APIServiceError) -> Leftover {
        guard case .revoke? = replaced else { invalid("replacedNotRevoked") }
        return Leftover(until: replacedUntil, failure: error)
    }

    /// No backend could store the tokens; nothing was stored.
    package mutating func tokensNotStored(_ error: SwaggerError) -> SessionFailure {
        guard case .storingTokens(_, let account, _) = state else { invalid("tokensNotStored") }
        state = .finished
        // Nothing replaced the earlier session, whose tokens are where they were.
        replaced = nil
        return .notStored(account, error)
    }

    /// The new session's record is saved.
    package mutating func recordSaved() -> SavedAction {
        guard case .savingRecord(let record, let profile) = state else { invalid("recordSaved") }
        state = .finished
        unkept = nil
        switch profile {
        case .success(let profile):
            return .saveAndShow(
                ProfileOutcome(
                    profile: profile, origin: .server(renewed: false),
                    labels: record.serverDescription?.profile.labels ?? []),
                record.account)
        case .failure(let error):
            // The login's token is good and stored; only the profile is missing.
            return .fail(.profileAfterLogin(error, record))
        }
    }

    /// The record could not be saved, so no later command would find the stored tokens.
    package mutating func recordNotSaved(_ error: SwaggerError) -> DiscardTokens {
        guard case .savingRecord(let record, _) = state else { invalid("recordNotSaved") }
        state = .finished
        replaced = nil
        return DiscardTokens(
            account: record.account, backend: record.backend, failure: .notStored(record.account, error))
    }

    /// What becomes of tokens a login received and did not keep.
    package enum Unkept: Sendable, Hashable {
        /// End them on the server, then send ``unkeptNotRevoked(_:)`` if that fails.
        case revoke(Revocation)
        /// Nothing can end them: the line says so.
        case stay(Leftover)
    }

    /// Tokens a failed login leaves valid on the server, and until when.
    package struct Leftover: Sendable, Hashable {
        package var until: Date?
        /// Why they were not ended: nothing can end them (`nil`), or their revocation failed.
        package var failure: APIServiceError?

        package init(until: Date?, failure: APIServiceError? = nil) {
            self.until = until
            self.failure = failure
        }
    }

    /// The tokens of a login that failed after the server gave them, which were not kept: `nil` when the session
    /// was kept, when there were none, or when they were the person's own (`--with-token`).
    package func unkeptTokens() -> Unkept? {
        guard case .finished = state, let granted = unkept else { return nil }
        let server = granted.pending.attempt.server
        let description = granted.description
        guard description.revocation != nil,
            granted.credentials.refreshToken != nil || !description.revocationNeedsRefreshToken
        else { return .stay(Leftover(until: granted.expiresAt)) }
        return .revoke(
            Revocation(
                server: server, serverDescription: description, credentials: granted.credentials,
                outputs: granted.outputs))
    }

    /// The unkept tokens could not be ended.
    package func unkeptNotRevoked(_ error: APIServiceError) -> Leftover {
        guard let granted = unkept else { invalid("unkeptNotRevoked") }
        return Leftover(until: granted.expiresAt, failure: error)
    }

    /// Stops the process: the owner sent an event that cannot happen in this state. Only the state's name is
    /// shown, because its payload holds tokens.
    private func invalid(_ event: String) -> Never {
        preconditionFailure("LoginCoordinator: \(event) cannot happen in state \(phase.rawValue)")
    }

    package typealias Phase = LoginCoordinatorPhase

    /// The state the coordinator is in.
    var phase: Phase {
        switch state {
        case .idle: .idle
        case .authenticating: .authenticating
        case .checkingProfile: .checkingProfile
        case .storingTokens: .storingTokens
        case .savingRecord: .savingRecord
        case .finished: .finished
        }
    }
}

/// The states of ``LoginCoordinator``, by name: what its transition table test is made from.
package enum LoginCoordinatorPhase: String, CaseIterable, Sendable {
    case idle, authenticating, checkingProfile, storingTokens, savingRecord, finished
}
