import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SessionMachine

/// ``RequestCoordinator``'s transition table, which ``TransitionTableTests`` checks. The token's events reach its
/// token machine, whose table is ``MainCoordinatorTable``; here they are fed where that machine reads the token.
enum RequestCoordinatorTable: TransitionTable {
    typealias Phase = RequestCoordinatorPhase
    typealias Rows = RequestCoordinatorTests

    enum Event: Hashable, Sendable, CaseIterable {
        case start, sent, cancelled, delivered, received, failed
        case token(TokenResultCase)

        static let allCases: [Self] =
            [.start, .sent, .cancelled, .delivered, .received, .failed] + TokenResultCase.allCases.map(Self.token)
    }

    static func row(_ phase: Phase) -> [Event: Phase] {
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

    /// A coordinator in `phase`, with the action that brought it there: one request with a stored token that is not
    /// due; or, for `cancelling`, the pages of a list asked for two at a time, the second of which fails.
    static func coordinator(in phase: Phase) -> (RequestCoordinator, RequestCoordinator.Action?)? {
        let list = phase == .cancelling
        var coordinator = RequestCoordinator(
            list ? Rows.settings("/api/items?page=1", paging: .init(parallel: 2)) : Rows.settings())
        let responses = list ? [Rows.numbered(1, of: 3), Rows.response(500)] : [Rows.response(200)]
        var action: RequestCoordinator.Action?
        var answered = 0
        while coordinator.phase != phase {
            switch (coordinator.phase, action) {
            case (.idle, _):
                action = coordinator.start(.stored(Rows.fresh), now: Rows.now, plainHTTP: PlainHTTP())
            case (.settlingToken, _):
                action = coordinator.settled(.accessToken("a1"), now: Rows.now)
            case (.sending, _):
                action = coordinator.sent()
            case (.awaiting, .await(let id)?) where answered < responses.count:
                action = coordinator.received(id, responses[answered])
                answered += 1
            case (.delivering, _):
                action = coordinator.delivered()
            default:
                return nil
            }
        }
        return (coordinator, action)
    }

    static func reaches(_ event: Event, _ phase: Phase) -> Bool { reached(phase) }

    static func reached(_ phase: Phase) -> Bool { coordinator(in: phase) != nil }

    static func feed(_ event: Event, to phase: Phase) -> Phase? {
        guard case (var coordinator, let last)? = coordinator(in: phase) else { return nil }
        // An answer to any other request than the one awaited cannot happen: it is fed, in the other states, for the
        // request sent first.
        let id = if case .await(let id)? = last { id } else { 0 }
        switch event {
        case .token(let result):
            let stored = Credentials(accessToken: "a1", refreshToken: "r1")
            _ = coordinator.settled(result.sample(Rows.fresh, stored, now: Rows.now), now: Rows.now)
        case .start: _ = coordinator.start(.stored(Rows.fresh), now: Rows.now, plainHTTP: PlainHTTP())
        case .sent: _ = coordinator.sent()
        case .cancelled: _ = coordinator.cancelled()
        case .delivered: _ = coordinator.delivered()
        case .received: _ = coordinator.received(id, Rows.response(200))
        case .failed: _ = coordinator.failed(id, .timedOut)
        }
        return coordinator.phase
    }
}
