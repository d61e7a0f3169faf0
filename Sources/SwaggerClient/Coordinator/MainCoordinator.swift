/// The flow between the login and details states, as a value-type state machine with no I/O.
///
/// Whoever owns the coordinator performs the I/O: it feeds each outcome in as an event and carries out the
/// ``Action`` that comes back. ``SessionController`` is that owner for the command-line tool.
///
/// ```
/// loggedOut ──loginRequested──▶ authenticating ──authenticated──▶ loggedIn ──profileReceived──▶ showingDetails
///     ▲                              │ failed                      ▲   │                            │
///     └──────────────────────────────┘            restored ────────┘   │ failed(tokenRejected)      │
///     ◀────────────────────────────────────────────────────────────────┘  or logoutRequested ◀─────┘
/// ```
public struct MainCoordinator: Sendable {
    /// What the coordinator is doing, without its payload.
    public enum Phase: Sendable, Hashable {
        case loggedOut
        case authenticating
        case loggedIn
        case showingDetails
    }

    /// What the owner must do next.
    public enum Action: Sendable, Hashable {
        /// Post the credentials for this account.
        case authenticate(Account)
        /// Keep the new session in the keystore, then send ``MainCoordinator/stored()``.
        case store(Session)
        /// Fetch the profile for this session, with its token: the one just stored, or the one in the keystore.
        case fetchProfile(SessionRecord)
        /// Show the profile: the flow is complete.
        case show(Profile)
        /// Remove this account's stored session, then report the error.
        case discard(Account, because: APIServiceError)
        /// Report the error; nothing is stored or removed.
        case report(APIServiceError)
        /// Remove this account's stored session: the person logged out.
        case remove(Account)
        /// Nothing: the event does not apply in the current state.
        case none
    }

    private enum State: Sendable {
        case loggedOut
        case authenticating(Account)
        case loggedIn(SessionRecord)
        case showingDetails(SessionRecord, Profile)
    }

    private var state: State = .loggedOut

    /// Creates a coordinator in the logged-out state.
    public init() {}

    /// The current phase.
    public var phase: Phase {
        switch state {
        case .loggedOut: .loggedOut
        case .authenticating: .authenticating
        case .loggedIn: .loggedIn
        case .showingDetails: .showingDetails
        }
    }

    /// The person asked to log in. Allowed from any state but ``Phase/authenticating``.
    /// - Parameter account: The server and e-mail to log in with.
    /// - Returns: ``Action/authenticate(_:)``, or ``Action/none`` while a login is already under way.
    public mutating func loginRequested(_ account: Account) -> Action {
        if case .authenticating = state { return .none }
        state = .authenticating(account)
        return .authenticate(account)
    }

    /// The server accepted the credentials.
    /// - Parameter session: The new session.
    /// - Returns: ``Action/store(_:)`` when authenticating, else ``Action/none``.
    public mutating func authenticated(_ session: Session) -> Action {
        guard case .authenticating(let account) = state, account == session.account else { return .none }
        state = .loggedIn(session.record)
        return .store(session)
    }

    /// The new session was stored.
    /// - Returns: ``Action/fetchProfile(_:)`` when logged in, else ``Action/none``.
    public mutating func stored() -> Action {
        guard case .loggedIn(let record) = state else { return .none }
        return .fetchProfile(record)
    }

    /// A session saved by an earlier process was found. Only its record is needed: its token is read when
    /// ``Action/fetchProfile(_:)`` asks for it, so logging out never reads a secret.
    /// - Parameter record: The stored session's record.
    /// - Returns: ``Action/none``; the coordinator is now logged in.
    public mutating func restored(_ record: SessionRecord) -> Action {
        guard case .loggedOut = state else { return .none }
        state = .loggedIn(record)
        return .none
    }

    /// The person asked for the profile.
    /// - Returns: ``Action/fetchProfile(_:)`` when logged in, else ``Action/none``.
    public mutating func detailsRequested() -> Action {
        switch state {
        case .loggedIn(let record), .showingDetails(let record, _): .fetchProfile(record)
        case .loggedOut, .authenticating: .none
        }
    }

    /// The profile arrived.
    /// - Parameter profile: The profile as received.
    /// - Returns: ``Action/show(_:)`` when a profile was expected, else ``Action/none``.
    public mutating func profileReceived(_ profile: Profile) -> Action {
        switch state {
        case .loggedIn(let record), .showingDetails(let record, _):
            state = .showingDetails(record, profile)
            return .show(profile)
        case .loggedOut, .authenticating:
            return .none
        }
    }

    /// A request failed.
    ///
    /// A failed login returns to logged out. A rejected token also returns to logged out and asks for the
    /// dead session to be removed. Any other failure keeps the session.
    /// - Parameter error: What went wrong.
    /// - Returns: ``Action/discard(_:because:)`` or ``Action/report(_:)``.
    public mutating func failed(_ error: APIServiceError) -> Action {
        switch state {
        case .authenticating:
            state = .loggedOut
            return .report(error)
        case .loggedIn(let record), .showingDetails(let record, _):
            guard error == .tokenRejected else { return .report(error) }
            state = .loggedOut
            return .discard(record.account, because: error)
        case .loggedOut:
            return .report(error)
        }
    }

    /// The person asked to log out.
    /// - Returns: ``Action/remove(_:)`` when logged in, else ``Action/none``.
    public mutating func logoutRequested() -> Action {
        switch state {
        case .loggedIn(let record), .showingDetails(let record, _):
            state = .loggedOut
            return .remove(record.account)
        case .loggedOut, .authenticating:
            return .none
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
