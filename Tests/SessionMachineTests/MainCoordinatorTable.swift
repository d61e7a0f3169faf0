import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SessionMachine

/// ``MainCoordinator``'s transition table, which ``TransitionTableTests`` checks.
enum MainCoordinatorTable: TransitionTable {
    typealias Phase = MainCoordinatorPhase

    enum Event: Hashable, Sendable, CaseIterable {
        case start, refreshRequested
        case token(TokenResultCase)
        case profileReceived, profileFailed, savedProfileLoaded
        case responseReceived, requestFailed

        static let allCases: [Self] =
            [.start, .refreshRequested] + TokenResultCase.allCases.map(Self.token)
            + [.profileReceived, .profileFailed, .savedProfileLoaded, .responseReceived, .requestFailed]
    }

    /// The table, as the events of ``feed(_:to:)`` are made.
    static func row(_ phase: Phase) -> [Event: Phase] {
        switch phase {
        case .idle: [.start: .readingAccessToken, .refreshRequested: .waitingForLock]
        case .readingAccessToken:
            [.token(.accessToken): .using, .token(.credentials): .using, .token(.keysMissing): .finished]
        case .waitingForLock: [.token(.locked): .checkingRenewal]
        case .checkingRenewal: [.token(.renewable): .refreshing, .token(.notRenewable): .finished]
        case .refreshing: [.token(.refreshed): .storingRotation, .token(.refreshFailed): .leavingNote]
        case .storingRotation: [.token(.stored): .leavingNote, .token(.notStored): .finished]
        case .leavingNote: [.token(.noteLeft): .using]
        case .using:
            [
                .profileReceived: .finished, .profileFailed: .finished, .responseReceived: .using,
                .requestFailed: .finished,
            ]
        case .fallingBack: [.savedProfileLoaded: .finished]
        case .finished: [:]
        }
    }

    static let now = Date(timeIntervalSince1970: 2_000_000_000)
    static let fresh = Fixtures.record(Fixtures.ana, expiresAt: now.addingTimeInterval(600))
    static let expired = Fixtures.record(Fixtures.ana, expiresAt: now.addingTimeInterval(-5))
    static let stored = Credentials(accessToken: "a1", refreshToken: "r1")

    /// A coordinator for `purpose` in `phase`, reached by the events of a session that is due; `nil` for a state the
    /// purpose never reaches.
    static func coordinator<Purpose>(_ purpose: Purpose, in phase: Phase) -> MainCoordinator<Purpose>? {
        var coordinator = MainCoordinator(purpose: purpose)
        let path: [Phase] = [
            .idle, .waitingForLock, .checkingRenewal, .refreshing, .storingRotation, .leavingNote, .using,
        ]
        switch phase {
        case .idle:
            return coordinator
        case .readingAccessToken:
            _ = coordinator.start(.stored(fresh), now: now, plainHTTP: PlainHTTP())
        case .finished:
            let remote = Fixtures.record(Account(server: "http://api.example.com/v1", name: "ana@example.com"))
            _ = coordinator.start(.stored(remote), now: now, plainHTTP: PlainHTTP())
        case .fallingBack:
            guard var profile = Self.coordinator(purpose, in: .using) as? MainCoordinator<ProfilePurpose> else {
                return nil
            }
            _ = profile.profileFailed(.timedOut)
            return profile as? MainCoordinator<Purpose>
        default:
            _ = coordinator.start(.stored(expired), now: now, plainHTTP: PlainHTTP())
            let results: [TokenResult] = [
                .locked(LockedSession(record: expired, credentials: stored, waitingSince: now)), .renewable,
                .refreshed(TokenGrant(accessToken: "a2", refreshToken: "r2")), .stored, .noteLeft,
            ]
            guard let steps = path.firstIndex(of: phase) else { return nil }
            for result in results.prefix(steps - 1) { _ = coordinator.settled(result, now: now) }
        }
        return coordinator.phase == phase ? coordinator : nil
    }

    /// Whether the purpose whose event `event` is reaches `phase`.
    static func reaches(_ event: Event, _ phase: Phase) -> Bool {
        switch event {
        case .refreshRequested: coordinator(RefreshPurpose(), in: phase) != nil
        case .responseReceived, .requestFailed: coordinator(RequestPurpose(), in: phase) != nil
        default: coordinator(ProfilePurpose(allowsSavedProfile: true), in: phase) != nil
        }
    }

    /// Feeds `event` to a coordinator in `phase`, made for the purpose whose event it is.
    static func feed(_ event: Event, to phase: Phase) -> Phase? {
        let details = ProfilePurpose(allowsSavedProfile: true)
        switch event {
        case .start:
            guard var coordinator = coordinator(details, in: phase) else { return nil }
            _ = coordinator.start(.stored(fresh), now: now, plainHTTP: PlainHTTP())
            return coordinator.phase
        case .refreshRequested:
            guard var coordinator = coordinator(RefreshPurpose(), in: phase) else { return nil }
            _ = coordinator.refreshRequested(fresh, plainHTTP: PlainHTTP())
            return coordinator.phase
        case .profileReceived, .profileFailed, .savedProfileLoaded:
            guard var coordinator = coordinator(details, in: phase) else { return nil }
            switch event {
            case .profileReceived: _ = coordinator.profileReceived(Profile(fields: [:]))
            case .profileFailed: _ = coordinator.profileFailed(.tokenRejected(challenge: nil))
            default: _ = coordinator.savedProfileLoaded(nil)
            }
            return coordinator.phase
        case .responseReceived, .requestFailed:
            guard var coordinator = coordinator(RequestPurpose(), in: phase) else { return nil }
            if event == .responseReceived {
                _ = coordinator.responseReceived(status: 200)
            } else {
                _ = coordinator.requestFailed(.timedOut)
            }
            return coordinator.phase
        case .token(let result):
            guard var coordinator = coordinator(details, in: phase) else { return nil }
            _ = coordinator.settled(result.sample(expired, stored, now: now), now: now)
            return coordinator.phase
        }
    }

    static func reached(_ phase: Phase) -> Bool {
        coordinator(ProfilePurpose(allowsSavedProfile: true), in: phase) != nil
    }
}
