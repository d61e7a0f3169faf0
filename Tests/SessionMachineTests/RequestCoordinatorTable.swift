import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import RequestMachine
@testable import SessionMachine

/// ``RequestCoordinator``'s transition table, which ``TransitionTableTests`` checks. The token's events reach its
/// token machine, whose table is ``MainCoordinatorTable``; here they are fed where that machine reads the token.
enum RequestCoordinatorTable: TransitionTable {
    typealias Phase = RequestCoordinatorPhase
    typealias Rows = RequestCoordinatorTests

    enum Event: Hashable, Sendable, CaseIterable {
        case start, sent, cancelled, delivered, received, failed, stopped
        case token(TokenResultCase)

        static let allCases: [Self] =
            [.start, .sent, .cancelled, .delivered, .received, .failed, .stopped]
            + TokenResultCase.allCases.map(Self.token)
    }

    /// The owner may stop in any state, and the machine is then finished.
    static func row(_ phase: Phase) -> [Event: Phase] {
        transitions(phase).merging([.stopped: .finished]) { moved, _ in moved }
    }

    static func transitions(_ phase: Phase) -> [Event: Phase] {
        switch phase {
        case .idle: [.start: .settlingToken]
        case .settlingToken:
            [.token(.accessToken): .sending, .token(.credentials): .sending, .token(.keysMissing): .finished]
        case .sending: [.sent: .awaiting]
        case .awaiting: [.received: .delivering, .failed: .finished]
        case .cancelling: [.cancelled: .delivering]
        case .delivering: [.delivered: .finished]
        case .finished: [:]
        }
    }

    /// A coordinator in `phase`: one request with a stored token that is not due; or, for `cancelling`, the pages
    /// of a list asked for two at a time, the second of which fails.
    static func coordinator(in phase: Phase) -> RequestCoordinator? {
        let list = phase == .cancelling
        var coordinator = RequestCoordinator(
            list ? Rows.settings("/api/items?page=1", paging: .init(parallel: 2)) : Rows.settings())
        let responses = list ? [Rows.numbered(1, of: 3), Rows.response(500)] : [Rows.response(200)]
        var answered = 0
        while coordinator.phase != phase {
            switch coordinator.phase {
            case .idle:
                _ = coordinator.start(.stored(Rows.fresh), now: Rows.now, plainHTTP: PlainHTTP())
            case .settlingToken:
                _ = coordinator.settled(.accessToken("a1"), now: Rows.now)
            case .sending:
                _ = coordinator.sent(Rows.unread)
            case .awaiting where answered < responses.count:
                _ = coordinator.received(responses[answered])
                answered += 1
            case .delivering:
                _ = coordinator.delivered()
            default:
                return nil
            }
        }
        return coordinator
    }

    static func reaches(_ event: Event, _ phase: Phase) -> Bool { reached(phase) }

    static func reached(_ phase: Phase) -> Bool { coordinator(in: phase) != nil }

    static func feed(_ event: Event, to phase: Phase) -> Phase? {
        guard var coordinator = coordinator(in: phase) else { return nil }
        switch event {
        case .token(let result):
            let stored = Credentials(accessToken: "a1", refreshToken: "r1")
            _ = coordinator.settled(result.sample(Rows.fresh, stored, now: Rows.now), now: Rows.now)
        case .start: _ = coordinator.start(.stored(Rows.fresh), now: Rows.now, plainHTTP: PlainHTTP())
        case .sent: _ = coordinator.sent(Rows.unread)
        case .cancelled: _ = coordinator.cancelled()
        case .delivered: _ = coordinator.delivered()
        case .received: _ = coordinator.received(Rows.response(200))
        case .failed: _ = coordinator.failed(.timedOut)
        case .stopped: _ = coordinator.stopped()
        }
        return coordinator.phase
    }
}
