import FoundationEssentials
import RequestMachine
import SessionMachine
import SwaggerClient
import SwaggerModel
import TestSupport
import Testing

@testable import SwaggerDocuments

/// The origin rule, without I/O: every URL a request of `api` goes to with the token is on the session's origin,
/// whoever wrote it: the person, a document (its path keys and base), a value put into a path, a redirect or a page.
@Suite("The origin rule: the token goes only to the session's origin", .timeLimit(.minutes(5)))
struct OriginRuleTests {
    static let server = Fixtures.serverURL("http://127.0.0.1:5001")
    static let other = "127.0.0.2:5001"

    /// A document with one operation, `op`, at `path`, under a server entry of `base`, read from a documentation host.
    static func index(path: String, base: String = "") throws -> OperationIndex {
        let document: JSONValue = .object([
            "openapi": "3.0.3", "info": .object(["title": "t", "version": "1"]),
            "servers": .array([.object(["url": .string("http://docs.example\(base)")])]),
            "paths": .object([
                path: .object([
                    "get": .object([
                        "operationId": "op",
                        "parameters": .array([
                            .object([
                                "name": "id", "in": "path", "required": true, "schema": .object(["type": "string"]),
                            ])
                        ]),
                        "responses": .object([:]),
                    ])
                ])
            ]),
        ])
        let url = try #require(URL(string: "http://docs.example/openapi.json"))
        return try #require(OperationIndex.read(Data(document.compactJSON.utf8), at: url))
    }

    @Test(
        "a document's path key, under its base, makes a URL on the session's origin, or the operation is refused",
        arguments: [
            ("/pets/{id}", "", "http://127.0.0.1:5001/pets/7"),
            ("/pets/{id}", "/v1", "http://127.0.0.1:5001/v1/pets/7"),
            // Read as a path on the origin, whatever it looks like after the first slash.
            ("/@\(other)/steal/{id}", "", "http://127.0.0.1:5001/@127.0.0.2:5001/steal/7"),
            ("/café/{id}", "", "http://127.0.0.1:5001/caf%C3%A9/7"),
            ("@\(other)/steal-at/{id}", "", nil),
            ("1/steal-port/{id}", "", nil),
            (" @\(other)/steal-space/{id}", "", nil),
            ("\t/steal-tab/{id}", "", nil),
            ("//\(other)/steal-slashes/{id}", "", nil),
            ("/\\\(other)/steal-backslash/{id}", "", nil),
            ("http://\(other)/steal-scheme/{id}", "", nil),
            ("/x/{id}\r\nHost: \(other)", "", nil),
            // A base does not make a path key that is not one into one.
            ("@\(other)/steal-at/{id}", "/v1", nil),
            (":1/steal-port/{id}", "/v1", nil),
        ] as [(String, String, String?)])
    func pathKeys(path: String, base: String, expected: String?) throws {
        let index = try Self.index(path: path, base: base)
        let operation = try #require(index.operations.first)
        #expect(operation.staysOnOrigin(under: index.basePath) == (expected != nil))
        let made = Result { () throws(SwaggerError) in
            try APIRequest(operation, in: index, on: Self.server, fields: [RequestField(key: "id", string: "7")])
        }
        switch (made, expected) {
        case (.success(let request), let expected?):
            #expect(request.url.absoluteString == expected)
        case (.failure(let error), nil):
            #expect(error.code == .usage)
            #expect(error.message.contains("would leave http://127.0.0.1:5001"), "\(error.message)")
        default:
            Issue.record("\(path) under \(base): \(made)")
        }
    }

    @Test(
        "a value put into a path is percent-encoded whole: it cannot reach the authority",
        arguments: ["@\(other)/x", "x@\(other)", "..%2F..", "../../x", "a b", "x?y#z"])
    func pathValues(value: String) throws {
        let index = try Self.index(path: "/pets/{id}")
        let operation = try #require(index.operations.first)
        let request = try APIRequest(
            operation, in: index, on: Self.server, fields: [RequestField(key: "id", string: value)])
        #expect(Self.server.isSameOrigin(request.url))
        #expect(request.url.host() == "127.0.0.1" && request.url.port == 5001 && request.url.user() == nil)
        #expect(request.url.path(percentEncoded: true).hasPrefix("/pets/"))
        #expect(!request.url.path(percentEncoded: true).dropFirst("/pets/".count).contains("/"))
    }

    @Test(
        "a path or URL the person gives is on the session's origin, or refused before anything is read",
        arguments: [
            ("/users/me", "http://127.0.0.1:5001/users/me"),
            ("users/me", "http://127.0.0.1:5001/users/me"),
            ("/@\(other)/x", "http://127.0.0.1:5001/@127.0.0.2:5001/x"),
            ("//\(other)/x", "http://127.0.0.1:5001//127.0.0.2:5001/x"),
            ("http://127.0.0.1:5001/x", "http://127.0.0.1:5001/x"),
            ("http://\(other)/x", nil),
            ("http://127.0.0.1:5001@\(other)/x", nil),
            ("http://127.0.0.1:50011/x", nil),
            ("https://127.0.0.1:5001/x", nil),
        ] as [(String, String?)])
    func personsPaths(target: String, expected: String?) {
        let made = Result { () throws(SwaggerError) in try APIRequest(target, on: Self.server) }
        switch (made, expected) {
        case (.success(let request), let expected?):
            #expect(request.url.absoluteString == expected)
        case (.failure(let error), nil):
            #expect(error.code == .usage && error.message.contains("Refusing to send the token"), "\(error.message)")
        default:
            Issue.record("\(target): \(made)")
        }
    }

    @Test(
        "a redirect takes the token only to the session's origin",
        arguments: [
            ("/next", true),
            ("http://127.0.0.1:5001/next", true),
            ("HTTP://127.0.0.1:5001/next", true),
            ("http://\(other)/next", false),
            ("http://127.0.0.1:5001@\(other)/next", false),
            ("//\(other)/next", false),
            ("http://127.0.0.1:50011/next", false),
            ("https://127.0.0.1:5001/next", false),
        ])
    func redirects(location: String, withToken: Bool) throws {
        let from = try #require(URL(string: "http://127.0.0.1:5001/items"))
        let decision = Redirect.decide(
            status: 302, location: location, from: from, method: "GET", server: Self.server, crossOrigin: true, hops: 0)
        guard case .follow(_, _, _, let carries) = decision else {
            Issue.record("\(location): \(decision)")
            return
        }
        #expect(carries == withToken)
    }

    @Test(
        "a page links only to pages on the session's origin, which carry the token; another is where paging stops",
        arguments: [
            ("/items?page=2", true),
            ("http://127.0.0.1:5001/items?page=2", true),
            ("http://\(other)/items?page=2", false),
            ("http://127.0.0.1:5001@\(other)/items?page=2", false),
            ("//\(other)/items?page=2", false),
            ("http://127.0.0.1:50011/items?page=2", false),
        ])
    func pages(next: String, onOrigin: Bool) throws {
        let first = try #require(URL(string: "http://127.0.0.1:5001/items"))
        var pagination = Pagination(first: first, server: Self.server)
        let page = APIResponse(
            url: first, status: 200, reason: "OK", headers: [],
            body: Data(#"{"results": [1, 2], "next": "\#(next)"}"#.utf8))
        let early = pagination.upcoming(after: page)
        let decision = pagination.received(page, from: first)
        switch decision {
        case .fetch(let url):
            #expect(onOrigin && Self.server.isSameOrigin(url))
            #expect(early == url)
        case .offServer:
            #expect(!onOrigin)
            #expect(early == nil)
        default:
            Issue.record("\(next): \(decision)")
        }
    }

    @Test(
        "a path is one on an origin only when it starts with one slash and holds no space, control or backslash",
        arguments: [
            ("/", true), ("/a/b?c=d", true), ("/@h:1/x", true), ("", false), ("a", false), ("@h/x", false),
            ("//h/x", false), ("/a b", false), ("/a\u{7F}", false), ("/a\\b", false), ("/a\u{0}", false),
            (" /a", false),
        ])
    func paths(path: String, expected: Bool) {
        #expect(ServerURL.isPathOnOrigin(path) == expected)
        #expect((Self.server.onOrigin(path) != nil) == expected)
    }
}
