import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import RequestMachine
@testable import SessionMachine

/// `--paginate`'s decisions, page by page: each style of ``PageStyle/known`` read from a first page and followed to
/// its end, the pages named ahead, and the stops.
@Suite("Pagination: where the next page is and where the list ends, with no I/O", .timeLimit(.minutes(5)))
struct PaginationTests {
    static let server = PaginationTests.serverURL()
    static let first = url("https://api.example.com/v2/items?sort=new")

    static func serverURL() -> ServerURL {
        do {
            return try ServerURL("https://api.example.com/v2")
        } catch {
            preconditionFailure("\(error)")
        }
    }

    static func url(_ text: String) -> URL {
        guard let url = URL(string: text) else { preconditionFailure(text) }
        return url
    }

    /// A page from `url`, with these headers.
    static func page(_ url: URL, _ body: String, _ headers: [String: String] = [:]) -> APIResponse {
        APIResponse(
            url: url, status: 200, reason: "OK", headers: headers.map { HeaderField(name: $0.key, value: $0.value) },
            body: Data(body.utf8))
    }

    static func page(_ url: URL, link: String?, _ body: String) -> APIResponse {
        page(url, body, link.map { ["Link": $0] } ?? [:])
    }

    /// What a first page alone decides.
    static func decided(_ body: String, link: String? = nil, at url: URL = first, paging: Paging? = nil)
        -> Pagination.Next
    {
        var pagination = Pagination(first: url, server: server, paging: paging)
        return pagination.received(page(url, link: link, body), from: url)
    }

    static func fetch(_ suffix: String) -> Pagination.Next {
        .fetch(url("https://api.example.com" + suffix))
    }

    // MARK: - Styles

    @Test(
        "Link rel=next is found among others, quoted or not, with commas inside quotes, and resolved against the page",
        arguments: [
            (#"<https://api.example.com/v2/items?page=2>; rel="next", <…?page=9>; rel="last""#, "?page=2"),
            (#"<./items?page=3>; title="a, b"; rel="prev next""#, "?page=3"),
            (#"</v2/items?page=4>; REL=Next"#, "?page=4"),
        ])
    func linkHeader(link: String, suffix: String) {
        #expect(Self.decided("[]", link: link) == Self.fetch("/v2/items" + suffix))
    }

    @Test("a list paged by Link headers ends where a page has no next, an array or an object of items alike")
    func linkOnObjects() {
        for shape in [#"[{"id": ID}]"#, #"{"items": [{"id": ID}], "total": 3}"#] {
            func body(_ id: Int) -> String { shape.replacingOccurrences(of: "ID", with: String(id)) }
            var pagination = Pagination(first: Self.first, server: Self.server)
            let second = Self.url("https://api.example.com/v2/items?page=2")
            let link = #"<https://api.example.com/v2/items?page=2>; rel="next""#
            #expect(pagination.received(Self.page(Self.first, link: link, body(1)), from: Self.first) == .fetch(second))
            // The last page says only where the first is, or nothing at all.
            let last = pagination.received(Self.page(second, link: #"</v2/items>; rel="first""#, body(2)), from: second)
            #expect(last == .complete, "\(shape)")
            var bare = Pagination(first: Self.first, server: Self.server)
            _ = bare.received(Self.page(Self.first, link: link, body(1)), from: Self.first)
            #expect(bare.received(Self.page(second, link: nil, body(2)), from: second) == .complete, "\(shape)")
        }
        // One page of such a list, with no Link at all, is the whole list.
        #expect(Self.decided(#"{"items": [{"id": 1}]}"#) == .complete)
    }

    @Test("a response header that holds the next URL, as Kinto's Next-Page, is followed until a page lacks it")
    func nextPageHeader() {
        var pagination = Pagination(first: Self.first, server: Self.server)
        let second = Self.url("https://api.example.com/v2/items?_limit=10&_token=abc")
        let firstPage = Self.page(Self.first, #"{"data": [{"id": 1}]}"#, ["Next-Page": second.absoluteString])
        #expect(pagination.received(firstPage, from: Self.first) == .fetch(second))
        #expect(pagination.received(Self.page(second, #"{"data": [{"id": 2}]}"#), from: second) == .complete)
    }

    @Test("the body's next, @odata.nextLink and has_more give the next page; null, false and none end the list")
    func bodyShapes() {
        func next(_ body: String, at url: URL = Self.first) -> Pagination.Next { Self.decided(body, at: url) }
        #expect(
            next(#"{"next": "https://api.example.com/v2/items?cursor=x"}"#) == Self.fetch("/v2/items?cursor=x"))
        #expect(next(#"{"@odata.nextLink": "items?$skip=10"}"#) == Self.fetch("/v2/items?$skip=10"))
        #expect(next(#"{"items": [], "has_more": true}"#) == Self.fetch("/v2/items?sort=new&page=2"))
        // A number too large for a Double is still JSON, and the page still has a next one.
        #expect(next(#"{"total": 1e999, "has_more": true}"#) == Self.fetch("/v2/items?sort=new&page=2"))
        #expect(next(#"{"next": "items?page=\u0033"}"#) == Self.fetch("/v2/items?page=3"))
        #expect(
            next(#"{"has_more": true}"#, at: Self.url("https://api.example.com/v2/items?page=4&x=1"))
                == Self.fetch("/v2/items?x=1&page=5"))
        for last in [#"{"next": null, "results": []}"#, #"{"has_more": false}"#, "[1, 2]", "not json", ""] {
            #expect(next(last) == .complete, "\(last)")
        }
    }

    @Test(
        "fastapi-pagination's, JSON:API's, Laravel's, Litestar's, HAL's and Spring's pages give their next page",
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
            // Litestar's classic pages, in the page's own parameter; Laravel's, by page; and pages with their total.
            (
                #"{"items": [1], "current_page": 1, "total_pages": 3, "page_size": 10}"#,
                "/v2/items?sort=new&current_page=2"
            ),
            (#"{"data": [1], "current_page": 2, "last_page": 3}"#, "/v2/items?sort=new&page=3"),
            (#"{"items": [1], "page": 1, "total_pages": 4}"#, "/v2/items?sort=new&page=2"),
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
            // Google's page tokens and Slack's cursors, each in its own parameter.
            (#"{"items": [1], "nextPageToken": "t2"}"#, "/v2/items?sort=new&pageToken=t2"),
            (
                #"{"channels": [1], "response_metadata": {"next_cursor": "dXNlcg=="}}"#,
                "/v2/items?sort=new&cursor=dXNlcg%3D%3D"
            ),
        ])
    func pageTypes(body: String, next: String) {
        #expect(Self.decided(body) == Self.fetch(next))
    }

    @Test(
        "the last page of each style ends the list, and so does a Link header without next",
        arguments: [
            #"{"items": [], "links": {"next": null}}"#, #"{"items": [1], "next_page": null}"#,
            #"{"items": [1], "page": 3, "pages": 3}"#, #"{"items": [1], "limit": 10, "offset": 20, "total": 25}"#,
            #"{"id": 1, "name": "one item"}"#, #"{"items": [1, 2]}"#,
            #"{"items": [1], "current_page": 3, "total_pages": 3}"#, #"{"items": [1], "pagination": {"next": ""}}"#,
            #"{"content": [1], "number": 1, "totalPages": 2}"#, #"{"chunk": [1], "next_batch": null}"#,
        ])
    func lastPages(body: String) {
        #expect(Self.decided(body) == .complete)
        #expect(Self.decided("[]", link: #"<https://x/?page=1>; rel="first""#) == .complete)
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
        #expect(Self.decided(#"{"next": "/v2/items?page=2", "results": [1]}"#, link: link) == .complete)
    }

    @Test("a Link header without pagination's relations leaves the body to say where the next page is")
    func unrelatedLink() {
        let body = #"{"next": "/v2/items?page=2", "results": []}"#
        #expect(Self.decided(body, link: #"</schema>; rel="describedby""#) == Self.fetch("/v2/items?page=2"))
        // A next page number that no other member explains is undetermined, not the end.
        #expect(Self.decided(#"{"items": [1], "next": 3}"#) == .undetermined(members: ["items", "next"]))
    }

    @Test("a cursor in the body goes back in the parameter that the description or the style names, else is said")
    func cursors() {
        let body = #"{"data": [{"id": 1}], "next_cursor": "c2"}"#
        #expect(Self.decided(body, paging: Paging(cursor: "cursor")) == Self.fetch("/v2/items?sort=new&cursor=c2"))
        #expect(Self.decided(body, paging: Paging(cursor: "after")) == Self.fetch("/v2/items?sort=new&after=c2"))
        // Nothing names where the cursor goes: part of a list never passes for all of it.
        #expect(Self.decided(body) == .unnamedCursor(member: "next_cursor"))
        #expect(
            Self.decided(#"{"data": [1], "meta": {"next_cursor": "c2"}}"#) == .unnamedCursor(member: "meta.next_cursor")
        )
    }

    @Test("Matrix's public rooms follow next_batch in since, the description's parameter, to the page without it")
    func matrixBatches() {
        let paging = Paging(cursor: "since")
        let rooms = Self.url("https://api.example.com/v2/_matrix/client/v3/publicRooms?limit=10")
        var pagination = Pagination(first: rooms, server: Self.server, paging: paging)
        let second = Self.url("https://api.example.com/v2/_matrix/client/v3/publicRooms?limit=10&since=t1")
        let first = Self.page(
            rooms, #"{"chunk": [{"room_id": "!a"}], "next_batch": "t1", "total_room_count_estimate": 25}"#)
        #expect(pagination.received(first, from: rooms) == .fetch(second))
        let third = Self.url("https://api.example.com/v2/_matrix/client/v3/publicRooms?limit=10&since=t2")
        let middle = #"{"chunk": [{"room_id": "!b"}], "next_batch": "t2", "prev_batch": "p1"}"#
        #expect(pagination.received(Self.page(second, middle), from: second) == .fetch(third))
        // The last page has a prev_batch and no next_batch.
        let last = #"{"chunk": [{"room_id": "!c"}], "prev_batch": "p2"}"#
        #expect(pagination.received(Self.page(third, last), from: third) == .complete)
    }

    @Test("a list beside a count or a position that says nothing of the next page is undetermined, never the last")
    func undetermined() {
        // A total, but no parameter to name the next page by.
        #expect(Self.decided(#"{"items": [1, 2], "total": 25}"#) == .unnamedPage(member: "total"))
        // Flask-AppBuilder's list: 20 of 25 items in "result", its page in a rison argument.
        let partial = #"{"count": 25, "ids": [1, 2], "result": [{"id": 1}, {"id": 2}]}"#
        #expect(Self.decided(partial) == .unnamedPage(member: "count"))
        #expect(
            Self.decided(#"{"results": [1], "previous": null}"#) == .undetermined(members: ["results", "previous"]))
    }

    @Test("a total beside the list is followed page by page where the page is in the query or the description names it")
    func countedPages() {
        func page(_ ids: ClosedRange<Int>) -> String {
            #"{"items": [\#(ids.map(String.init).joined(separator: ","))], "count": 25}"#
        }
        // Django Ninja's first page names no page; its document does.
        let first = Self.url("https://api.example.com/v2/items")
        var ninja = Pagination(first: first, server: Self.server, paging: Paging(page: "page"))
        let second = Self.url("https://api.example.com/v2/items?page=2")
        #expect(ninja.received(Self.page(first, page(1...10)), from: first) == .fetch(second))
        let third = Self.url("https://api.example.com/v2/items?page=3")
        #expect(ninja.received(Self.page(second, page(11...20)), from: second) == .fetch(third))
        #expect(ninja.received(Self.page(third, page(21...25)), from: third) == .complete)
        // A page in the query is enough; and an empty page ends the list whatever the total says.
        let pageOne = Self.url("https://api.example.com/v2/items?page=1")
        var queried = Pagination(first: pageOne, server: Self.server)
        #expect(queried.received(Self.page(pageOne, page(1...10)), from: pageOne) == .fetch(second))
        #expect(queried.received(Self.page(second, #"{"items": [], "count": 25}"#), from: second) == .complete)
        // A list that ignores the parameter answers the first page again: that page is the end of what can be had,
        // and is said, not taken for the next.
        var ignored = Pagination(first: first, server: Self.server, paging: Paging(page: "page"))
        #expect(ignored.received(Self.page(first, page(1...10)), from: first) == .fetch(second))
        #expect(ignored.received(Self.page(second, page(1...10)), from: second) == .repeated(second))
    }

    // MARK: - Pages named ahead

    @Test("numbered pages with their total are named ahead, in order, and the list ends at the last one")
    func namedAhead() {
        let pageOne = Self.url("https://api.example.com/v2/items?page=1")
        func numbered(_ number: Int) -> URL { Self.url("https://api.example.com/v2/items?page=\(number)") }
        func body(_ number: Int) -> String { #"{"items": [\#(number)], "page": \#(number), "total_pages": 4}"# }
        var pagination = Pagination(first: pageOne, server: Self.server)
        #expect(pagination.upcoming(after: nil) == nil)
        #expect(pagination.received(Self.page(pageOne, body(1)), from: pageOne) == .fetch(numbered(2)))
        #expect(pagination.upcoming(after: nil) == numbered(3))
        #expect(pagination.upcoming(after: nil) == numbered(4))
        #expect(pagination.upcoming(after: nil) == nil)
        #expect(pagination.received(Self.page(numbered(2), body(2)), from: numbered(2)) == .planned)
        #expect(pagination.received(Self.page(numbered(3), body(3)), from: numbered(3)) == .planned)
        #expect(pagination.received(Self.page(numbered(4), body(4)), from: numbered(4)) == .complete)
        #expect(pagination.count == 4)
    }

    @Test("pages named ahead stop at the limit, and an empty page ends the list before its named last")
    func namedAheadStops() {
        let pageOne = Self.url("https://api.example.com/v2/items?offset=0&limit=10")
        func at(_ offset: Int) -> URL { Self.url("https://api.example.com/v2/items?limit=10&offset=\(offset)") }
        func body(_ offset: Int, empty: Bool = false) -> String {
            let items = empty ? "[]" : "[\(offset)]"
            return #"{"items": \#(items), "offset": \#(offset), "limit": 10, "total": 50}"#
        }
        var limited = Pagination(first: pageOne, server: Self.server, limit: 2)
        #expect(limited.received(Self.page(pageOne, body(0)), from: pageOne) == .fetch(at(10)))
        #expect(limited.upcoming(after: nil) == nil)
        #expect(limited.received(Self.page(at(10), body(10)), from: at(10)) == .limitReached(next: at(20)))

        var shrinking = Pagination(first: pageOne, server: Self.server)
        #expect(shrinking.received(Self.page(pageOne, body(0)), from: pageOne) == .fetch(at(10)))
        #expect(shrinking.upcoming(after: nil) == at(20))
        #expect(shrinking.received(Self.page(at(10), body(10)), from: at(10)) == .planned)
        #expect(shrinking.received(Self.page(at(20), body(20, empty: true)), from: at(20)) == .complete)
    }

    @Test("numbers past any list's, from the server or the URL, end the list rather than overflow")
    func hugeNumbers() {
        let largest = Int.max
        for body in [
            #"{"items": [1], "page": \#(largest), "total_pages": \#(largest)}"#,
            #"{"items": [1], "page": 1, "total_pages": \#(largest)}"#,
            #"{"items": [1], "offset": \#(largest), "limit": \#(largest), "total": \#(largest)}"#,
            #"{"items": [1], "offset": -5, "limit": 10, "total": 100}"#,
        ] {
            var pagination = Pagination(first: Self.first, server: Self.server, limit: 3)
            let next = pagination.received(Self.page(Self.first, body), from: Self.first)
            _ = pagination.upcoming(after: nil)
            _ = pagination.upcoming(after: nil)
            if case .fetch(let url) = next { #expect(url.absoluteString.count < 100, "\(body)") }
        }
        let far = Self.url("https://api.example.com/v2/items?page=\(largest)")
        #expect(Self.decided(#"{"items": [1], "has_more": true}"#, at: far) == .complete)
    }

    // MARK: - Stops

    @Test("pages stop at the limit, before another origin, and at a page already fetched")
    func stops() {
        func page(_ url: URL, _ target: String) -> APIResponse { Self.page(url, #"{"next": "\#(target)"}"#) }
        // Every page, unless a limit is set.
        var unlimited = Pagination(first: Self.first, server: Self.server)
        var current = Self.first
        for number in 2...500 {
            let next = Self.url("https://api.example.com/v2/items?page=\(number)")
            guard unlimited.received(page(current, next.absoluteString), from: current) == .fetch(next) else {
                Issue.record("stopped at page \(number)")
                break
            }
            current = next
        }
        var limited = Pagination(first: Self.first, server: Self.server, limit: 2)
        let second = Self.url("https://api.example.com/v2/items?page=2")
        #expect(limited.received(page(Self.first, second.absoluteString), from: Self.first) == .fetch(second))
        let third = Self.url("https://api.example.com/v2/items?page=3")
        #expect(limited.received(page(second, third.absoluteString), from: second) == .limitReached(next: third))

        var elsewhere = Pagination(first: Self.first, server: Self.server)
        let evil = Self.url("https://evil.example/collect")
        #expect(elsewhere.received(page(Self.first, evil.absoluteString), from: Self.first) == .offServer(evil))

        var looping = Pagination(first: Self.first, server: Self.server)
        #expect(looping.received(page(Self.first, second.absoluteString), from: Self.first) == .fetch(second))
        #expect(looping.received(page(second, Self.first.absoluteString), from: second) == .loop(Self.first))
        // A page without its style's sign, once the list is read in that style, is the last.
        #expect(looping.received(Self.page(second, "[]"), from: second) == .complete)
    }

    @Test("the page asked for early is the one received then fetches, and never one it would refuse")
    func upcomingPages() {
        func page(_ url: URL, _ target: String) -> APIResponse {
            Self.page(url, #"{"items": [{"id": 1}], "next": "\#(target)"}"#)
        }
        let second = Self.url("https://api.example.com/v2/items?page=2")
        let third = Self.url("https://api.example.com/v2/items?page=3")
        var limited = Pagination(first: Self.first, server: Self.server, limit: 2)
        #expect(limited.upcoming(after: page(Self.first, second.absoluteString)) == second)
        #expect(limited.received(page(Self.first, second.absoluteString), from: Self.first) == .fetch(second))
        // Past the limit, on another origin, or fetched before: nothing is asked for.
        #expect(limited.upcoming(after: page(second, third.absoluteString)) == nil)
        var open = Pagination(first: Self.first, server: Self.server)
        #expect(open.upcoming(after: page(Self.first, "https://evil.example/collect")) == nil)
        #expect(open.received(page(Self.first, second.absoluteString), from: Self.first) == .fetch(second))
        #expect(open.upcoming(after: page(second, Self.first.absoluteString)) == nil)
        // From the Link header of a list paged by Link, before the body is read.
        var linked = Pagination(first: Self.first, server: Self.server)
        let link = #"<https://api.example.com/v2/items?page=3>; rel="next""#
        #expect(linked.upcoming(after: Self.page(second, link: link, "not JSON")) == third)
        // From members before the list (Django REST framework's) or after it.
        let before = #"{"count": 9, "next": "/v2/items?page=3", "results": [{"a": "}"}]}"#
        var drf = Pagination(first: Self.first, server: Self.server)
        #expect(drf.upcoming(after: Self.page(second, before)) == third)
        var after = Pagination(first: Self.first, server: Self.server)
        #expect(
            after.upcoming(after: Self.page(second, #"{"items": [[1], {"next": "/x"}], "has_more": true}"#)) == third)
        // A next link inside an object between the edges is not seen early; received finds it.
        let nested = Self.page(second, #"{"items": [1], "links": {"next": "/v2/items?page=3"}, "total": 9}"#)
        var inner = Pagination(first: Self.first, server: Self.server)
        #expect(inner.upcoming(after: nested) == nil)
        #expect(inner.received(nested, from: second) == .fetch(third))
        // A page that repeats the last is asked past early, and then not followed.
        var repeating = Pagination(first: Self.first, server: Self.server)
        #expect(repeating.received(page(Self.first, second.absoluteString), from: Self.first) == .fetch(second))
        let again = Self.page(second, #"{"items": [{"id": 1}], "next": "/v2/items?page=3"}"#)
        #expect(repeating.upcoming(after: again) == third)
        #expect(repeating.received(again, from: second) == .repeated(second))
    }

    @Test("the next page found early is the one the whole page decides, on a list's first page or later ones")
    func earlyAgainstWhole() {
        let seeds = [
            #"{"items": [{"id": 1}, {"id": 2}], "next": "/v2/items?page=2"}"#,
            #"{"count": 9, "next": "https://api.example.com/v2/items?page=3", "results": [{"a": "}"}]}"#,
            #"{"next": "/v2/a", "items": [1], "next": "/v2/b"}"#,
            #"{"next": {"href": "/v2/c"}, "items": [1], "has_more": true}"#,
            #"{"items": [1], "links": {"next": "/v2/d"}, "next": null, "total": 9}"#,
            #"{"items": [2], "next": "", "@odata.nextLink": "/v2/e"}"#,
            #"{"next": "https://evil.example/x", "data": [3]}"#, #"[{"next": "/v2/f"}]"#,
            #"{"data": [1], "next_cursor": "c9", "page": 1, "total_pages": 3}"#,
        ]
        let links: [String?] = [nil, #"</v2/items?page=9>; rel="next""#, #"</v2/items?page=1>; rel="prev""#]
        var compared = 0
        var comparedLater = 0
        for (round, bytes) in JSONEdits.edited(seeds, seed: 5988, fewest: 0).enumerated() {
            let body = String(decoding: bytes, as: UTF8.self)
            // Each seed with each number of edits (27 rounds) with each header, and some with a limit.
            let link = links[round / 27 % links.count]
            let page = Self.page(Self.first, link: link, body)
            let paging = round % 2 == 0 ? Paging(cursor: "cursor") : nil
            // One asked early and then told of the whole page, the other only told: the same state before.
            var early = Pagination(
                first: Self.first, server: Self.server, limit: round / 81 % 7 == 0 ? 1 : nil, paging: paging)
            var whole = early
            let guess = early.upcoming(after: page)
            let decided = early.received(page, from: Self.first)
            #expect(decided == whole.received(page, from: Self.first), "\(body)")
            if guess != nil, case .fetch = decided { compared += 1 }
            // And on from there: the page decided is fetched, and counted, by both.
            #expect(early.count == whole.count)

            // The edited page as the second of a list whose first, the seed with other links, showed its style:
            // the page asked for early is kept when the whole page shows the members it was read by.
            var earlyList = Pagination(first: Self.first, server: Self.server, paging: paging)
            func elsewhere(_ text: String) -> String {
                text.replacingOccurrences(of: "/v2/", with: "/v1/").replacingOccurrences(of: "c9", with: "c8")
            }
            let seed = Self.page(Self.first, link: link.map(elsewhere), elsewhere(seeds[round % seeds.count]))
            guard case .fetch(let second) = earlyList.received(seed, from: Self.first) else { continue }
            var wholeList = earlyList
            let later = Self.page(second, link: link, body)
            let laterGuess = earlyList.upcoming(after: later)
            let laterDecided = earlyList.received(later, from: second)
            #expect(laterDecided == wholeList.received(later, from: second), "\(body)")
            if laterGuess != nil, case .fetch = laterDecided { comparedLater += 1 }
            #expect(earlyList.count == wholeList.count)
        }
        #expect(compared > 500)
        #expect(comparedLater > 300)
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
}

/// What this round added to the pages: a list the server says it cut, a page that repeats items already seen where
/// the next page was worked out, RabbitMQ's page count, an offset a document names, totals written as floats.
@Suite(
    "Pagination: lists cut short, repeated items, offsets, and numbers as servers write them", .timeLimit(.minutes(5)))
struct PaginationEndsTests {
    typealias Cases = PaginationTests

    @Test("a last page that says the list was cut is no end of it, by default and as a description says")
    func cut() throws {
        let keystone = #"{"users": [{"id": 1}, {"id": 2}], "links": {"next": null}, "truncated": true}"#
        #expect(Cases.decided(keystone) == .cut(criterion: "$response.body#/truncated == true", items: 2))
        #expect(Cases.decided(#"{"users": [{"id": 1}], "links": {"next": null}, "truncated": false}"#) == .complete)
        // A description says its own sign, in place of the default.
        let flagged = Paging(cut: [try Criterion("$response.header.X-Partial == 'yes'")])
        let partial = Cases.page(Cases.first, #"[{"id": 1}]"#, ["X-Partial": "yes"])
        var pagination = Pagination(first: Cases.first, server: Cases.server, paging: flagged)
        #expect(
            pagination.received(partial, from: Cases.first)
                == .cut(criterion: "$response.header.X-Partial == 'yes'", items: 1))
        #expect(Cases.decided(keystone, paging: flagged) == .complete)
    }

    @Test("a worked-out next page that holds an item seen before stops the list; a named one is the server's word")
    func repeatedItems() throws {
        // Offsets stepped by one, as a wrong guess of the parameter steps them: the second page overlaps the first.
        let paging = Paging(page: "offset")
        let first = Cases.url("https://api.example.com/v2/items?page=1")
        var pagination = Pagination(first: first, server: Cases.server, paging: paging)
        let one = #"{"items": [{"id": 1}, {"id": 2}, {"id": 3}], "count": 6}"#
        guard case .fetch(let next) = pagination.received(Cases.page(first, one), from: first) else {
            Issue.record("no second page")
            return
        }
        let two = #"{"items": [{"id": 3}, {"id": 4}, {"id": 5}], "count": 6}"#
        #expect(pagination.received(Cases.page(next, two), from: next) == .repeated(next))

        // The same items under a link the server gave are its own list's, and followed.
        var linked = Pagination(first: Cases.first, server: Cases.server)
        let a = #"{"results": [{"id": 1}], "next": "https://api.example.com/v2/items?p=2"}"#
        #expect(linked.received(Cases.page(Cases.first, a), from: Cases.first) == Cases.fetch("/v2/items?p=2"))
        let b = #"{"results": [{"id": 1}, {"id": 2}], "next": null}"#
        let second = Cases.url("https://api.example.com/v2/items?p=2")
        #expect(linked.received(Cases.page(second, b), from: second) == .complete)
    }

    @Test("RabbitMQ's page and page_count name the next page, keeping the page size asked for")
    func pageCount() {
        let url = Cases.url("https://api.example.com/v2/queues?page=1&page_size=10")
        let body = #"{"page": 1, "page_size": 10, "page_count": 3, "item_count": 10, "items": [{"name": "q1"}]}"#
        #expect(Cases.decided(body, at: url) == Cases.fetch("/v2/queues?page_size=10&page=2"))
        let last = #"{"page": 3, "page_size": 10, "page_count": 3, "item_count": 5, "items": [{"name": "q21"}]}"#
        #expect(
            Cases.decided(last, at: Cases.url("https://api.example.com/v2/queues?page=3&page_size=10")) == .complete)
    }

    @Test("a total beside a list pages by the offset a document names, asked with a limit; by the page without one")
    func offsets() {
        let paging = Paging(page: "page", offset: "offset")
        let limited = Cases.url("https://api.example.com/v2/items?limit=2")
        let body = #"{"items": [{"id": 1}, {"id": 2}], "count": 5}"#
        #expect(Cases.decided(body, at: limited, paging: paging) == Cases.fetch("/v2/items?limit=2&offset=2"))
        let paged = Cases.url("https://api.example.com/v2/items?size=2")
        #expect(Cases.decided(body, at: paged, paging: paging) == Cases.fetch("/v2/items?size=2&page=2"))
        #expect(
            Cases.decided(body, at: paged, paging: Paging(offset: "offset")) == Cases.fetch("/v2/items?size=2&offset=2")
        )
    }

    @Test("counts and positions written as floats are read as the integers they are", arguments: ["1e1", "10.0", "10"])
    func floats(total: String) {
        let body = #"{"items": [{"id": 1}], "page": 1, "total_pages": \#(total)}"#
        #expect(
            Cases.decided(body, at: Cases.url("https://api.example.com/v2/items?page=1"))
                == Cases.fetch("/v2/items?page=2"))
        // A count that is no integer is no count: the page is part of a list that says no way on.
        #expect(
            Cases.decided(#"{"items": [{"id": 1}], "page": 1, "total_pages": 1.5}"#)
                == .undetermined(members: ["items", "page", "total_pages"]))
    }
}
