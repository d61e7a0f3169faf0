import Foundation
import SwaggerModel
import TestSupport
import Testing

/// What a command says when the person has no session on the server it is about: a command that works from here,
/// in one line that fits two rows at 80 columns with the prefix it is printed with.
@Suite("Not logged in: the hint names switch when a session is elsewhere, the login when none is")
struct NotLoggedInTests {
    static let left = Fixtures.serverURL("http://127.0.0.1:8080/api")
    static let first = Fixtures.serverURL("http://127.0.0.1:41991/api")
    static let second = Fixtures.serverURL("http://127.0.0.1:41992/api")

    static func record(_ server: ServerURL, _ name: String = "demo@example.com", at seconds: TimeInterval = 0)
        -> SessionRecord
    {
        Fixtures.record(Account(server: server, name: name), savedAt: Fixtures.savedAt.addingTimeInterval(seconds))
    }

    static func hint(_ server: ServerURL = left, as name: String? = nil, among records: [SessionRecord]) -> String {
        Account.notLoggedIn(to: server, as: name, among: records, nil)
    }

    /// The rows the line takes on a terminal `columns` wide, as printed.
    static func rows(_ line: String, columns: Int) -> Int { ("swaggerctl: " + line).count / columns + 1 }

    @Test("a session on another server: switch to the one used last, not a login to the server just left")
    func switchesToTheLastUsed() {
        let line = Self.hint(among: [Self.record(Self.first, at: 0), Self.record(Self.second, at: 60)])
        #expect(
            line == "You are not logged in to \(Self.left). Run `swaggerctl switch -s \(Self.second)` to use the "
                + "session there.")
        #expect(Self.rows(line, columns: 80) <= 2, "\(line)")
        #expect(Self.rows(line, columns: 40) <= 4, "\(line)")
    }

    @Test("no session anywhere: the login of the server named")
    func logsInWithNoneElsewhere() {
        #expect(
            Self.hint(among: [])
                == "You are not logged in to \(Self.left). Run `swaggerctl login -s \(Self.left) -e you@example.com`.")
    }

    @Test("an account named: switch to its own session elsewhere, with -e; a login when it has none")
    func namedAccount() {
        let records = [Self.record(Self.first, "ana@example.com"), Self.record(Self.second, "bo@example.com", at: 60)]
        #expect(
            Self.hint(as: "ana@example.com", among: records)
                == "ana@example.com is not logged in to \(Self.left). Run `swaggerctl switch -s \(Self.first) -e "
                + "ana@example.com` to use the session there.")
        #expect(
            Self.hint(as: "cy@example.com", among: records)
                == "cy@example.com is not logged in to \(Self.left). Run `swaggerctl login -s \(Self.left) -e "
                + "cy@example.com`.")
    }

    @Test("another account on the server itself: it is named, and the login of the one asked for is the way")
    func someoneElseHere() {
        let line = Self.hint(as: "cy", among: [Self.record(Self.left), Self.record(Self.first, "cy", at: 60)])
        #expect(
            line == "cy has no session on \(Self.left); demo@example.com is logged in there. Run "
                + "`swaggerctl login -s \(Self.left) -u cy`.")
    }
}
