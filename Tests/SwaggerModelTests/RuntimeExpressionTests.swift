import Foundation
import TestSupport
import Testing

@testable import SwaggerModel

/// The pieces every step of a description is written with: JSON pointers, runtime expressions, criteria.
@Suite("Runtime expressions and criteria: what an answer yields, and what it means", .timeLimit(.minutes(5)))
struct RuntimeExpressionTests {
    /// An exchange as Keystone's login makes one: the token in a header, the rest in the body.
    static let keystone = Exchange(
        method: "POST", url: URL(string: "http://127.0.0.1:5000/v3/auth/tokens?nocatalog=1") ?? URL(filePath: "/"),
        requestHeaders: [HeaderField(name: "Content-Type", value: "application/json")],
        requestBody: ["auth": ["identity": ["methods": ["password"]]]], status: 201,
        responseHeaders: [
            HeaderField(name: "X-Subject-Token", value: "gAAAAAB"), HeaderField(name: "Vary", value: "X-Auth-Token"),
            HeaderField(name: "vary", value: "Accept"),
        ],
        responseBody: [
            "token": [
                "expires_at": "2026-12-02T01:00:00.000000Z", "user": ["id": "u1", "name": "ana"],
                "methods": ["password"], "a/b": 1, "m~n": 2,
            ],
            "truncated": true, "count": 26, "ratio": .number(1e3),
        ])

    @Test(
        "each form of a runtime expression reads its value",
        arguments: [
            ("$statusCode", JSONValue.integer(201)),
            ("$method", .string("POST")),
            ("$url", .string("http://127.0.0.1:5000/v3/auth/tokens?nocatalog=1")),
            ("$request.header.content-type", .string("application/json")),
            ("$request.query.nocatalog", .string("1")),
            ("$request.body#/auth/identity/methods/0", .string("password")),
            ("$response.header.X-Subject-Token", .string("gAAAAAB")),
            // Every field of a name, in any case, joined as RFC 9110 allows.
            ("$response.header.Vary", .string("X-Auth-Token, Accept")),
            ("$response.body#/token/user/id", .string("u1")),
            ("$response.body#/token/expires_at", .string("2026-12-02T01:00:00.000000Z")),
            ("$response.body#/token/a~1b", .integer(1)),
            ("$response.body#/token/m~0n", .integer(2)),
            ("$response.body#/truncated", .bool(true)),
        ])
    func reads(_ text: String, _ expected: JSONValue) throws {
        let expression = try RuntimeExpression(text)
        #expect(expression.value(in: Self.keystone) == expected)
        #expect(expression.description == text, "written back as read")
    }

    @Test(
        "what is not there has no value",
        arguments: [
            "$response.header.X-Missing", "$response.body#/token/user/email", "$response.body#/token/methods/1",
            "$response.body#/token/methods/01", "$request.query.absent", "$response.body#/count/deeper",
        ])
    func absent(_ text: String) throws {
        #expect(try RuntimeExpression(text).value(in: Self.keystone) == nil)
    }

    @Test(
        "text that is no expression is refused, naming it",
        arguments: [
            "statusCode", "$status", "$response.header.", "$response.header.Bad Name", "$response.body/token",
            "$response.body#token", "$response.body#/a~2", "$request.path", "$inputs.x",
            "$response.body#" + String(repeating: "/a", count: 33),
        ])
    func refused(_ text: String) {
        #expect(throws: JSONPointer.Invalid.self) { try RuntimeExpression(text) }
    }

    @Test("a pointer named with dots, as the language wrote members before, is the same pointer")
    func dotted() throws {
        #expect(JSONPointer(dotted: "token.user.id") == (try JSONPointer("/token/user/id")))
        #expect(JSONPointer(dotted: "data.token").description == "/data/token")
        #expect(try JSONPointer("").value(in: ["a": 1]) == ["a": 1])
    }

    /// A criterion, and whether it holds for Keystone's answer.
    @Test(
        "a criterion holds or not, by its comparisons, its joins and its literals",
        arguments: [
            ("$statusCode == 201", true),
            ("$statusCode != 201", false),
            ("$statusCode >= 200 && $statusCode < 300", true),
            ("$statusCode == 400 || $statusCode == 201", true),
            ("!($statusCode == 201)", false),
            ("! $response.body#/truncated", false),
            ("$response.body#/truncated", true),
            ("$response.body#/missing", false),
            ("$response.body#/truncated == true", true),
            ("$response.body#/token/user/id == 'u1'", true),
            (#"$response.body#/token/user/id == "u1""#, true),
            ("$response.body#/token/user/name == 'it''s'", false),
            ("$response.body#/missing == null", true),
            // A float is a number like any other: 1e3 is 1000.
            ("$response.body#/ratio == 1000", true),
            ("$response.body#/count > 25.5", true),
            // A header is text; beside a number it is read as one.
            ("$response.header.X-Subject-Token == 'gAAAAAB'", true),
            ("$response.body#/token/user/name < 'bob'", true),
            ("$statusCode == '201'", true),
            ("$response.body#/token == null", false),
            ("($statusCode == 1 || $statusCode == 201) && $response.body#/count == 26", true),
        ])
    func criteria(_ text: String, _ holds: Bool) throws {
        let criterion = try Criterion(text)
        #expect(criterion.holds(in: Self.keystone) == holds)
        #expect(criterion.json == .string(text), "written back as read")
    }

    @Test(
        "a criterion that does not parse is refused",
        arguments: [
            "", "$statusCode ==", "($statusCode == 1", "$statusCode == 1)", "$statusCode === 1", "'open",
            "$statusCode == 1 &&", "word", "$statusCode = 1",
            String(repeating: "(", count: 40) + "$statusCode" + String(repeating: ")", count: 40),
            String(repeating: "$statusCode == 1 || ", count: 60) + "true",
        ])
    func badCriteria(_ text: String) {
        #expect(throws: JSONPointer.Invalid.self) { try Criterion(text) }
    }

    @Test("a regex criterion matches a value's text, as Arazzo's regex type says; a status alone is its comparison")
    func regexAndStatus() throws {
        let challenge = Exchange(
            method: "GET", url: Fixtures.serverURL("http://h/api").url, status: 401,
            responseHeaders: [HeaderField(name: "WWW-Authenticate", value: #"Basic realm="RabbitMQ Management""#)],
            responseBody: ["flows": [["type": "m.login.password"]]])
        let realm = try Criterion(
            json: ["context": "$response.header.WWW-Authenticate", "condition": "RabbitMQ Management", "type": "regex"])
        #expect(realm.holds(in: challenge))
        #expect(
            realm.json == [
                "context": "$response.header.WWW-Authenticate", "condition": "RabbitMQ Management", "type": "regex",
            ])
        let flows = try Criterion(context: "$response.body#/flows", pattern: #""m\.login\.password""#)
        #expect(flows.holds(in: challenge))
        #expect(!(try Criterion(context: "$response.body#/flows", pattern: "sso")).holds(in: challenge))
        #expect(!(try Criterion(context: "$response.header.Missing", pattern: ".*")).holds(in: challenge))
        #expect(try Criterion(json: 401).holds(in: challenge))
        #expect(!(try Criterion(json: 410)).holds(in: challenge))
        #expect(throws: JSONPointer.Invalid.self) { try Criterion(context: "$statusCode", pattern: "(") }
        #expect(throws: JSONPointer.Invalid.self) { try Criterion(json: ["condition": "x", "type": "jsonpath"]) }
        #expect(throws: JSONPointer.Invalid.self) { try Criterion(json: 42) }
    }

    @Test("yields are expressions over the answer or templates over the inputs")
    func yields() throws {
        let header = try Yield("$response.header.X-Subject-Token")
        #expect(header.value(in: Self.keystone, inputs: { _ in nil }) == "gAAAAAB")
        #expect(!header.readsResponseBody)
        let basic = try Yield("{basic}")
        #expect(basic.value(in: nil, inputs: { $0 == "basic" ? "YW5hOlB3" : nil }) == "YW5hOlB3")
        #expect(basic.value(in: nil, inputs: { _ in nil }) == nil)
        #expect(Yield.member("token.user.id").value(in: Self.keystone, inputs: { _ in nil }) == "u1")
        #expect(Yield.member("token.user.id").readsResponseBody)
        #expect(throws: JSONPointer.Invalid.self) { try Yield("$nothing") }
        #expect(throws: JSONPointer.Invalid.self) { try Yield("{unclosed") }
    }
}
