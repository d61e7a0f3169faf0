import Foundation
import SwaggerClient
import Testing

@Suite("MainCoordinator: every transition, with no I/O")
struct MainCoordinatorTests {
    static let ana = Fixtures.session(Fixtures.ana, token: "ana-token")
    static let ivo = Fixtures.session(Fixtures.ivo, token: "ivo-token")
    static let profile = Profile(fields: ["id": .integer(1024), "name": .string("Ana")])
    static let otherProfile = Profile(fields: ["id": .integer(2048), "name": .string("Ivo")])

    static let everyError: [APIServiceError] = [
        .badCredentials, .tokenRejected, .requestRejected(status: 400, message: "appId is required"),
        .redirected(status: 302, location: "https://elsewhere.example/api"), .serverFailed(status: 503),
        .contractViolation("the profile is not a JSON object"), .unreachable("connection refused"), .timedOut,
        .tls("certificate not trusted"),
    ]
    static let errorsThatKeepTheSession = everyError.filter { $0 != .tokenRejected }

    /// The phases reachable with a session, and how to reach them.
    enum SignedIn: String, Sendable, CaseIterable {
        case loggedIn, showingDetails

        var phase: MainCoordinator.Phase { self == .loggedIn ? .loggedIn : .showingDetails }

        func coordinator() -> MainCoordinator {
            var coordinator = MainCoordinator()
            _ = coordinator.restored(MainCoordinatorTests.ana.record)
            if self == .showingDetails { _ = coordinator.profileReceived(MainCoordinatorTests.profile) }
            return coordinator
        }
    }

    @Test("login → authenticated → stored → profileReceived gives authenticate, store, fetchProfile, show")
    func loginFlow() {
        var coordinator = MainCoordinator()
        #expect(coordinator.phase == .loggedOut)

        #expect(coordinator.loginRequested(Fixtures.ana) == .authenticate(Fixtures.ana))
        #expect(coordinator.phase == .authenticating)

        #expect(coordinator.authenticated(Self.ana) == .store(Self.ana))
        #expect(coordinator.phase == .loggedIn)

        #expect(coordinator.stored() == .fetchProfile(Self.ana.record))
        #expect(coordinator.phase == .loggedIn)

        #expect(coordinator.profileReceived(Self.profile) == .show(Self.profile))
        #expect(coordinator.phase == .showingDetails)
    }

    @Test("a failed login reports the error and returns to logged out", arguments: everyError)
    func failedLogin(error: APIServiceError) {
        var coordinator = MainCoordinator()
        _ = coordinator.loginRequested(Fixtures.ana)

        #expect(coordinator.failed(error) == .report(error))
        #expect(coordinator.phase == .loggedOut)
        // Nothing of the failed attempt is left: a new login starts afresh.
        #expect(coordinator.authenticated(Self.ana) == .none)
        #expect(coordinator.loginRequested(Fixtures.ana) == .authenticate(Fixtures.ana))
    }

    @Test("a rejected token discards the session's account and logs out", arguments: SignedIn.allCases)
    func tokenRejected(start: SignedIn) {
        var coordinator = start.coordinator()

        #expect(coordinator.failed(.tokenRejected) == .discard(Fixtures.ana, because: .tokenRejected))
        #expect(coordinator.phase == .loggedOut)
        #expect(coordinator.detailsRequested() == .none)
    }

    @Test(
        "any other failure while signed in is reported and keeps the session",
        arguments: SignedIn.allCases, errorsThatKeepTheSession)
    func failureKeepsSession(start: SignedIn, error: APIServiceError) {
        var coordinator = start.coordinator()

        #expect(coordinator.failed(error) == .report(error))
        #expect(coordinator.phase == start.phase)
        #expect(coordinator.detailsRequested() == .fetchProfile(Self.ana.record))
    }

    @Test("a failure while logged out is reported and changes nothing", arguments: everyError)
    func failureWhileLoggedOut(error: APIServiceError) {
        var coordinator = MainCoordinator()

        #expect(coordinator.failed(error) == .report(error))
        #expect(coordinator.phase == .loggedOut)
    }

    @Test("restored, then detailsRequested, fetches the profile with the restored session")
    func restoredThenDetails() {
        var coordinator = MainCoordinator()

        #expect(coordinator.restored(Self.ana.record) == .none)
        #expect(coordinator.phase == .loggedIn)
        #expect(coordinator.detailsRequested() == .fetchProfile(Self.ana.record))
        #expect(coordinator.phase == .loggedIn)
        #expect(coordinator.profileReceived(Self.profile) == .show(Self.profile))
        #expect(coordinator.phase == .showingDetails)
    }

    @Test("while showing details, details can be fetched again and a newer profile replaces the shown one")
    func refreshDetails() {
        var coordinator = SignedIn.showingDetails.coordinator()

        #expect(coordinator.detailsRequested() == .fetchProfile(Self.ana.record))
        #expect(coordinator.phase == .showingDetails)
        #expect(coordinator.profileReceived(Self.otherProfile) == .show(Self.otherProfile))
        #expect(coordinator.phase == .showingDetails)
    }

    @Test("logoutRequested removes the session's account and logs out", arguments: SignedIn.allCases)
    func logout(start: SignedIn) {
        var coordinator = start.coordinator()

        #expect(coordinator.logoutRequested() == .remove(Fixtures.ana))
        #expect(coordinator.phase == .loggedOut)
        #expect(coordinator.logoutRequested() == .none)
    }

    @Test("a new login is allowed while signed in and replaces the session", arguments: SignedIn.allCases)
    func loginWhileSignedIn(start: SignedIn) {
        var coordinator = start.coordinator()

        #expect(coordinator.loginRequested(Fixtures.ivo) == .authenticate(Fixtures.ivo))
        #expect(coordinator.phase == .authenticating)
        #expect(coordinator.authenticated(Self.ivo) == .store(Self.ivo))
        #expect(coordinator.stored() == .fetchProfile(Self.ivo.record))
    }

    @Test("a second login while authenticating is ignored, and the first one can still complete")
    func secondLoginWhileAuthenticating() {
        var coordinator = MainCoordinator()
        _ = coordinator.loginRequested(Fixtures.ana)

        #expect(coordinator.loginRequested(Fixtures.ivo) == .none)
        #expect(coordinator.phase == .authenticating)
        #expect(coordinator.authenticated(Self.ivo) == .none)
        #expect(coordinator.authenticated(Self.ana) == .store(Self.ana))
    }

    @Test("authenticated for a different account is ignored and keeps authenticating")
    func authenticatedForAnotherAccount() {
        var coordinator = MainCoordinator()
        _ = coordinator.loginRequested(Fixtures.ana)

        #expect(coordinator.authenticated(Self.ivo) == .none)
        #expect(coordinator.phase == .authenticating)
        #expect(coordinator.stored() == .none)
        #expect(coordinator.authenticated(Self.ana) == .store(Self.ana))
        #expect(coordinator.phase == .loggedIn)
    }

    /// Where a wrong-state case starts.
    enum Start: String, Sendable, CaseIterable {
        case loggedOut, authenticating, loggedIn, showingDetails

        var phase: MainCoordinator.Phase {
            switch self {
            case .loggedOut: .loggedOut
            case .authenticating: .authenticating
            case .loggedIn: .loggedIn
            case .showingDetails: .showingDetails
            }
        }

        func coordinator() -> MainCoordinator {
            var coordinator = MainCoordinator()
            switch self {
            case .loggedOut: break
            case .authenticating: _ = coordinator.loginRequested(Fixtures.ana)
            case .loggedIn: coordinator = SignedIn.loggedIn.coordinator()
            case .showingDetails: coordinator = SignedIn.showingDetails.coordinator()
            }
            return coordinator
        }
    }

    /// An event fed in a state where it does not apply.
    enum Event: String, Sendable, CaseIterable {
        case loginRequested, authenticated, authenticatedOther, stored, restored, detailsRequested
        case profileReceived, logoutRequested

        func send(to coordinator: inout MainCoordinator) -> MainCoordinator.Action {
            switch self {
            case .loginRequested: coordinator.loginRequested(Fixtures.ivo)
            case .authenticated: coordinator.authenticated(MainCoordinatorTests.ana)
            case .authenticatedOther: coordinator.authenticated(MainCoordinatorTests.ivo)
            case .stored: coordinator.stored()
            case .restored: coordinator.restored(MainCoordinatorTests.ivo.record)
            case .detailsRequested: coordinator.detailsRequested()
            case .profileReceived: coordinator.profileReceived(MainCoordinatorTests.otherProfile)
            case .logoutRequested: coordinator.logoutRequested()
            }
        }
    }

    static let wrongStateEvents: [(Start, Event)] = [
        (.loggedOut, .authenticated), (.loggedOut, .stored), (.loggedOut, .detailsRequested),
        (.loggedOut, .profileReceived), (.loggedOut, .logoutRequested),
        (.authenticating, .loginRequested), (.authenticating, .authenticatedOther), (.authenticating, .stored),
        (.authenticating, .restored), (.authenticating, .detailsRequested), (.authenticating, .profileReceived),
        (.authenticating, .logoutRequested),
        (.loggedIn, .authenticated), (.loggedIn, .restored),
        (.showingDetails, .authenticated), (.showingDetails, .stored), (.showingDetails, .restored),
    ]

    @Test("an event in the wrong state returns none and leaves the state as it was", arguments: wrongStateEvents)
    func wrongState(start: Start, event: Event) {
        var coordinator = start.coordinator()

        #expect(event.send(to: &coordinator) == .none)
        #expect(coordinator.phase == start.phase)
        // The state's payload is intact too: the state's own next step still works, with the original account.
        switch start {
        case .loggedOut:
            #expect(coordinator.loginRequested(Fixtures.ana) == .authenticate(Fixtures.ana))
        case .authenticating:
            #expect(coordinator.authenticated(Self.ana) == .store(Self.ana))
        case .loggedIn, .showingDetails:
            #expect(coordinator.detailsRequested() == .fetchProfile(Self.ana.record))
        }
    }
}
