import Foundation
import SessionMachine
import SwaggerModel
import TestSupport
import Testing

@Suite(
    "OriginRule.moved: where a changed description sends a session's tokens that it did not before",
    .timeLimit(.minutes(5)))
struct OriginRuleMovedTests {
    static let server = Fixtures.serverURL("https://api.example.com/v1")

    static func described(_ json: JSONValue) -> ServerDescription { Fixtures.described(json, under: server) }

    static let base: JSONValue = ["preset": "simplejwt", "profile": ["url": "/me"]]

    @Test(
        "each way of reaching another host counts once, in the description's order; what was reached before does not",
        arguments: [
            // Nothing new: the same description, a path moved on the same origin.
            ([:], []),
            (["profile": ["url": "/users/me"]], []),
            // A step on another host, an allowed origin, both, and the same host twice.
            (
                ["profile": ["url": "https://b.example/me"], "allowedOrigins": ["https://b.example"]],
                ["https://b.example"]
            ),
            (["allowedOrigins": ["https://c.example"]], ["https://c.example"]),
            (
                [
                    "refresh": ["url": "https://b.example/refresh"], "revocation": ["url": "https://b.example/revoke"],
                    "allowedOrigins": ["https://b.example", "https://c.example"],
                ],
                ["https://b.example", "https://c.example"]
            ),
        ] as [(JSONValue, [String])])
    func moved(change: JSONValue, expected: [String]) {
        let old = Self.described(Self.base)
        let new = Self.described(Self.base.merging(change))
        #expect(OriginRule.moved(Self.server, from: old, to: new).map(\.string) == expected)
    }

    @Test("an origin the old description already allowed is no move, and no old description makes every one new")
    func alreadyAllowed() {
        let allowed = Self.described(Self.base.merging(["allowedOrigins": ["https://b.example"]]))
        let stepThere = Self.described(
            Self.base.merging(["profile": ["url": "https://b.example/me"], "allowedOrigins": ["https://b.example"]]))
        #expect(OriginRule.moved(Self.server, from: allowed, to: stepThere).isEmpty)
        #expect(OriginRule.moved(Self.server, from: nil, to: stepThere).map(\.string) == ["https://b.example"])
    }
}
