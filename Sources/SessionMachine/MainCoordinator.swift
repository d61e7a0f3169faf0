import FoundationEssentials
import SwaggerModel

/// The decisions of one use of a session, as a value-type state machine with no I/O.
///
/// ``SessionController`` owns one for each command that uses a session. It performs the action that an event
/// returns, and feeds the outcome back in as the next event. Every token event returns one ``Action``: the token's
/// I/O to do (``TokenWork``, whose outcome comes back as ``settled(_:now:)``), the session to end, a failure, or
/// the ``SessionPurpose``'s own step; a purpose's own events return their own small action types. Each state
/// carries everything the flow needs, so the owner keeps no copy of the session.
///
/// The decisions made here:
/// - refuse, before anything is sent, to carry tokens over plain HTTP to another machine unless allowed;
/// - refresh before using an access token that is due (``Expiry``);
/// - after taking the refresh lock, use the tokens another process stored meanwhile rather than spend the
///   refresh token a second time, and meet as its own a failure to reach the server that a refresh of the same
///   session left while this one waited;
/// - renew only once the stores are known to take the renewal;
/// - use the renewed tokens only once they are stored, and keep the old refresh token when the server does
///   not rotate it (RFC 6749 §6);
/// - end the session when the server rejects the refresh;
/// - for the profile: refresh once and repeat once on a 401, end the session on a second 401 or a 403, and
///   show the saved profile when the server cannot be reached;
/// - for the person's own requests: refresh once and repeat once on a 401, and otherwise show every answer
///   as it is, keeping the session.
///
/// Feeding an event in a state where it cannot happen is a programming error in the owner, and stops the
/// process as a failed precondition does.
package struct MainCoordinator<Purpose: SessionPurpose>: Sendable {
    /// What the owner does next.
    package enum Action: Sendable, Hashable {
        /// Carry out the token's I/O, then send ``settled(_:now:)`` with what it found.
        case settle(TokenWork)
        /// The server will not serve this session: remove it (under the refresh lock, when it is held) and report.
        case endSession(SessionEnd)
        /// Go on with the purpose's step.
        case proceed(Purpose.Step)
        case fail(SessionFailure)

        /// Whether the refresh lock, when it is held, is kept for this action: it is for the token's work and the
        /// session's removal, and released before anything else, so that no other process waits on a request or on
        /// output.
        package var keepsLock: Bool {
            switch self {
            case .settle, .endSession: true
            case .proceed, .fail: false
            }
        }
    }

    /// Why the refresh lock is wanted.
    private enum LockReason: Sendable {
        /// The access token is due.
        case due
        /// The server refused this access token.
        case rejected(String)
        /// The person asked for a refresh, so one is made even if another process refreshed meanwhile.
        case asked
    }

    private struct Flow: Sendable {
        /// The source, boxed: every event moves the flow from one state to the next, and `api --paginate` sends
        /// two events a page, where copying a session's record and its server's description field by field
        /// retained and released each of their strings.
        private final class Box: Sendable {
            let source: TokenSource
            let binding: SessionBinding
            init(_ source: TokenSource, _ binding: SessionBinding) {
                self.source = source
                self.binding = binding
            }
        }

        private var box: Box
        var source: TokenSource {
            get { box.source }
            set { box = Box(newValue, box.binding) }
        }
        /// What the session's tokens are bound to, once they are read with their keys.
        var binding: SessionBinding {
            get { box.binding }
            set { box = Box(box.source, newValue) }
        }
        /// The token in use came from under the refresh lock: another refusal is the server's last word.
        var renewed = false

        init(source: TokenSource) {
            box = Box(source, SessionBinding())
        }
    }

    /// The states a command passes once are boxed (`indirect`), so that the one a list's every page meets,
    /// `using`, is a few words to look at rather than the layout of a session record.
    private enum State: Sendable {
        case idle
        indirect case readingAccessToken(Flow, SessionRecord)
        indirect case waitingForLock(Flow, SessionRecord, LockReason)
        indirect case checkingRenewal(Flow, Session, RefreshRequest)
        /// `leavesNote`: a failure is this command's own, to leave for those waiting, not one a note told of.
        indirect case refreshing(Flow, Session, leavesNote: Bool)
        indirect case storingRotation(Flow, Session, accessToken: String)
        /// The note is being left; `then` follows it, in state `next`.
        indirect case leavingNote(then: Action, next: State)
        /// The purpose's step with this token is under way: for the person's requests, as many as are out.
        case using(Flow, accessToken: String)
        /// The purpose's other way, for a server that could not be reached, is under way.
        indirect case fallingBack(Flow, because: APIServiceError)
        case finished
    }

    private let purpose: Purpose
    private var state: State = .idle

    package init(purpose: Purpose) {
        self.purpose = purpose
    }

    // MARK: - Events every use shares

    /// The person asked for the purpose with the session from `source`. `plainHTTP` holds
    /// `SWAGGERCTL_ALLOW_HTTP` and the proxies; a stored session also carries the allowance its login gave.
    package mutating func start(_ source: TokenSource, now: Date, plainHTTP: PlainHTTP) -> Action {
        guard case .idle = state else { invalid("start") }
        if let refused = Self.refusal(source, plainHTTP) {
            state = .finished
            return .fail(refused)
        }
        // No description is assumed for a server nothing describes: a stored session there cannot be renewed, and
        // a use that needs more than the token cannot be made.
        if source.serverDescription == nil, Purpose.needsDescription || source.isStored {
            state = .finished
            return .fail(.undescribed(server: source.server))
        }
        let flow = Flow(source: source)
        switch source {
        case .environment(let token, let server, _):
            let times = JWTClaims.times(of: token)
            guard Expiry.needsRefresh(expiresAt: times.expiresAt, issuedAt: times.issuedAt, now: now) else {
                return .proceed(use(token, in: flow))
            }
            guard let step = purpose.unrenewable(token, bound: flow.binding, from: source, now: now) else {
                state = .finished
                return .fail(.environmentTokenExpired(server: server))
            }
            state = .using(flow, accessToken: token)
            return .proceed(step)
        case .stored(let record):
            if Expiry.needsRefresh(expiresAt: record.expiresAt, issuedAt: record.issuedAt, now: now) {
                state = .waitingForLock(flow, record, .due)
                return .settle(.lock(record.account))
            }
            state = .readingAccessToken(flow, record)
            // A token bound to a key is of no use without it: the key is read with the tokens.
            return .settle(record.needsKeys ? .readCredentials(record) : .readAccessToken(record))
        }
    }

    /// The owner did the token's work that the last action asked for, and found `result`.
    package mutating func settled(_ result: TokenResult, now: Date) -> Action {
        switch (state, result) {
        case (.readingAccessToken(let flow, let record), .accessToken(let accessToken)):
            return tokenRead(accessToken, flow, record)
        case (.readingAccessToken(var flow, let record), .credentials(let credentials)):
            flow.binding = SessionBinding(credentials, of: record)
            return tokenRead(credentials?.accessToken, flow, record)
        case (.readingAccessToken(_, let record), .keysMissing):
            state = .finished
            return .fail(.keyMissing(record))
        case (.waitingForLock(let flow, let original, let reason), .locked(let locked)):
            return lockTaken(locked, flow, original, reason, now: now)
        case (.checkingRenewal(let flow, let session, let request), .renewable):
            state = .refreshing(flow, session, leavesNote: true)
            return .settle(.refresh(request, of: session.record))
        case (.checkingRenewal(_, let session, _), .notRenewable(let error)):
            // The server would spend the refresh token for nothing.
            state = .finished
            return .fail(.renewalNotWritable(session.account, error))
        case (.refreshing(let flow, let session, _), .refreshed(let grant)):
            let renewed = Self.renewed(session, by: grant, now: now)
            state = .storingRotation(flow, renewed, accessToken: grant.accessToken)
            // The server has spent the old refresh token: from here on, only the new tokens are any good.
            return .settle(.store(renewed))
        case (.refreshing(let flow, let session, let leavesNote), .refreshFailed(let error)):
            let failed = refreshFailure(error, flow, session)
            // A waiter meets this failure as its own rather than wait out the server again.
            guard leavesNote, let note = RefreshNote(failedAt: now, renewing: session.record, error) else {
                return failed
            }
            state = .leavingNote(then: failed, next: state)
            return .settle(.leaveNote(note))
        case (.storingRotation(var flow, let session, let accessToken), .stored):
            flow.source = .stored(session.record)
            flow.renewed = true
            let step = use(accessToken, in: flow)
            state = .leavingNote(then: .proceed(step), next: state)
            return .settle(.leaveNote(nil))
        case (.storingRotation(_, let session, _), .notStored(let error)):
            // The server has spent the old refresh token, so the stored session cannot be renewed again.
            state = .finished
            return .fail(.renewedButNotStored(session.account, error))
        case (.leavingNote(let then, let next), .noteLeft):
            state = next
            return then
        default:
            invalid("settled(\(result.name))")
        }
    }

    // MARK: - The token's decisions

    private mutating func tokenRead(_ accessToken: String?, _ flow: Flow, _ record: SessionRecord) -> Action {
        guard let accessToken else {
            // A keyring item can be deleted on its own, by a keyring manager or another tool; the refresh
            // token's item may have survived it. A record from before `refreshable` existed may have one too.
            guard record.refreshable != false else {
                state = .finished
                return .fail(.noStoredToken(record))
            }
            // Renewed as a due token is: whatever another process stored meanwhile is used instead.
            state = .waitingForLock(flow, record, .due)
            return .settle(.lock(record.account))
        }
        return .proceed(use(accessToken, in: flow))
    }

    private mutating func lockTaken(
        _ locked: LockedSession, _ flow: Flow, _ original: SessionRecord, _ reason: LockReason, now: Date
    ) -> Action {
        var flow = flow
        state = .finished
        guard let record = locked.record else { return .fail(.sessionGone(original.account)) }
        guard let description = record.serverDescription else { return .fail(.undescribed(server: record.server)) }
        flow.source = .stored(record)
        guard let credentials = locked.credentials else { return .fail(.noStoredToken(record)) }
        flow.binding = SessionBinding(credentials, of: record)
        // Another process may have refreshed (or logged in again) while this one waited. A rotating refresh
        // token may be spent only once, so its new tokens are used instead: a different token than the one
        // refused, or a record that changed and whose token has not run out. Only the change is trusted here,
        // not the margin: a token that lives less than the margin would otherwise be refreshed by every
        // process that waited for it.
        let unexpired = !Expiry.hasExpired(record.expiresAt, now: now)
        let replaced: String? =
            switch reason {
            case .rejected(let refused): credentials.accessToken != refused && unexpired ? credentials.accessToken : nil
            case .due: record != original && unexpired ? credentials.accessToken : nil
            case .asked: nil
            }
        if let replaced {
            flow.renewed = true
            return .proceed(use(replaced, in: flow))
        }
        let renewal: Renewal
        if let refreshToken = credentials.refreshToken {
            renewal = .refreshToken(refreshToken)
        } else if record.isClient, credentials.client.isConfidential {
            renewal = .clientCredentials
        } else {
            guard let accessToken = credentials.accessToken else { return .fail(.noStoredToken(record)) }
            if case .rejected = reason {
                guard let step = purpose.rejectedWithoutRefreshToken(record) else {
                    return .endSession(SessionEnd(record: record, reason: .tokenRejected(challenge: nil)))
                }
                return .proceed(step)
            }
            guard let step = purpose.unrenewable(accessToken, bound: flow.binding, from: flow.source, now: now) else {
                return .fail(.expiredWithoutRefreshToken(record))
            }
            // Whatever the server says of this token is final: there is nothing to renew it with.
            flow.renewed = true
            state = .using(flow, accessToken: accessToken)
            return .proceed(step)
        }
        let session = Session(record: record, credentials: credentials)
        // A refresh of this same session that could not reach the server while this command waited is this one's
        // too: the server is not waited out again by every waiter in turn.
        if let note = locked.note, note.stands(for: record, waitingSince: locked.waitingSince) {
            return refreshFailure(note.error, flow, session)
        }
        let request = RefreshRequest(
            server: record.server, serverDescription: description, renewal: renewal, appID: record.appID,
            client: credentials.client, outputs: record.outputs, binding: flow.binding)
        state = .checkingRenewal(flow, session, request)
        return .settle(.checkRenewable(session))
    }

    /// `session` as `grant` renewed it. A server that does not rotate sends no new refresh token; the one it has is
    /// still good (RFC 6749 §6).
    private static func renewed(_ session: Session, by grant: TokenGrant, now: Date) -> Session {
        var session = session
        let refreshToken = grant.refreshToken ?? session.credentials.refreshToken
        session.credentials.accessToken = grant.accessToken
        session.credentials.refreshToken = refreshToken
        (session.record.issuedAt, session.record.expiresAt) = Expiry.times(of: grant, now: now)
        session.record.outputs.merge(grant.outputs) { $1 }
        session.record.refreshable = refreshToken != nil || session.record.isClient
        if let username = grant.username { session.record.username = username }
        return session
    }

    private mutating func refreshFailure(_ error: APIServiceError, _ flow: Flow, _ session: Session) -> Action {
        state = .finished
        if error == .refreshRejected { return .endSession(SessionEnd(record: session.record, reason: error)) }
        if case .requestRejected(let status, let message) = error {
            return .fail(.renewalRefused(session.record, status: status, message: message))
        }
        if error.isUnreachable, let step = purpose.unreachable(error, session.record) {
            state = .fallingBack(flow, because: error)
            return .proceed(step)
        }
        return .fail(flow.source.failure(error))
    }

    // MARK: - Helpers

    /// The step that uses `accessToken`; its outcome is reported next, if the purpose has one.
    private mutating func use(_ accessToken: String, in flow: Flow) -> Purpose.Step {
        state = .using(flow, accessToken: accessToken)
        return purpose.use(accessToken, bound: flow.binding, from: flow.source, renewed: flow.renewed)
    }

    /// Why the session's token may not be sent at all: in clear, or to an origin nobody allowed.
    private static func refusal(_ source: TokenSource, _ plainHTTP: PlainHTTP) -> SessionFailure? {
        let secret: SessionFailure.Secret =
            switch source {
            case .stored(let record): .tokens(account: record.name)
            case .environment: .environmentToken
            }
        if let description = source.serverDescription, let foreign = OriginRule.refusal(source.server, description) {
            return .foreignOrigin(server: source.server, foreign, sending: secret)
        }
        let refused =
            switch source {
            case .stored(let record): plainHTTP.refusal(for: record)
            case .environment(_, let server, let description): plainHTTP.refusal(server, description)
            }
        return refused.map { .plainHTTPRefused(server: $0, sending: secret) }
    }

    /// Stops the process: the owner sent an event that cannot happen in this state. Only the state's name is
    /// shown, because its payload holds tokens.
    private func invalid(_ event: String) -> Never {
        preconditionFailure("MainCoordinator: \(event) cannot happen in state \(phase.rawValue)")
    }

    package typealias Phase = MainCoordinatorPhase

    /// The state the coordinator is in.
    var phase: Phase {
        switch state {
        case .idle: .idle
        case .readingAccessToken: .readingAccessToken
        case .waitingForLock: .waitingForLock
        case .checkingRenewal: .checkingRenewal
        case .refreshing: .refreshing
        case .storingRotation: .storingRotation
        case .leavingNote: .leavingNote
        case .using: .using
        case .fallingBack: .fallingBack
        case .finished: .finished
        }
    }
}

// MARK: - The profile

extension MainCoordinator where Purpose == ProfilePurpose {
    /// What follows ``profileReceived(_:)``.
    package enum ProfileAction: Sendable, Hashable {
        /// Save the profile for this account, then show it.
        case saveAndShow(ProfileOutcome, Account)
        /// Show the profile; nothing is saved for `SWAGGERCTL_TOKEN`.
        case show(ProfileOutcome)
    }

    /// What follows ``savedProfileLoaded(_:)``.
    package enum SavedProfileAction: Sendable, Hashable {
        /// Show the saved profile, with a notice saying why it is not fresh.
        case show(ProfileOutcome)
        /// Stop: nothing was saved.
        case fail(SessionFailure)
    }

    /// The profile arrived.
    package mutating func profileReceived(_ profile: Profile) -> ProfileAction {
        guard case .using(let flow, _) = state else { invalid("profileReceived") }
        state = .finished
        let outcome = ProfileOutcome(
            profile: profile, origin: .server(renewed: flow.renewed),
            labels: flow.source.serverDescription?.profile.labels ?? [])
        guard case .stored(let record) = flow.source else { return .show(outcome) }
        return .saveAndShow(outcome, record.account)
    }

    /// The profile request failed. A refused token is renewed under the lock, and the profile asked for again.
    package mutating func profileFailed(_ error: APIServiceError) -> Action {
        guard case .using(let flow, let accessToken) = state else { invalid("profileFailed") }
        state = .finished
        guard case .stored(let record) = flow.source else { return .fail(flow.source.failure(error)) }
        switch error {
        case .tokenRejected where !flow.renewed:
            state = .waitingForLock(flow, record, .rejected(accessToken))
            return .settle(.lock(record.account))
        case .tokenRejected, .forbidden:
            // A second 401, or a 403: the server knows this session and will not serve it. A refresh would not
            // change its mind.
            return .endSession(SessionEnd(record: record, reason: error))
        case .requestRejected(let status, _) where status == 410:
            // Gone (RFC 9110 §15.5.11): the session's own profile is no more, as allauth answers a session it ended.
            return .endSession(SessionEnd(record: record, reason: error))
        default:
            if error.isUnreachable, let step = purpose.unreachable(error, record) {
                state = .fallingBack(flow, because: error)
                return .proceed(step)
            }
            return .fail(flow.source.failure(error))
        }
    }

    /// The saved profile was read: `nil` when none was saved.
    package mutating func savedProfileLoaded(_ saved: SavedProfile?) -> SavedProfileAction {
        guard case .fallingBack(let flow, let error) = state else { invalid("savedProfileLoaded") }
        state = .finished
        guard let saved else { return .fail(flow.source.failure(error)) }
        return .show(
            ProfileOutcome(
                profile: saved.profile, origin: .saved(receivedAt: saved.receivedAt, because: error),
                labels: flow.source.serverDescription?.profile.labels ?? []))
    }
}

// MARK: - A refresh on request

extension MainCoordinator where Purpose == RefreshPurpose {
    /// The person asked to renew the stored session now, whatever its access token's expiry.
    package mutating func refreshRequested(_ record: SessionRecord, plainHTTP: PlainHTTP) -> Action {
        guard case .idle = state else { invalid("refreshRequested") }
        let source = TokenSource.stored(record)
        if let refused = Self.refusal(source, plainHTTP) {
            state = .finished
            return .fail(refused)
        }
        if record.serverDescription == nil {
            state = .finished
            return .fail(.undescribed(server: record.server))
        }
        state = .waitingForLock(Flow(source: source), record, .asked)
        return .settle(.lock(record.account))
    }
}

// MARK: - The person's own requests

extension MainCoordinator where Purpose == RequestPurpose {
    /// What follows ``responseReceived(status:)``.
    package enum ResponseAction: Sendable, Hashable {
        /// The token was refused: renew it, then send ``settled(_:now:)``, which leads to the same request again.
        case settle(TokenWork)
        /// The response is the answer, whatever its status. The token is still the one to send.
        case answered
    }

    /// The response to a request sent with the token in use arrived, with `status`. Others may be out with it
    /// meanwhile, such as the pages of a list asked for ahead.
    package mutating func responseReceived(status: Int) -> ResponseAction {
        guard case .using(var flow, let accessToken) = state else { invalid("responseReceived") }
        if status == 401, !flow.renewed, case .stored(let record) = flow.source, record.refreshable != false {
            state = .waitingForLock(flow, record, .rejected(accessToken))
            return .settle(.lock(record.account))
        }
        // An answer the server accepted the token for: a later refusal, such as the token running out in the middle
        // of a long list, may be renewed again. Otherwise the state stays as it is, not copied out and back for
        // each page.
        if status != 401, flow.renewed {
            flow.renewed = false
            state = .using(flow, accessToken: accessToken)
        }
        return .answered
    }

    /// No response arrived.
    /// - Returns: The failure to report; the session is kept.
    package mutating func requestFailed(_ error: APIServiceError) -> SessionFailure {
        guard case .using(let flow, _) = state else { invalid("requestFailed") }
        state = .finished
        return flow.source.failure(error)
    }
}

/// ``MainCoordinator``'s states by name, without their payloads.
package enum MainCoordinatorPhase: String, CaseIterable, Sendable {
    case idle, readingAccessToken, waitingForLock, checkingRenewal, refreshing, storingRotation, leavingNote
    case using, fallingBack, finished
}
