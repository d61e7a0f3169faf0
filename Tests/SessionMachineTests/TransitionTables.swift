import Foundation
import SwaggerModel
import Testing

@testable import SessionMachine

/// A coordinator's transition table: the state each event leads to from each state, which
/// ``TransitionTableTests`` checks pair by pair.
protocol TransitionTable {
    associatedtype Phase: RawRepresentable<String>, CaseIterable, Hashable, Sendable where Phase.AllCases == [Phase]
    associatedtype Event: CaseIterable, Hashable, Sendable where Event.AllCases == [Event]

    /// The state each event leads to from `phase`. An event missing from the row cannot happen there.
    static func row(_ phase: Phase) -> [Event: Phase]

    /// Feeds `event` to a coordinator in `phase` and returns the state it moved to; `nil` when the coordinator that
    /// `event` is fed to never reaches `phase`, so that the pair cannot occur.
    static func feed(_ event: Event, to phase: Phase) -> Phase?

    /// Whether the coordinator that `event` is fed to reaches `phase`.
    static func reaches(_ event: Event, _ phase: Phase) -> Bool

    /// Whether the events the table's coordinators are given reach `phase`.
    static func reached(_ phase: Phase) -> Bool
}

extension TransitionTable {
    /// The pair `phase` and `event` by their places among the cases: what an exit test can carry.
    static func pair(_ phase: Int, _ event: Int) -> (Phase, Event) { (Phase.allCases[phase], Event.allCases[event]) }

    /// Checks the row of the pair at these places, and says whether the pair is one that must stop the process.
    static func mustStop(_ phase: Int, on event: Int) -> Bool {
        let (phase, event) = pair(phase, event)
        guard reaches(event, phase) else {
            #expect(row(phase)[event] == nil, "a row for a pair that cannot occur: \(phase), \(event)")
            return false
        }
        guard let next = row(phase)[event] else { return true }
        #expect(feed(event, to: phase) == next, "\(phase), \(event)")
        return false
    }

    static func feed(_ phase: Int, _ event: Int) {
        let (phase, event) = pair(phase, event)
        _ = feed(event, to: phase)
    }

    /// Every pair of the table, by places.
    static var pairs: [(phase: Int, event: Int)] {
        Phase.allCases.indices.flatMap { phase in Event.allCases.indices.map { (phase, $0) } }
    }

    static func name(_ phase: Int, _ event: Int) -> String {
        let (phase, event) = pair(phase, event)
        return "\(phase.rawValue), \(event)"
    }

    /// The states the table's coordinators are never brought to, by name.
    static var unreached: [String] { Phase.allCases.filter { !reached($0) }.map(\.rawValue) }
}

/// Every (state, event) pair of each coordinator, the invalid ones included: each valid event moves the coordinator
/// to the state its row names, and each invalid one stops the process.
@Suite("Transition tables: every (state, event) pair of each coordinator", .timeLimit(.minutes(5)))
struct TransitionTableTests {
    enum Coordinator: String, CaseIterable, Codable, Sendable {
        case main, login, logout, request

        var table: any TransitionTable.Type {
            switch self {
            case .main: MainCoordinatorTable.self
            case .login: LoginCoordinatorTable.self
            case .logout: LogoutCoordinatorTable.self
            case .request: RequestCoordinatorTable.self
            }
        }
    }

    struct Pair: Sendable, Codable, CustomTestStringConvertible {
        var coordinator: Coordinator
        var phase: Int
        var event: Int

        var testDescription: String { "\(coordinator.rawValue): \(coordinator.table.name(phase, event))" }
    }

    static let pairs = Coordinator.allCases.flatMap { coordinator in
        coordinator.table.pairs.map { Pair(coordinator: coordinator, phase: $0.phase, event: $0.event) }
    }

    @Test("every state is reached", arguments: Coordinator.allCases)
    func everyStateReached(_ coordinator: Coordinator) {
        #expect(coordinator.table.unreached.isEmpty, "\(coordinator.table.unreached)")
    }

    @Test("each pair moves to its row's state, or stops the process", arguments: pairs)
    func transition(_ pair: Pair) async {
        guard pair.coordinator.table.mustStop(pair.phase, on: pair.event) else { return }
        await #expect(processExitsWith: .failure) { [pair] in
            pair.coordinator.table.feed(pair.phase, pair.event)
        }
    }
}

/// The cases of ``TokenResult``, which the tables of the coordinators that ask for token work have an event for
/// each of: a new result does not compile until it is named here, and then each such table has its new pairs.
enum TokenResultCase: CaseIterable, Sendable {
    case accessToken, credentials, keysMissing, locked, renewable, notRenewable, refreshed, refreshFailed, stored
    case notStored, noteLeft

    init(_ result: TokenResult) {
        switch result {
        case .accessToken: self = .accessToken
        case .credentials: self = .credentials
        case .keysMissing: self = .keysMissing
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

    /// A result of this case, for a session of `record` whose tokens are `credentials`.
    func sample(_ record: SessionRecord, _ credentials: Credentials, now: Date) -> TokenResult {
        let full = SwaggerError(.failure, "The disk is full.")
        return switch self {
        case .accessToken: .accessToken(credentials.accessToken)
        case .credentials: .credentials(credentials)
        case .keysMissing: .keysMissing(credentials)
        case .locked: .locked(LockedSession(record: record, credentials: credentials, waitingSince: now))
        case .renewable: .renewable
        case .notRenewable: .notRenewable(full)
        case .refreshed: .refreshed(TokenGrant(accessToken: "a2", refreshToken: "r2"))
        case .refreshFailed: .refreshFailed(.timedOut)
        case .stored: .stored
        case .notStored: .notStored(full)
        case .noteLeft: .noteLeft
        }
    }
}
