import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SessionMachine

@Suite("BrowserFlow: what each request to the loopback redirect means", .timeLimit(.minutes(5)))
struct BrowserFlowTests {
    @Test("the code is taken when the state is the one sent; a second request after it is only answered")
    func code() {
        var flow = BrowserFlow(server: Fixtures.server, state: "st8")
        #expect(flow.received(["code": "c", "state": "st8"]) == .exchange(code: "c", page: .signedIn))
        #expect(flow.received(["code": "c2", "state": "st8"]) == .ignore(page: .alreadyAnswered))
    }

    @Test(
        "another state or none is turned away and the wait goes on: the browser's own answer is still taken after it",
        arguments: [["code": "c", "state": "other"], ["code": "c"], ["code": "c", "state": "st"], ["error": "x"]])
    func turnedAway(query: [String: String]) {
        var flow = BrowserFlow(server: Fixtures.server, state: "st8")
        #expect(flow.received(query) == .turnAway(page: .failed))
        #expect(flow.received(["code": "real", "state": "st8"]) == .exchange(code: "real", page: .signedIn))
    }

    @Test(
        "a refusal, another error and no code, with the login's state, each end the login",
        arguments: [
            (["error": "access_denied", "state": "st8"], SessionFailure.BrowserEnding.denied(nil)),
            (["error": "invalid_scope", "error_description": "no", "state": "st8"], .refused("invalid_scope", "no")),
            (["state": "st8"], .noCode),
        ])
    func endings(query: [String: String], ending: SessionFailure.BrowserEnding) {
        var flow = BrowserFlow(server: Fixtures.server, state: "st8")
        guard case .fail(let failure, _) = flow.received(query) else {
            Issue.record("\(query) was taken")
            return
        }
        #expect(failure == .browserLoginEnded(server: Fixtures.server, ending))
    }

    @Test("states are compared whole")
    func same() {
        #expect(BrowserFlow.same("abc", "abc"))
        #expect(!BrowserFlow.same("abc", "abd") && !BrowserFlow.same("abc", "ab") && !BrowserFlow.same("", "a"))
    }

    @Test("the authorization request carries PKCE's S256 challenge, the state, and the loopback redirect")
    func authorizationURL() throws {
        let endpoint = try #require(URL(string: "https://id.example.com/authorize?prompt=login"))
        let redirect = try #require(URL(string: "http://127.0.0.1:5000/callback"))
        let url = try #require(
            BrowserFlow.authorizationURL(
                endpoint: endpoint, clientID: "cli", redirectURI: redirect, scope: "openid profile", state: "s+1",
                challenge: "ch"))
        let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        let query = Dictionary(items.map { ($0.name, $0.value ?? "") }) { first, _ in first }
        #expect(
            query == [
                "prompt": "login", "response_type": "code", "client_id": "cli",
                "redirect_uri": "http://127.0.0.1:5000/callback", "scope": "openid profile", "state": "s+1",
                "code_challenge": "ch", "code_challenge_method": "S256",
            ])
        #expect(url.absoluteString.contains("state=s%2B1"))
    }
}
