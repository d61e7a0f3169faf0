import Foundation
import SwaggerHTTP
import SwaggerModel
import SwaggerOutput
import TestSupport
import Testing

@testable import SwaggerClient

/// `swaggerctl api`'s parts with no I/O: the request it builds, the pages it follows, and the JSON it shows.
@Suite("api: requests, pagination and JSON text", .timeLimit(.minutes(5)))
struct APIRequestTests {
    static let server = APIRequestTests.serverURL()

    static func serverURL() -> ServerURL {
        do {
            return try ServerURL("https://api.example.com/v2")
        } catch {
            preconditionFailure("\(error)")
        }
    }

    // MARK: - Building the request

    @Test("a path goes under the server; a URL must be on the same origin, or nothing is sent")
    func targets() throws {
        #expect(
            try APIRequest("/users/me", on: Self.server).url.absoluteString == "https://api.example.com/v2/users/me")
        #expect(try APIRequest("users/me?a=1", on: Self.server).url.absoluteString.hasSuffix("/v2/users/me?a=1"))
        #expect(
            try APIRequest("HTTPS://API.example.com:443/v2/x", on: Self.server).url.absoluteString
                == "HTTPS://API.example.com:443/v2/x")
        for elsewhere in ["https://evil.example/v2/x", "http://api.example.com/v2/x", "https://api.example.com:8443/"] {
            #expect(throws: SwaggerError.self, "\(elsewhere)") { try APIRequest(elsewhere, on: Self.server) }
        }
    }

    @Test("fields make a JSON body, the last of a key winning, and the method defaults to POST")
    func jsonBody() throws {
        let fields = try ["name=Ana", "age:=41", "tags:=[\"a\"]", "name=Ana H."].map(Self.field)
        let request = try APIRequest("/users", on: Self.server, fields: fields)
        #expect(request.method == "POST")
        #expect(String(decoding: request.body ?? Data(), as: UTF8.self) == #"{"age":41,"name":"Ana H.","tags":["a"]}"#)
        #expect(request.headers == [HeaderField(name: "Content-Type", value: "application/json")])
    }

    @Test("for GET, and with --input, fields go in the query, percent-encoded: + and & stay themselves")
    func queryFields() throws {
        let fields = try ["q=a+b&c", "n:=5", "flag:=true", "sp=x y"].map(Self.field)
        let get = try APIRequest("/search?x=1", on: Self.server, method: "get", fields: fields)
        #expect(get.method == "GET")
        #expect(get.body == nil)
        #expect(get.url.query == "x=1&q=a%2Bb%26c&n=5&flag=true&sp=x%20y")

        let put = try APIRequest("/items/7", on: Self.server, method: "PUT", fields: fields, input: Data("raw".utf8))
        #expect(put.url.query == "q=a%2Bb%26c&n=5&flag=true&sp=x%20y")
        #expect(put.body == Data("raw".utf8))
        #expect(put.headers == [HeaderField(name: "Content-Type", value: "application/octet-stream")])
    }

    @Test("-F needs a key and a value, := needs JSON, and =@ names a file to read")
    func fieldSyntax() throws {
        #expect(try RequestField.parse("doc=@notes.txt", .typed) == .file(key: "doc", path: "notes.txt"))
        #expect(try RequestField.parse("a=b=c", .typed) == .value(RequestField(key: "a", string: "b=c")))
        for bad in ["novalue", "=x", ":=1", "n:=not json", "a[b=1", "a]b[=1", "[x]=1"] {
            #expect(throws: SwaggerError.self, "\(bad)") { try RequestField.parse(bad, .typed) }
        }
    }

    @Test("-f sends the text as it is; -F types true, false, null and integers, as gh api does")
    func ghFieldRules() throws {
        for text in ["@ana", "true", "41", "null", "x:=1"] {
            let raw = try RequestField.parse("v=\(text)", .raw)
            #expect(raw == .value(RequestField(key: "v", string: text)), "-f v=\(text)")
        }
        let typed: [(String, JSONValue)] = [
            ("true", .bool(true)), ("false", .bool(false)), ("null", .null), ("41", .integer(41)),
            ("-7", .integer(-7)), ("4.5", .string("4.5")), ("True", .string("True")), ("", .string("")),
        ]
        for (text, value) in typed {
            #expect(
                try RequestField.parse("v=\(text)", .typed) == .value(RequestField(key: "v", value: value)), "\(text)")
        }
    }

    @Test("nested keys build objects and arrays, as gh api does; a place wanted as two kinds is refused")
    func nestedKeys() throws {
        let fields = try [
            "user[name]=ana", "user[age]=41", "tags[]=a", "tags[]=b", "items[][id]=1", "items[][n]=x", "items[][id]=2",
            "none[]", "deep[a][b][]=true",
        ].map(Self.field)
        let request = try APIRequest("/x", on: Self.server, fields: fields)
        #expect(
            String(decoding: request.body ?? Data(), as: UTF8.self)
                == #"{"deep":{"a":{"b":[true]}},"items":[{"id":1,"n":"x"},{"id":2}],"none":[],"#
                + #""tags":["a","b"],"user":{"age":41,"name":"ana"}}"#)
        let get = try APIRequest("/x", on: Self.server, method: "GET", fields: [try Self.field("user[name]=ana")])
        #expect(get.url.query == "user%5Bname%5D=ana")
        #expect(throws: SwaggerError.self) {
            try APIRequest("/x", on: Self.server, fields: [try Self.field("a=1"), try Self.field("a[b]=2")])
        }
        #expect(throws: SwaggerError.self) {
            try APIRequest("/x", on: Self.server, fields: [try Self.field("a[]=1"), try Self.field("a[b]=2")])
        }
    }

    @Test("-H takes Name: value; the token's header, the host and framing are not the person's to set")
    func headers() throws {
        let request = try APIRequest("/x", on: Self.server, headers: ["X-Trace:  abc ", "Accept: text/csv"])
        #expect(request.headers == [.init(name: "X-Trace", value: "abc"), .init(name: "Accept", value: "text/csv")])
        for bad in [
            "Authorization: Bearer x", "host: a", "Content-Length: 3", "no colon", "Bad Name: x", "X: a\r\nB: c",
            "X: a\n",
        ] {
            #expect(throws: SwaggerError.self, "\(bad)") { try APIRequest("/x", on: Self.server, headers: [bad]) }
        }
        #expect(throws: SwaggerError.self) { try APIRequest("/x", on: Self.server, method: "GE T") }
    }

    static func field(_ argument: String) throws -> RequestField {
        guard case .value(let field) = try RequestField.parse(argument, .typed) else {
            throw SwaggerError(.usage, argument)
        }
        return field
    }

    @Test("a failure's line names the request and quotes an RFC 9457 problem's detail, else its title")
    func problemDetails() throws {
        let outcome = SessionController.RequestOutcome(
            status: 403, pages: 1, server: Self.server, method: "POST", usedEnvironmentToken: false)
        func line(_ body: String) -> String? {
            let response = APIResponse(
                url: Self.url("https://api.example.com/v2/accounts/12/msgs"), status: 403, reason: "Forbidden",
                headers: [HeaderField(name: "Content-Type", value: "application/problem+json")], body: Data(body.utf8))
            return ResponseRenderer.failure(response, outcome)?.message
        }
        #expect(
            line(
                #"{"type":"https://example.com/probs/out-of-credit","title":"You do not have enough credit.","#
                    + #""detail":"Your balance is 30, but that costs 50.","status":403}"#)
                == #"POST /v2/accounts/12/msgs was refused (HTTP 403 Forbidden): "Your balance is 30, but that costs 50"."#
        )
        #expect(
            line(#"{"type":"about:blank","title":"Forbidden by policy"}"#)
                == #"POST /v2/accounts/12/msgs was refused (HTTP 403 Forbidden): "Forbidden by policy"."#)
        #expect(line("") == "POST /v2/accounts/12/msgs was refused (HTTP 403 Forbidden).")
    }

    static func url(_ text: String) -> URL {
        guard let url = URL(string: text) else { preconditionFailure(text) }
        return url
    }

    @Test("JSON on a terminal is coloured as jq colours it: keys, strings and null; a hostile escape stays escaped")
    func colouredJSON() throws {
        let body = Data(#"{"name":"a: b","n":1,"none":null,"ok":true,"list":["x"],"bad":"\u001b[2J"}"#.utf8)
        let shown = String(decoding: ResponseRenderer(forTerminal: true, colour: true).body(body), as: UTF8.self)
        let (key, string, null, reset) = ("\u{1B}[1;34m", "\u{1B}[32m", "\u{1B}[1;30m", "\u{1B}[0m")
        #expect(shown.contains("\(key)\"name\"\(reset): \(string)\"a: b\"\(reset),"), "\(shown)")
        #expect(shown.contains("\(key)\"n\"\(reset): 1,"), "\(shown)")
        #expect(shown.contains("\(key)\"none\"\(reset): \(null)null\(reset),"), "\(shown)")
        #expect(shown.contains("\(key)\"ok\"\(reset): true,"), "\(shown)")
        #expect(shown.contains("\(string)\"x\"\(reset)"), "\(shown)")
        // The server's escape character is shown as text; the only escapes are the colours.
        // Six keys, three strings and one null, each opened and closed.
        #expect(shown.components(separatedBy: "\u{1B}").count - 1 == 2 * 10, "\(shown)")
        let plain = String(decoding: ResponseRenderer(forTerminal: true).body(body), as: UTF8.self)
        #expect(!plain.contains("\u{1B}"))
    }

    // MARK: - What is shown

    @Test("in a pipe the body is as received, its line ended; on a terminal JSON is indented and escapes are visible")
    func rendering() {
        // Valid JSON may hold a raw CSI (U+009B) or a bidi override (U+202E) in a string.
        let body = Data("{\"t\":\"a\u{9B}2Jb\u{202E}c\"}".utf8)
        #expect(ResponseRenderer(forTerminal: false).body(body) == body + Data("\n".utf8))
        #expect(ResponseRenderer(forTerminal: false).body(body + Data("\n".utf8)) == body + Data("\n".utf8))
        #expect(ResponseRenderer(forTerminal: false).body(body, separated: true) == body + Data("\n".utf8))
        let binary = Data([0x1F, 0x8B, 0x08, 0x00])
        #expect(ResponseRenderer(forTerminal: false).body(binary) == binary)
        let shown = String(decoding: ResponseRenderer(forTerminal: true).body(body), as: UTF8.self)
        #expect(shown == "{\n  \"t\": \"a\\u009b2Jb\\u202ec\"\n}\n")
        let text = String(
            decoding: ResponseRenderer(forTerminal: true).body(Data("a\u{1B}[2J\r\nb\n".utf8)), as: UTF8.self)
        #expect(text == "a\\u{1b}[2J\nb\n")
    }
}
