import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SessionMachine

/// ``LoginCoordinator``'s transition table, which ``TransitionTableTests`` checks.
enum LoginCoordinatorTable: TransitionTable {
    typealias Phase = LoginCoordinatorPhase

    enum Event: CaseIterable, Sendable {
        case loginRequested, authenticated, authenticationFailed, profileReceived, profileFailed
        case tokensStored, earlierSessionRead, tokensNotStored, recordSaved, recordNotSaved
    }

    static func row(_ phase: Phase) -> [Event: Phase] {
        switch phase {
        case .idle: [.loginRequested: .authenticating]
        case .authenticating: [.authenticated: .checkingProfile, .authenticationFailed: .finished]
        case .checkingProfile: [.profileReceived: .storingTokens, .profileFailed: .storingTokens]
        case .storingTokens:
            [.tokensStored: .savingRecord, .earlierSessionRead: .storingTokens, .tokensNotStored: .finished]
        case .savingRecord: [.recordSaved: .finished, .recordNotSaved: .finished]
        case .finished: [:]
        }
    }

    static let error = SwaggerError(.failure, "The keyring is locked.")

    /// A coordinator in `phase`, reached by the events of a password login that succeeds.
    static func coordinator(in phase: Phase) -> LoginCoordinator? {
        var coordinator = LoginCoordinator()
        guard let steps = Phase.allCases.firstIndex(of: phase) else { return nil }
        for event in Event.path.prefix(steps) { send(event, to: &coordinator) }
        return coordinator.phase == phase ? coordinator : nil
    }

    static func send(_ event: Event, to coordinator: inout LoginCoordinator) {
        let now = LoginCoordinatorTests.now
        switch event {
        case .loginRequested: _ = coordinator.loginRequested(LoginCoordinatorTests.request())
        case .authenticated: _ = coordinator.authenticated(LoginCoordinatorTests.grant, now: now)
        case .authenticationFailed: _ = coordinator.authenticationFailed(.badCredentials(status: 401, message: nil))
        case .profileReceived: _ = coordinator.profileReceived(LoginCoordinatorTests.profile)
        case .profileFailed: _ = coordinator.profileFailed(.timedOut)
        case .tokensStored: _ = coordinator.tokensStored(in: .keyring)
        case .earlierSessionRead:
            coordinator.earlierSessionRead(Fixtures.record(Fixtures.ana), Credentials(accessToken: "a0"), now: now)
        case .tokensNotStored: _ = coordinator.tokensNotStored(error)
        case .recordSaved: _ = coordinator.recordSaved()
        case .recordNotSaved: _ = coordinator.recordNotSaved(error)
        }
    }

    static func reaches(_ event: Event, _ phase: Phase) -> Bool { reached(phase) }

    static func reached(_ phase: Phase) -> Bool { coordinator(in: phase) != nil }

    static func feed(_ event: Event, to phase: Phase) -> Phase? {
        guard var coordinator = coordinator(in: phase) else { return nil }
        send(event, to: &coordinator)
        return coordinator.phase
    }
}

extension LoginCoordinatorTable.Event {
    /// The events that take a login through every state in order, the phases' order.
    static let path: [Self] = [.loginRequested, .authenticated, .profileReceived, .tokensStored, .recordSaved]
}
