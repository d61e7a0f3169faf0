import Foundation
import SwaggerModel
import Testing

@testable import SessionMachine

/// Which redirects `api` follows, with or without the token.
@Suite("Redirects: the rule for each hop, with no I/O", .timeLimit(.minutes(5)))
struct RedirectTests {
    static let server = PaginationTests.serverURL()
    static let page = server.url.appending(path: "items")

    static func decide(
        _ status: Int, _ location: String?, method: String = "GET", elsewhere: Bool = false, hops: Int = 0
    )
        -> Redirect.Decision
    {
        Redirect.decide(
            status: status, location: location, from: page, method: method, server: server, elsewhere: elsewhere,
            hops: hops)
    }

    @Test("a redirect on the server's origin is followed with the token; another origin's only when asked, without it")
    func origins() throws {
        let same = try #require(URL(string: "https://api.example.com/v2/things?page=2"))
        #expect(
            Self.decide(302, "things?page=2") == .follow(url: same, method: "GET", keepsBody: false, withToken: true))
        #expect(
            Self.decide(308, "/v2/things?page=2") == .follow(url: same, method: "GET", keepsBody: true, withToken: true)
        )
        #expect(Self.decide(302, "https://cdn.example.net/x") == .stand)
        // Another scheme or port is another origin.
        #expect(Self.decide(302, "http://api.example.com/v2/x") == .stand)
        let elsewhere = try #require(URL(string: "https://cdn.example.net/x"))
        #expect(
            Self.decide(302, "https://cdn.example.net/x", elsewhere: true)
                == .follow(url: elsewhere, method: "GET", keepsBody: false, withToken: false))
        #expect(Self.decide(302, "ftp://api.example.com/x", elsewhere: true) == .stand)
        #expect(
            Self.decide(200, "/v2/x") == .stand && Self.decide(304, "/v2/x") == .stand
                && Self.decide(302, nil) == .stand)
        #expect(Self.decide(302, "/v2/x", hops: Redirect.hopLimit) == .tooMany)
    }

    @Test("303 asks for a GET, 301 and 302 turn a POST into one, 307 and 308 keep the method and the body")
    func methods() {
        func method(_ status: Int, _ sent: String) -> String? {
            if case .follow(_, let method, _, _) = Self.decide(status, "/v2/next", method: sent) { return method }
            return nil
        }
        #expect(method(303, "PUT") == "GET" && method(303, "HEAD") == "HEAD")
        #expect(method(302, "POST") == "GET" && method(301, "POST") == "GET" && method(302, "DELETE") == "DELETE")
        #expect(method(307, "POST") == "POST" && method(308, "PATCH") == "PATCH")
    }
}
