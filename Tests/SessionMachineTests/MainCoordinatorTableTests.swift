import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SessionMachine

/// Every (state, event) pair of ``MainCoordinator``, the invalid ones included: each valid event moves the
/// coordinator to the state its row names, and each invalid one stops the process.
@Suite("MainCoordinator's transition table", .timeLimit(.minutes(5)))
struct MainCoordinatorTableTests {
    typealias Phase = MainCoordinatorPhase

    /// The coordinator's events, a ``TokenResult`` each by its case.
    enum Event: String, CaseIterable, Sendable {
        case start, refreshRequested
        case accessToken, credentials, locked, renewable, notRenewable, refreshed, refreshFailed, stored, notStored
        case noteLeft
        case profileReceived, profileFailed, savedProfileLoaded
        case responseReceived, requestFailed

        /// Every result has its event, so a new result does not compile until the table has its rows.
        init(_ result: TokenResult) {
            switch result {
            case .accessToken: self = .accessToken
            case .credentials: self = .credentials
            case .locked: self = .locked
            case .renewable: self = .renewable
            case .notRenewable: self = .notRenewable
            case .refreshed: self = .refreshed
            case .refreshFailed: self = .refreshFailed
            case .stored: self = .stored
            case .notStored: self = .notStored
            case .noteLeft: self = .noteLeft
            }
        }
    }

    /// The table: the state each event leads to from each state, as the events of ``feed(_:to:)`` are made. An
    /// event missing from a row cannot happen there.
    static func row(_ phase: Phase) -> [Event: Phase] {
        switch phase {
        case .idle: [.start: .readingAccessToken, .refreshRequested: .waitingForLock]
        case .readingAccessToken: [.accessToken: .using, .credentials: .using]
        case .waitingForLock: [.locked: .checkingRenewal]
        case .checkingRenewal: [.renewable: .refreshing, .notRenewable: .finished]
        case .refreshing: [.refreshed: .storingRotation, .refreshFailed: .leavingNote]
        case .storingRotation: [.stored: .leavingNote, .notStored: .finished]
        case .leavingNote: [.noteLeft: .using]
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

    /// Whether the purpose whose event `event` is reaches `phase`: where it does not, the pair cannot occur.
    static func reaches(_ event: Event, _ phase: Phase) -> Bool {
        switch event {
        case .refreshRequested: coordinator(RefreshPurpose(), in: phase) != nil
        case .responseReceived, .requestFailed: coordinator(RequestPurpose(), in: phase) != nil
        default: coordinator(ProfilePurpose(allowsSavedProfile: true), in: phase) != nil
        }
    }

    /// Feeds `event` to a coordinator in `phase`, made for the purpose whose event it is, and returns the state it
    /// moved to; `nil` when that purpose never reaches `phase`.
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
        default:
            guard var coordinator = coordinator(details, in: phase), let result = result(of: event) else { return nil }
            _ = coordinator.settled(result, now: now)
            return coordinator.phase
        }
    }

    static func result(of event: Event) -> TokenResult? {
        let results: [TokenResult] = [
            .accessToken("a1"), .credentials(stored),
            .locked(LockedSession(record: expired, credentials: stored, waitingSince: now)), .renewable,
            .notRenewable(SwaggerError(.failure, "The disk is full.")),
            .refreshed(TokenGrant(accessToken: "a2", refreshToken: "r2")), .refreshFailed(.timedOut), .stored,
            .notStored(SwaggerError(.failure, "The disk is full.")), .noteLeft,
        ]
        return results.first { Event($0) == event }
    }

    @Test("every state is reached, for the profile, by the events of a due session")
    func everyStateReached() {
        for phase in Phase.allCases {
            #expect(Self.coordinator(ProfilePurpose(allowsSavedProfile: true), in: phase) != nil, "\(phase)")
        }
    }

    @Test("each pair moves to its row's state, or stops the process", arguments: Phase.allCases, Event.allCases)
    func transition(phase: Phase, event: Event) async {
        guard Self.reaches(event, phase) else {
            #expect(Self.row(phase)[event] == nil, "a row for a pair that cannot occur")
            return
        }
        if let next = Self.row(phase)[event] {
            #expect(Self.feed(event, to: phase) == next)
            return
        }
        await #expect(processExitsWith: .failure) {
            [phaseName = phase.rawValue as String, eventName = event.rawValue as String] in
            guard let phase = Phase(rawValue: phaseName), let event = Event(rawValue: eventName) else { return }
            _ = Self.feed(event, to: phase)
        }
    }
}
