import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SessionMachine

/// ``LogoutCoordinator``'s transition table, which ``TransitionTableTests`` checks.
enum LogoutCoordinatorTable: TransitionTable {
    typealias Phase = LogoutCoordinatorPhase

    enum Event: Hashable, Sendable, CaseIterable {
        case start, lockTaken
        case token(TokenResultCase)
        case tokensUnreadable, revoked, revocationFailed, accessChecked, tokensNotRemoved, removed, removalFailed

        static let allCases: [Self] =
            [.start, .lockTaken] + TokenResultCase.allCases.map(Self.token)
            + [
                .tokensUnreadable, .revoked, .revocationFailed, .accessChecked, .tokensNotRemoved, .removed,
                .removalFailed,
            ]
    }

    static func row(_ phase: Phase) -> [Event: Phase] {
        switch phase {
        case .idle: [.start: .locking]
        case .locking: [.lockTaken: .reading]
        case .reading:
            [.token(.credentials): .refreshing, .token(.keysMissing): .refreshing, .tokensUnreadable: .removing]
        case .refreshing: [.token(.refreshed): .storingRotation, .token(.refreshFailed): .revoking]
        case .storingRotation: [.token(.stored): .revoking, .token(.notStored): .revoking]
        case .revoking: [.revoked: .checkingAccess, .revocationFailed: .removing]
        case .checkingAccess: [.accessChecked: .removing]
        case .removing: [.tokensNotRemoved: .finished, .removed: .finished, .removalFailed: .finished]
        case .forgetting: [.removed: .finished, .removalFailed: .finished]
        case .finished: [:]
        }
    }

    static let now = Fixtures.savedAt
    static let tokens = Credentials(accessToken: "a1", refreshToken: "r1")
    /// A session whose access token has expired, on a server whose revocation carries it and names only the refresh
    /// token: its logout renews first, and then asks whether the access token still works.
    static let record = {
        var record = Fixtures.record(Fixtures.ana)
        record.serverDescription = Fixtures.described(
            [
                "preset": "oauth2", "login": ["url": "https://idp/token"], "profile": ["url": "https://idp/userinfo"],
                "revocation": ["url": "https://idp/revoke", "with": "json:refresh"], "allowedOrigins": ["https://idp"],
            ])
        record.expiresAt = now.addingTimeInterval(-1)
        return record
    }()
    static let error = SwaggerError(.failure, "The keyring is locked.")

    /// A coordinator in `phase`: a logout that tells the server, reached by the events of a session that is due, or,
    /// for `forgetting`, a `--local` one whose tokens could not be removed.
    static func coordinator(in phase: Phase) -> LogoutCoordinator? {
        guard phase != .forgetting else {
            var local = LogoutCoordinator(record, revoke: false, plainHTTP: PlainHTTP())
            _ = local.start()
            _ = local.lockTaken()
            _ = local.tokensNotRemoved(error)
            return local
        }
        var coordinator = LogoutCoordinator(record, revoke: true, plainHTTP: PlainHTTP())
        let path: [Phase] = [
            .idle, .locking, .reading, .refreshing, .storingRotation, .revoking, .checkingAccess, .removing, .finished,
        ]
        guard let steps = path.firstIndex(of: phase) else { return nil }
        var renewed = tokens
        let events: [(inout LogoutCoordinator) -> Void] = [
            { _ = $0.start() },
            { _ = $0.lockTaken() },
            { _ = $0.settled(.credentials(tokens), now: now) },
            {
                if case .settle(.store(let session)) = $0.settled(
                    TokenResultCase.refreshed.sample(record, tokens, now: now), now: now)
                {
                    renewed = session.credentials
                }
            },
            { _ = $0.settled(.stored, now: now) },
            { _ = $0.revoked(revocation(renewed), now: now) },
            { _ = $0.accessChecked(taken: false) },
            { _ = $0.removed() },
        ]
        for event in events.prefix(steps) { event(&coordinator) }
        return coordinator.phase == phase ? coordinator : nil
    }

    static func revocation(_ credentials: Credentials) -> Revocation {
        Revocation(server: record.server, serverDescription: Fixtures.description(of: record), credentials: credentials)
    }

    static func reaches(_ event: Event, _ phase: Phase) -> Bool { reached(phase) }

    static func reached(_ phase: Phase) -> Bool { coordinator(in: phase) != nil }

    static func feed(_ event: Event, to phase: Phase) -> Phase? {
        guard var coordinator = coordinator(in: phase) else { return nil }
        switch event {
        case .token(let result): _ = coordinator.settled(result.sample(record, tokens, now: now), now: now)
        case .start: _ = coordinator.start()
        case .lockTaken: _ = coordinator.lockTaken()
        case .tokensUnreadable: _ = coordinator.tokensUnreadable(error)
        case .revoked: _ = coordinator.revoked(revocation(tokens), now: now)
        case .revocationFailed: _ = coordinator.revocationFailed(.timedOut)
        case .accessChecked: _ = coordinator.accessChecked(taken: false)
        case .tokensNotRemoved: _ = coordinator.tokensNotRemoved(error)
        case .removed: _ = coordinator.removed()
        case .removalFailed: _ = coordinator.removalFailed(error)
        }
        return coordinator.phase
    }
}
