import Foundation
import TestSupport
import Testing

@testable import SwaggerModel

/// Requests written as data: templates over a step's inputs, and the requests they make.
@Suite("Request templates: inputs, earlier outputs, bodies, and the origin they cannot leave", .timeLimit(.minutes(5)))
struct RequestTemplateTests {
    static let server = Fixtures.serverURL("https://id.example.com/identity")

    static let inputs: [String: String] = [
        "account": "ana", "username": "ana", "password": "p&ss w/rd", "access": "tok", "user_id": "a b/c",
    ]
    static func input(_ name: String) -> String? { inputs[name] }

    @Test(
        "a template fills each placeholder; {name?} is empty without its value; {{ and }} are braces",
        arguments: [
            ("Bearer {access}", Template.Expansion.text("Bearer tok")),
            ("{access}", .text("tok")),
            ("{email?}", .omitted),
            ("to {email?}!", .text("to !")),
            ("{missing}", .missing("missing")),
            ("a {{literal}} {access}", .text("a {literal} tok")),
            ("", .text("")),
            ("é{{ü}}{access}😀}}", .text("é{ü}tok😀}")),
        ])
    func templates(_ text: String, _ expected: Template.Expansion) throws {
        #expect(try Template(text).expanded(Self.input) == expected)
    }

    @Test("a template that is not one is refused", arguments: ["{open", "close}", "{}", "{1st}", "{a-b}", "{a b}"])
    func badTemplates(_ text: String) {
        #expect(throws: JSONPointer.Invalid.self) { try Template(text) }
    }

    @Test("a template names its inputs, the needed ones apart, and shows itself with no value")
    func inputsAndShown() throws {
        let template = try Template("{account}:{password} {email?} {{x}}")
        #expect(template.inputs == ["account", "password", "email"])
        #expect(template.required == ["account", "password"])
        #expect(template.shown == "{account}:{password} {email} {{x}}")
        #expect(try Template("{email?}").lonePlaceholder == "email")
        #expect(try Template("x{email?}").lonePlaceholder == nil)
    }

    @Test("a JSON body: strings expand, members and elements that are an absent {name?} are left out")
    func jsonBody() throws {
        let template = try RequestTemplate(
            json: [
                "url": "/auth/tokens",
                "json": [
                    "auth": [
                        "methods": ["password", "{email?}"],
                        "user": ["name": "{username?}", "email": "{email?}", "password": "{password}"],
                    ],
                    "refresh_token": true, "n": 3,
                ],
            ], under: Self.server, method: "POST", at: "login.request")
        let request = try template.expanded(Self.input).get()
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://id.example.com/identity/auth/tokens")
        #expect(
            request.json
                == [
                    "auth": ["methods": ["password"], "user": ["name": "ana", "password": "p&ss w/rd"]],
                    "refresh_token": true, "n": 3,
                ])
        #expect(request.body.map { String(decoding: $0, as: UTF8.self) } == request.json?.compactJSON)
        #expect(template.inputs == ["username", "email", "password"])
    }

    @Test("a form: fields in order, grant_type first, an absent {name?} left out; client goes with a form only")
    func form() throws {
        let template = try RequestTemplate(
            json: [
                "url": "https://login.example.com/token",
                "form": [
                    "username": "{account}", "password": "{password}", "grant_type": "password", "scope": "{scope?}",
                ],
                "client": true,
            ], under: Self.server, method: "POST", at: "login.request")
        let request = try template.expanded(Self.input).get()
        #expect(request.form?.map(\.0) == ["grant_type", "password", "username"])
        #expect(
            request.body.map { String(decoding: $0, as: UTF8.self) }
                == "grant_type=password&password=p%26ss+w%2Frd&username=ana")
        #expect(template.client)
        #expect(throws: JSONPointer.Invalid.self) {
            try RequestTemplate(
                json: ["url": "/x", "json": [:], "client": true], under: Self.server, method: "POST",
                at: "login.request")
        }
    }

    @Test("an earlier output in the path is percent-encoded, so that it stays one segment; query and headers too")
    func pathAndHeaders() throws {
        let template = try RequestTemplate(
            json: [
                "method": "get", "url": "/v3/users/{user_id}",
                "headers": ["X-Auth-Token": "{access}", "X-Subject-Token": "{access}", "X-Maybe": "{email?}"],
                "query": ["include": "{account}"],
            ], under: Self.server, method: "POST", at: "profile.request")
        let request = try template.expanded(Self.input).get()
        #expect(request.method == "GET")
        #expect(request.url.absoluteString == "https://id.example.com/identity/v3/users/a%20b%2Fc?include=ana")
        #expect(
            request.headers == [
                HeaderField(name: "X-Auth-Token", value: "tok"), HeaderField(name: "X-Subject-Token", value: "tok"),
            ])
        #expect(template.address == "https://id.example.com/identity/v3/users/{user_id}")
    }

    @Test("a request that needs an input it has not got names it, and is not made")
    func missing() throws {
        let template = try RequestTemplate(
            json: ["url": "/revoke", "form": ["token": "{refresh}"]], under: Self.server, method: "POST",
            at: "revocation.requests")
        #expect(throws: RequestTemplate.MissingInput(name: "refresh")) { try template.expanded(Self.input).get() }
    }

    @Test(
        "a placeholder cannot stand in the scheme, the host or the port",
        arguments: ["https://{host}/x", "https://id.{domain}/x", "https://id.example.com:{port}/x", "{url}", "{p}/x"])
    func originFixed(_ url: String) {
        #expect(throws: JSONPointer.Invalid.self) {
            try RequestTemplate(json: ["url": .string(url)], under: Self.server, method: "GET", at: "profile.request")
        }
    }

    @Test("the language's form is read back as written, paths under the server as paths")
    func roundTrip() throws {
        let json: JSONValue = [
            "method": "DELETE", "url": "/v3/auth/tokens",
            "headers": ["X-Auth-Token": "{access}", "X-Subject-Token": "{access}"], "query": ["a": "1"],
        ]
        let template = try RequestTemplate(json: json, under: Self.server, method: "POST", at: "revocation")
        #expect(template.json(relativeTo: Self.server) == json)
        let elsewhere = try RequestTemplate(
            json: ["url": "https://other.example.com/token", "form": ["a": "{b}"], "client": true], under: Self.server,
            method: "POST", at: "login.request")
        #expect(
            elsewhere.json(relativeTo: Self.server)
                == ["method": "POST", "url": "https://other.example.com/token", "form": ["a": "{b}"], "client": true])
    }

    @Test(
        "a request's wrong parts are named",
        arguments: [
            (JSONValue.array([]), "login.request must be an object"),
            (["url": "/x", "body": "json"], "login.request.body is not part of a request"),
            (["json": [:]], "login.request.url is missing: where the request is sent"),
            (["url": "/x", "method": "GET /"], "login.request.method must be an HTTP method, such as POST"),
            (["url": "/x", "json": [:], "form": [:]], "login.request has a json body or a form, not both"),
            (["url": "/x", "headers": ["Bad Name": "v"]], "login.request.headers: Bad Name is not a header's name"),
            (["url": "/x", "headers": ["A": ["nested"]]], "login.request.headers.A must be text"),
        ] as [(JSONValue, String)])
    func wrong(_ json: JSONValue, _ reason: String) {
        let error = #expect(throws: JSONPointer.Invalid.self) {
            try RequestTemplate(json: json, under: Self.server, method: "POST", at: "login.request")
        }
        #expect(error?.reason == reason)
    }
}
