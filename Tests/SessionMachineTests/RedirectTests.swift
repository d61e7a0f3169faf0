import Foundation
import SwaggerModel
import Testing

@testable import RequestMachine
@testable import SessionMachine

/// Which redirects `api` follows, with or without the token.
@Suite("Redirects: the rule for each hop, with no I/O", .timeLimit(.minutes(5)))
struct RedirectTests {
    static let server = PaginationTests.serverURL()
    static let page = server.url.appending(path: "items")

    static func decide(
        _ status: Int, _ location: String?, method: String = "GET", crossOrigin: Bool = false, hops: Int = 0
    )
        -> Redirect.Decision
    {
        Redirect.decide(
            status: status, location: location, from: page, method: method, server: server, crossOrigin: crossOrigin,
            hops: hops)
    }

    @Test("a redirect on the server's origin is followed with the token; another origin's only when asked, without it")
    func origins() throws {
        let same = try #require(URL(string: "https://api.example.com/v2/things?page=2"))
        #expect(
            Self.decide(302, "things?page=2") == .follow(url: same, method: "GET", keepsBody: true, withToken: true))
        #expect(
            Self.decide(308, "/v2/things?page=2") == .follow(url: same, method: "GET", keepsBody: true, withToken: true)
        )
        #expect(Self.decide(302, "https://cdn.example.net/x") == .stand)
        // Another scheme or port is another origin.
        #expect(Self.decide(302, "http://api.example.com/v2/x") == .stand)
        let elsewhere = try #require(URL(string: "https://cdn.example.net/x"))
        #expect(
            Self.decide(302, "https://cdn.example.net/x", crossOrigin: true)
                == .follow(url: elsewhere, method: "GET", keepsBody: true, withToken: false))
        #expect(Self.decide(302, "ftp://api.example.com/x", crossOrigin: true) == .stand)
        #expect(
            Self.decide(200, "/v2/x") == .stand && Self.decide(304, "/v2/x") == .stand
                && Self.decide(302, nil) == .stand)
        #expect(Self.decide(302, "/v2/x", hops: Redirect.hopLimit) == .tooMany)
    }

    /// What each status makes of each method, as RFC 9110 §15.4 has it: the method sent next, and whether its body
    /// goes with it.
    static let methodTable: [(status: Int, sent: String, next: String, body: Bool)] = [
        (301, "GET", "GET", true), (301, "HEAD", "HEAD", true), (301, "POST", "GET", false),
        (301, "PUT", "PUT", true), (301, "PATCH", "PATCH", true), (301, "DELETE", "DELETE", true),
        (302, "GET", "GET", true), (302, "HEAD", "HEAD", true), (302, "POST", "GET", false),
        (302, "PUT", "PUT", true), (302, "PATCH", "PATCH", true), (302, "DELETE", "DELETE", true),
        (303, "GET", "GET", false), (303, "HEAD", "HEAD", false), (303, "POST", "GET", false),
        (303, "PUT", "GET", false), (303, "PATCH", "GET", false), (303, "DELETE", "GET", false),
        (307, "GET", "GET", true), (307, "HEAD", "HEAD", true), (307, "POST", "POST", true),
        (307, "PUT", "PUT", true), (307, "PATCH", "PATCH", true), (307, "DELETE", "DELETE", true),
        (308, "GET", "GET", true), (308, "HEAD", "HEAD", true), (308, "POST", "POST", true),
        (308, "PUT", "PUT", true), (308, "PATCH", "PATCH", true), (308, "DELETE", "DELETE", true),
    ]

    @Test(
        "303 asks for a GET; 301 and 302 turn only a POST into one; every other method goes again with its body",
        arguments: methodTable)
    func methods(row: (status: Int, sent: String, next: String, body: Bool)) throws {
        let next = try #require(URL(string: "https://api.example.com/v2/next"))
        #expect(
            Self.decide(row.status, "/v2/next", method: row.sent)
                == .follow(url: next, method: row.next, keepsBody: row.body, withToken: true))
    }
}
