import Foundation
import SwaggerHTTP
import SwaggerModel
import TestSupport
import Testing

@testable import SwaggerClient

/// `swaggerctl api`'s parts with no I/O: the request it builds, the pages it follows, and the JSON it shows.
@Suite("api: requests, pagination and JSON text")
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

    // MARK: - Pagination

    static let first = url("https://api.example.com/v2/items?sort=new")

    static func url(_ text: String) -> URL {
        guard let url = URL(string: text) else { preconditionFailure(text) }
        return url
    }

    @Test(
        "Link rel=next is found among others, quoted or not, with commas inside quotes, and resolved against the page",
        arguments: [
            (#"<https://api.example.com/v2/items?page=2>; rel="next", <…?page=9>; rel="last""#, "?page=2"),
            (#"<./items?page=3>; title="a, b"; rel="prev next""#, "?page=3"),
            (#"</v2/items?page=4>; REL=Next"#, "?page=4"),
        ])
    func linkHeader(link: String, suffix: String) {
        let next = Pagination.next(after: Self.first, link: link, body: Data()).url
        #expect(
            next?.absoluteString.hasPrefix("https://api.example.com/v2/items") == true, "\(String(describing: next))")
        #expect(next?.absoluteString.hasSuffix(suffix) == true, "\(String(describing: next))")
    }

    @Test("the body's next, @odata.nextLink and has_more give the next page; null, false and none end the list")
    func bodyShapes() {
        func next(_ body: String, after url: URL = Self.first) -> String? {
            Pagination.next(after: url, link: nil, body: Data(body.utf8)).url?.absoluteString
        }
        #expect(
            next(#"{"next": "https://api.example.com/v2/items?cursor=x"}"#)
                == "https://api.example.com/v2/items?cursor=x")
        #expect(next(#"{"@odata.nextLink": "items?$skip=10"}"#) == "https://api.example.com/v2/items?$skip=10")
        #expect(next(#"{"items": [], "has_more": true}"#) == "https://api.example.com/v2/items?sort=new&page=2")
        // A number too large for a Double is still JSON, and the page still has a next one.
        #expect(next(#"{"total": 1e999, "has_more": true}"#) == "https://api.example.com/v2/items?sort=new&page=2")
        #expect(next(#"{"next": "items?page=\u0033"}"#) == "https://api.example.com/v2/items?page=3")
        #expect(
            next(#"{"has_more": true}"#, after: Self.url("https://api.example.com/v2/items?page=4&x=1"))
                == "https://api.example.com/v2/items?x=1&page=5")
        for last in [#"{"next": null, "results": []}"#, #"{"has_more": false}"#, "[1, 2]", "not json", ""] {
            #expect(next(last) == nil, "\(last)")
        }
    }

    @Test(
        "fastapi-pagination's and JSON:API's pages give the next page by links.next, next_page, page and pages, or offset, limit and total",
        arguments: [
            (#"{"items": [1], "links": {"next": "/v2/items?page=2&size=1", "prev": null}}"#, "/v2/items?page=2&size=1"),
            (
                #"{"data": [1], "links": {"self": "x", "next": "https://api.example.com/v2/items?page[number]=2"}}"#,
                "/v2/items?page%5Bnumber%5D=2"
            ),
            (#"{"items": [1], "total": null, "next_page": "Im5leHQi=="}"#, "/v2/items?sort=new&cursor=Im5leHQi%3D%3D"),
            (#"{"items": [1], "total": 25, "page": 2, "size": 10, "pages": 3}"#, "/v2/items?sort=new&page=3"),
            (#"{"items": [1], "total": 25, "limit": 10, "offset": 10}"#, "/v2/items?sort=new&offset=20"),
            // JSON:API 1.1's link object, and a page number in next beside page and pages.
            (#"{"data": [1], "links": {"next": {"href": "/v2/items?page=5"}}}"#, "/v2/items?page=5"),
            (#"{"items": [1], "next": 3, "page": 2, "pages": 4}"#, "/v2/items?sort=new&page=3"),
            // Litestar's classic pages, in the page's own parameter; Laravel's, by page.
            (
                #"{"items": [1], "current_page": 1, "total_pages": 3, "page_size": 10}"#,
                "/v2/items?sort=new&current_page=2"
            ),
            (#"{"data": [1], "current_page": 2, "last_page": 3}"#, "/v2/items?sort=new&page=3"),
            // APIFlask's pagination object, HAL's _links, and a meta object's next.
            (
                #"{"items": [1], "pagination": {"next": "/v2/items?page=2&per_page=10", "prev": ""}}"#,
                "/v2/items?page=2&per_page=10"
            ),
            (
                #"{"_embedded": {}, "_links": {"next": {"href": "https://api.example.com/v2/items?page=1"}}}"#,
                "/v2/items?page=1"
            ),
            (#"{"data": [1], "meta": {"next": "/v2/items?after=x"}}"#, "/v2/items?after=x"),
            // Spring Data's pages count from 0.
            (#"{"content": [1], "number": 0, "totalPages": 2, "size": 10}"#, "/v2/items?sort=new&page=1"),
        ])
    func pageTypes(body: String, next: String) {
        let found = Pagination.next(after: Self.first, link: nil, body: Data(body.utf8))
        #expect(found == .next(Self.url("https://api.example.com" + next)), "\(found)")
    }

    @Test(
        "the last page of each type ends the list, and so does a Link header without next",
        arguments: [
            #"{"items": [], "links": {"next": null}}"#, #"{"items": [1], "next_page": null}"#,
            #"{"items": [1], "page": 3, "pages": 3}"#, #"{"items": [1], "limit": 10, "offset": 20, "total": 25}"#,
            #"{"id": 1, "name": "one item"}"#, #"{"items": [1, 2]}"#,
            #"{"items": [1], "current_page": 3, "total_pages": 3}"#, #"{"items": [1], "pagination": {"next": ""}}"#,
            #"{"content": [1], "number": 1, "totalPages": 2}"#,
        ])
    func lastPages(body: String) {
        #expect(Pagination.next(after: Self.first, link: nil, body: Data(body.utf8)) == .last)
        #expect(Pagination.next(after: Self.first, link: #"<https://x/?page=1>; rel="first""#, body: Data()) == .last)
    }

    @Test(
        "a Link header with pagination's relations but no next is the last page, whatever the body says",
        arguments: [
            #"<https://api.example.com/v2/items?page=1>; rel="prev""#,
            #"<https://api.example.com/v2/items?page=1>; rel="previous""#,
            #"<https://api.example.com/v2/items?page=1>; rel="first""#,
            #"<https://api.example.com/v2/items?page=9>; rel="last""#,
        ])
    func linkWithoutNext(link: String) {
        // A body that would page on its own: the header, which the server sent for this, is what counts.
        let body = Data(#"{"next": "/v2/items?page=2", "results": [1]}"#.utf8)
        #expect(Pagination.next(after: Self.first, link: link, body: body) == .last)
    }

    @Test("a Link header without pagination's relations leaves the body to say where the next page is")
    func unrelatedLink() {
        let body = Data(#"{"next": "/v2/items?page=2", "results": []}"#.utf8)
        let found = Pagination.next(after: Self.first, link: #"</schema>; rel="describedby""#, body: body)
        #expect(found == .next(Self.url("https://api.example.com/v2/items?page=2")))
        // A next page number that no other member explains is undetermined, not the end.
        let numbered = Data(#"{"items": [1], "next": 3}"#.utf8)
        #expect(Pagination.next(after: Self.first, link: nil, body: numbered) == .unknown(members: ["items", "next"]))
    }

    @Test("a list beside a count or a position that says nothing of the next page is undetermined, never the last")
    func undetermined() {
        let body = Data(#"{"items": [1, 2], "total": 25}"#.utf8)
        #expect(Pagination.next(after: Self.first, link: nil, body: body) == .unknown(members: ["items", "total"]))
        var pagination = Pagination(first: Self.first, server: Self.server)
        #expect(pagination.received(Self.first, link: nil, body: body) == .undetermined(members: ["items", "total"]))
        // Flask-AppBuilder's list: 20 of 25 items in "result", its page in a rison argument.
        let partial = Data(#"{"count": 25, "ids": [1, 2], "result": [{"id": 1}, {"id": 2}]}"#.utf8)
        #expect(
            Pagination.next(after: Self.first, link: nil, body: partial) == .unknown(members: ["result", "count"]))
    }

    @Test("a total beside the list is followed page by page where the page is in the query or the description names it")
    func countedPages() {
        func page(_ ids: ClosedRange<Int>) -> Data {
            Data(#"{"items": [\#(ids.map(String.init).joined(separator: ","))], "count": 25}"#.utf8)
        }
        // Django Ninja's first page names no page; its document does.
        let first = Self.url("https://api.example.com/v2/items")
        var ninja = Pagination(first: first, server: Self.server, pageParameter: "page")
        let second = Self.url("https://api.example.com/v2/items?page=2")
        #expect(ninja.received(first, link: nil, body: page(1...10)) == .fetch(second))
        let third = Self.url("https://api.example.com/v2/items?page=3")
        #expect(ninja.received(second, link: nil, body: page(11...20)) == .fetch(third))
        #expect(ninja.received(third, link: nil, body: page(21...25)) == .complete)
        // A page in the query is enough; and an empty page ends the list whatever the total says.
        var queried = Pagination(first: Self.url("https://api.example.com/v2/items?page=1"), server: Self.server)
        let pageOne = Self.url("https://api.example.com/v2/items?page=1")
        #expect(queried.received(pageOne, link: nil, body: page(1...10)) == .fetch(second))
        #expect(queried.received(second, link: nil, body: Data(#"{"items": [], "count": 25}"#.utf8)) == .complete)
        // Without either, it cannot be followed: part of a list never passes for all of it.
        var unnamed = Pagination(first: first, server: Self.server)
        #expect(unnamed.received(first, link: nil, body: page(1...10)) == .undetermined(members: ["items", "count"]))
        // A list that ignores the parameter answers the first page again: that page is the end of what can be had,
        // and is said, not taken for the next.
        var ignored = Pagination(first: first, server: Self.server, pageParameter: "page")
        #expect(ignored.received(first, link: nil, body: page(1...10)) == .fetch(second))
        #expect(ignored.received(second, link: nil, body: page(1...10)) == .repeated(second))
    }

    @Test("pages stop at the limit, before another origin, and at a page already fetched")
    func stops() {
        func page(_ target: String) -> Data { Data(#"{"next": "\#(target)"}"#.utf8) }
        // Every page, unless a limit is set.
        var unlimited = Pagination(first: Self.first, server: Self.server)
        for number in 2...500 {
            let next = Self.url("https://api.example.com/v2/items?page=\(number)")
            guard unlimited.received(Self.first, link: nil, body: page(next.absoluteString)) == .fetch(next) else {
                Issue.record("stopped at page \(number)")
                break
            }
        }
        var limited = Pagination(first: Self.first, server: Self.server, limit: 2)
        let second = Self.url("https://api.example.com/v2/items?page=2")
        #expect(limited.received(Self.first, link: nil, body: page(second.absoluteString)) == .fetch(second))
        let third = Self.url("https://api.example.com/v2/items?page=3")
        #expect(limited.received(second, link: nil, body: page(third.absoluteString)) == .limitReached(next: third))

        var elsewhere = Pagination(first: Self.first, server: Self.server)
        let evil = Self.url("https://evil.example/collect")
        #expect(elsewhere.received(Self.first, link: nil, body: page(evil.absoluteString)) == .offServer(evil))

        var looping = Pagination(first: Self.first, server: Self.server)
        #expect(looping.received(Self.first, link: nil, body: page(second.absoluteString)) == .fetch(second))
        #expect(looping.received(second, link: nil, body: page(Self.first.absoluteString)) == .loop(Self.first))
        #expect(looping.received(second, link: nil, body: Data("[]".utf8)) == .complete)
    }

    @Test("the page asked for early is the one received then fetches, and never one it would refuse")
    func upcomingPages() {
        func page(_ target: String) -> Data { Data(#"{"items": [{"id": 1}], "next": "\#(target)"}"#.utf8) }
        let second = Self.url("https://api.example.com/v2/items?page=2")
        let third = Self.url("https://api.example.com/v2/items?page=3")
        var limited = Pagination(first: Self.first, server: Self.server, limit: 2)
        #expect(limited.upcoming(after: Self.first, link: nil, body: page(second.absoluteString)) == second)
        #expect(limited.received(Self.first, link: nil, body: page(second.absoluteString)) == .fetch(second))
        // Past the limit, on another origin, or fetched before: nothing is asked for.
        #expect(limited.upcoming(after: second, link: nil, body: page(third.absoluteString)) == nil)
        var open = Pagination(first: Self.first, server: Self.server)
        #expect(open.upcoming(after: Self.first, link: nil, body: page("https://evil.example/collect")) == nil)
        #expect(open.received(Self.first, link: nil, body: page(second.absoluteString)) == .fetch(second))
        #expect(open.upcoming(after: second, link: nil, body: page(Self.first.absoluteString)) == nil)
        // From the Link header, and from members before the list (Django REST framework's) or after it.
        let link = #"<https://api.example.com/v2/items?page=3>; rel="next""#
        #expect(open.upcoming(after: second, link: link, body: Data("not JSON".utf8)) == third)
        let before = Data(#"{"count": 9, "next": "/v2/items?page=3", "results": [{"a": "}"}]}"#.utf8)
        #expect(open.upcoming(after: second, link: nil, body: before) == third)
        let after = Data(#"{"items": [[1], {"next": "/x"}], "has_more": true}"#.utf8)
        #expect(open.upcoming(after: second, link: nil, body: after) == third)
        // A next link inside an object between the edges is not seen early; received finds it.
        let nested = Data(#"{"items": [1], "links": {"next": "/v2/items?page=3"}, "total": 9}"#.utf8)
        #expect(open.upcoming(after: second, link: nil, body: nested) == nil)
        #expect(open.received(second, link: nil, body: nested) == .fetch(third))
        // A page that repeats the last is asked past early, and then not followed.
        var repeating = Pagination(first: Self.first, server: Self.server)
        let same = page(second.absoluteString)
        #expect(repeating.received(Self.first, link: nil, body: same) == .fetch(second))
        let again = Data(#"{"items": [{"id": 1}], "next": "/v2/items?page=3"}"#.utf8)
        #expect(repeating.upcoming(after: second, link: nil, body: again) == third)
        #expect(repeating.received(second, link: nil, body: again) == .repeated(second))
    }

    @Test("the next page found early is the one the whole page decides, on thousands of pages and their edits")
    func earlyAgainstWhole() {
        let seeds = [
            #"{"items": [{"id": 1}, {"id": 2}], "next": "/v2/items?page=2"}"#,
            #"{"count": 9, "next": "https://api.example.com/v2/items?page=3", "results": [{"a": "}"}]}"#,
            #"{"next": "/v2/a", "items": [1], "next": "/v2/b"}"#,
            #"{"next": {"href": "/v2/c"}, "items": [1], "has_more": true}"#,
            #"{"items": [1], "links": {"next": "/v2/d"}, "next": null, "total": 9}"#,
            #"{"items": [2], "next": "", "@odata.nextLink": "/v2/e"}"#,
            #"{"next": "https://evil.example/x", "data": [3]}"#, #"[{"next": "/v2/f"}]"#,
        ]
        let links: [String?] = [nil, #"</v2/items?page=9>; rel="next""#, #"</v2/items?page=1>; rel="prev""#]
        var compared = 0
        for (round, bytes) in Self.edited(seeds, seed: 5988, fewest: 0).enumerated() {
            let body = Data(bytes)
            // Each seed with each number of edits (24 rounds) with each header, and some with a limit.
            let link = links[round / 24 % links.count]
            // One asked early and then told of the whole page, the other only told: the same state before.
            var early = Pagination(first: Self.first, server: Self.server, limit: round / 72 % 7 == 0 ? 1 : nil)
            var whole = early
            let guess = early.upcoming(after: Self.first, link: link, body: body)
            let decided = early.received(Self.first, link: link, body: body)
            #expect(
                decided == whole.received(Self.first, link: link, body: body),
                "\(String(decoding: bytes, as: UTF8.self))")
            if guess != nil, case .fetch = decided { compared += 1 }
            // And on from there: the page decided is fetched, and counted, by both.
            #expect(early.count == whole.count)
        }
        #expect(compared > 500)
    }

    @Test("a next link is resolved against its page as Foundation resolves it, whatever its form")
    func resolvedAsFoundation() throws {
        let pages = [
            "https://api.example.com/v2/items?page=1", "http://user:pw@127.0.0.1:8080/a/b/c?x=1#f",
            "http://[::1]:8080/list", "https://example.com", "https://example.com?page=1", "HTTPS://Example.COM:443/a/",
        ]
        let targets = [
            "/v2/items?page=2", "/p/2.json", "/", "/a/../b", "/a/./b", "/.hidden", "/a/b/..", "//other.example/x",
            "/x?cursor=a%2Fb%3D&n=1#top", "/%2e%2e/x", "/a b", "/ä/ö?q=ü", "/x\\y", "?page=3", "#frag", "page=3",
            "../up", "items?page=2", "https://other.example/x", "/x?next=/a/../b", "/x#a/./b", "",
        ]
        for page in pages {
            let base = try #require(URL(string: page))
            for target in targets {
                let expected = URL(string: target, relativeTo: base)?.absoluteURL
                let resolved = Pagination.resolve(target, against: base)
                #expect(resolved?.absoluteString == expected?.absoluteString, "\(target) on \(page)")
                #expect(resolved?.baseURL == nil)
            }
        }
    }

    // MARK: - JSON text

    @Test("indenting keeps member order, number spellings and escapes, and empty containers stay on one line")
    func indented() {
        let text = #"{"z":1.50,"a":[ ],"s":"x\"],{y\\","o":{},"n":[1,{"k":null}],"e":1E+2}"#
        #expect(
            JSONText.indented(Data(text.utf8)) == """
                {
                  "z": 1.50,
                  "a": [],
                  "s": "x\\"],{y\\\\",
                  "o": {},
                  "n": [
                    1,
                    {
                      "k": null
                    }
                  ],
                  "e": 1E+2
                }
                """)
        #expect(JSONText.indented(Data("42".utf8)) == "42")
        #expect(JSONText.indented(Data("{\"a\":".utf8)) == nil)
        #expect(JSONText.indented(Data("<html>".utf8)) == nil)
    }

    @Test("JSON is RFC 8259's grammar: no trailing commas, leading zeros, raw controls, bad escapes or deep nesting")
    func grammar() {
        let valid = [#" {"a": [1, -0.5e+3, 1e999, true, null, "\u00e9\n"]} "#, "0", #""x""#, "[]", "{}"]
        for text in valid { #expect(JSONText.isJSON(Data(text.utf8)), "\(text)") }
        let invalid = [
            "[1,]", #"{"a":1,}"#, "01", "1.", ".5", "+1", "'a'", "\"a\u{1}\"", #""\x""#, #""\u12""#, "[1] [2]", "nul",
            String(repeating: "[", count: 600) + String(repeating: "]", count: 600), "",
        ]
        for text in invalid { #expect(!JSONText.isJSON(Data(text.utf8)), "\(text)") }
        #expect(!JSONText.isJSON(Data([0x22, 0xFF, 0x22])))
    }

    @Test("the grammar agrees with Foundation's parser on thousands of texts one edit away from JSON")
    func grammarAgainstFoundation() {
        let seeds = [
            #"{"items": [{"id": 1, "name": "Item 1", "done": false, "tags": ["a", "b"]}], "next": "/p/2"}"#,
            #"[1, -2.5e+3, true, null, {"a": {"b": [[], {}]}}, "x\"y\n"]"#, #"{"a": 0, "b": 1.0E-2}"#,
        ]
        for bytes in Self.edited(seeds, seed: 8259, fewest: 1) {
            let data = Data(bytes)
            let text = String(decoding: bytes, as: UTF8.self)
            // Foundation takes a comma before an object's `}`, which RFC 8259 does not.
            let foundation =
                text.contains(/,\s*[}\]]/)
                ? false
                : (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil
            #expect(JSONText.isJSON(data) == foundation, "\(text)")
        }
    }

    /// Outlines `bytes`, without a fault, and when they are a JSON object or array, expects what a parser finds:
    /// the members, each value, the list and its count. Whether they were compared.
    static func outlinedAsParsed(_ bytes: [UInt8]) throws -> Bool {
        func canonical(_ value: Any) throws -> Data {
            try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        }
        func canonical(_ text: Data) throws -> Data {
            try canonical(JSONSerialization.jsonObject(with: text, options: .fragmentsAllowed))
        }
        let outline = JSONText.outline(of: Data(bytes))
        let text = String(decoding: bytes, as: UTF8.self)
        guard JSONText.isJSON(Data(bytes)),
            let parsed = try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed),
            parsed is [String: Any] || parsed is [Any]
        else { return false }
        let page = try #require(outline, "\(text)")
        if let object = parsed as? [String: Any] {
            let ranges = try #require(page.members?.ranges, "\(text)")
            // A key is kept as written, escapes and all.
            let keys = try ranges.keys.map { try JSONDecoder().decode(String.self, from: Data("\"\($0)\"".utf8)) }
            #expect(Set(keys) == Set(object.keys), "\(text)")
            for (key, range) in ranges {
                let decoded = try JSONDecoder().decode(String.self, from: Data("\"\(key)\"".utf8))
                let value = try #require(object[decoded], "\(text)")
                #expect(try canonical(page.bytes[range]) == canonical(value), "\(text)")
            }
            let list = JSONText.itemKeys.lazy.compactMap { object[$0] as? [Any] }.first
            #expect(try page.list.map { try canonical(page.bytes[$0]) } == list.map(canonical), "\(text)")
            #expect(page.count == list?.count ?? 0, "\(text)")
        } else {
            #expect(page.members == nil && page.count == (parsed as? [Any])?.count, "\(text)")
        }
        return true
    }

    @Test("a long page's outline is what a parser finds, and the same wherever its blocks of 64 bytes fall")
    func outlineOfLongPages() throws {
        // Strings with escaped quotes and backslashes, brackets and commas inside them, and containers within.
        let values = [
            #""a""#, #""he said \"hi\"""#, #""[{,}]""#, #""back\\slash\\""#, "12", "true", "null", #""\\""#,
            #""\"""#, #""ünï, \u0041""#, #"{"k": [1, "]"]}"#, "[]", "{}", #"[[{"x": ","}], "}"]"#,
        ]
        var generator = SplitMix64(seed: 6455)
        func value() -> String { values[Int(generator.next() % UInt64(values.count))] }
        let seeds = (0..<40).map { round -> String in
            let items = (0..<Int(generator.next() % 30)).map { index in
                round % 4 == 0 ? value() : #"{"id": \#(index), "s": \#(value()), "t": [\#(value()), \#(value())]}"#
            }
            let list = "[" + items.joined(separator: ",") + "]"
            return round % 5 == 0 ? list : #"{"count": \#(items.count), "items": \#(list), "next": "/p/2"}"#
        }
        #expect(try seeds.allSatisfy { try Self.outlinedAsParsed(Array($0.utf8)) })
        let edited = Self.edited(seeds, seed: 2731, fewest: 1)
        #expect(try edited.count(where: Self.outlinedAsParsed) > 300)
        // The blocks start where a list's contents do: spaces after its `[` move every block boundary.
        func shape(_ bytes: [UInt8]) -> [String]? {
            JSONText.outline(of: Data(bytes)).map { ($0.members?.ranges.keys.sorted() ?? []) + ["\($0.count)"] }
        }
        for (round, bytes) in edited.enumerated() {
            // Unless an edit put that `[` in a key, which the spaces would then change.
            guard let open = bytes.firstIndex(of: UInt8(ascii: "[")),
                shape(bytes)?.contains(where: { $0.contains("[") }) != true
            else { continue }
            var moved = bytes
            moved.insert(contentsOf: repeatElement(UInt8(ascii: " "), count: 1 + round % 63), at: open + 1)
            #expect(shape(moved) == shape(bytes), "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    @Test("a page's outline finds what a parser finds in JSON, on thousands of texts and their edits")
    func outlineAgainstFoundation() throws {
        let seeds = [
            #" {"items": [{"id": 1, "tags": ["a,b", "c]"]}, {}], "next": "/p/2", "links": {"next": "/p/3"}} "#,
            #"[1, [2, 3], {"a": [4]}, "x\"],y"]"#, #"{"data": [], "ab": {"c": [1, 2]}, "count": 0, "s": "{\\"}"#,
            #"{"value" : [ 1 , 2 ] , "k" : "v" }"#, "[]", "{}",
            // Strings longer than the eight bytes read at a time, with a quote or a backslash past them.
            #"{"results": ["abcdefghij\"kl]mnopqrstu\\", "0123456789abcdef", "x"], "next": "/p/2?q=\"]\""}"#,
        ]
        let compared = try Self.edited(seeds, seed: 8288, fewest: 0).count(where: Self.outlinedAsParsed)
        #expect(compared > 1500)
        // Brackets that do not close, or text after them, outline nothing; a trailing comma does not stop it.
        #expect(JSONText.outline(of: Data(#"{"items": [1, 2"#.utf8)) == nil)
        #expect(JSONText.outline(of: Data(#"{"a": "b}"#.utf8)) == nil)
        #expect(JSONText.outline(of: Data(#"{"a": 1} x"#.utf8)) == nil)
        #expect(JSONText.outline(of: Data("<html>".utf8)) == nil)
        #expect(JSONText.outline(of: Data(#"{"items": [1,], "n": NaN}"#.utf8))?.members?["n"] == "NaN")
    }

    @Test("the members at a page's edges are the outline's, read from each end, strings with quotes and all")
    func edgeMembers() throws {
        let seeds = [
            #"{"count": 8, "next": "/p/2", "results": [{"a": "]"}], "previous": null, "n": -1.5e3 }"#,
            #"{"items": [1], "note": "a \",\"next\":\"/evil\" b\\", "next": "/p/2"}"#,
            #" { "a" : "x" , "b" : true } "#, #"{"data": {"next": "/in"}, "z": [], "next": "/p/3"}"#,
        ]
        var compared = 0
        for bytes in Self.edited(seeds, seed: 8287, fewest: 0) {
            let text = String(decoding: bytes, as: UTF8.self)
            let edges = JSONText.edgeMembers(of: Data(bytes))
            guard JSONText.isJSON(Data(bytes)), let outline = JSONText.outline(of: Data(bytes))?.members else {
                continue
            }
            // Each member found at an edge is one of the object's, with the value it has there.
            let found = try #require(edges, "\(text)")
            for (key, range) in found.ranges { #expect(outline.ranges[key] == range, "\(text)") }
            compared += 1
        }
        #expect(compared > 1000)
        let drf = try #require(JSONText.edgeMembers(of: Data(seeds[0].utf8)))
        #expect(Set(drf.ranges.keys) == ["count", "next", "previous", "n"] && drf["n"] == "-1.5e3")
        let quoted = try #require(JSONText.edgeMembers(of: Data(seeds[1].utf8)))
        #expect(quoted["next"] == #""/p/2""# && quoted["note"] == #""a \",\"next\":\"/evil\" b\\""#)
        #expect(JSONText.edgeMembers(of: Data(seeds[3].utf8))?["next"] == #""/p/3""#)
        #expect(JSONText.edgeMembers(of: Data("[1]".utf8)) == nil)
    }

    /// 4,000 texts made from `seeds` in turn by `fewest` to `fewest + 2` random edits each: a byte replaced, added or
    /// removed. The edits use only ASCII without `\u` escapes, where RFC 8259's rules and Foundation's parser agree.
    static func edited(_ seeds: [String], seed: UInt64, fewest: Int) -> [[UInt8]] {
        let alphabet = Array(#"{}[],:" 0123456789.-+eEtrufalsn\/ab"#.utf8)
        var generator = SplitMix64(seed: seed)
        return (0..<4000).map { round in
            var bytes = Array(seeds[round % seeds.count].utf8)
            for _ in 0..<(fewest + round % 3) {
                let at = Int(generator.next() % UInt64(bytes.count))
                let byte = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                switch generator.next() % 3 {
                case 0: bytes[at] = byte
                case 1: bytes.insert(byte, at: at)
                default: bytes.remove(at: at)
                }
                if bytes.isEmpty { bytes = [UInt8(ascii: "0")] }
            }
            return bytes
        }
    }

    @Test("a page's items: a top-level array, or the array under items, results, data or value, each as sent")
    func items() {
        #expect(
            JSONText.items(of: Data(#" [ {"b":1, "a":2} , "x,]" ,3 ] "#.utf8)) == [#"{"b":1, "a":2}"#, #""x,]""#, "3"])
        #expect(
            JSONText.items(of: Data(#"{"count":2,"results":[{"pk":1},{"pk":2}],"next":null}"#.utf8)) == [
                #"{"pk":1}"#, #"{"pk":2}"#,
            ])
        #expect(JSONText.items(of: Data(#"{"data":{"id":1},"value":[]}"#.utf8)) == [])
        #expect(JSONText.items(of: Data(#"{"id":1}"#.utf8)) == nil)
        #expect(JSONText.items(of: Data("[1,".utf8)) == nil)
    }

    // MARK: - What is shown

    @Test("in a pipe the body is exactly as received; on a terminal JSON is indented and escapes are made visible")
    func rendering() {
        // Valid JSON may hold a raw CSI (U+009B) or a bidi override (U+202E) in a string.
        let body = Data("{\"t\":\"a\u{9B}2Jb\u{202E}c\"}".utf8)
        #expect(ResponseRenderer(forTerminal: false).body(body) == body)
        #expect(ResponseRenderer(forTerminal: false).body(body, separated: true) == body + Data("\n".utf8))
        let shown = String(decoding: ResponseRenderer(forTerminal: true).body(body), as: UTF8.self)
        #expect(shown == "{\n  \"t\": \"a\\u009b2Jb\\u202ec\"\n}\n")
        let text = String(
            decoding: ResponseRenderer(forTerminal: true).body(Data("a\u{1B}[2J\r\nb\n".utf8)), as: UTF8.self)
        #expect(text == "a\\u{1b}[2J\nb\n")
    }
}

extension Pagination.Link {
    /// The next page's URL, if this names one.
    var url: URL? {
        guard case .next(let url) = self else { return nil }
        return url
    }
}
