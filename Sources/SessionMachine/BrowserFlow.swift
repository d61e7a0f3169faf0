import FoundationEssentials
import SwaggerModel

/// The decisions of a browser login: the authorization code grant (RFC 6749 §4.1) with PKCE (RFC 7636) and a
/// loopback redirect (RFC 8252 §7.3). The owner makes the secrets, listens, opens the browser and exchanges the
/// code; this says what each request to the redirect means.
package struct BrowserFlow: Sendable {
    /// What the browser is shown after a request to the redirect.
    package enum Page: Sendable, Hashable {
        case signedIn
        case refused
        case failed
        /// A request after the one that was taken.
        case alreadyAnswered
    }

    /// What a request to the redirect means.
    package enum Next: Sendable, Hashable {
        /// Exchange the code for tokens.
        case exchange(code: String, page: Page)
        case fail(SessionFailure, page: Page)
        /// Answer it and go on: the login already has its code. `warning` says so.
        case ignore(page: Page)
        /// Answer it with 400 and go on waiting: it is not the browser's answer to this login (no state, or
        /// another), but any local process's, which must neither end the login nor hand in its own code.
        case turnAway(page: Page)
    }

    private let server: ServerURL
    private let state: String
    private var answered = false

    /// `state` is the value the authorization URL carries, which the redirect must bring back.
    package init(server: ServerURL, state: String) {
        self.server = server
        self.state = state
    }

    /// The authorization request (§4.1.1, RFC 7636 §4.3), at the server's authorization endpoint.
    package static func authorizationURL(
        endpoint: URL, clientID: String, redirectURI: URL, scope: String?, state: String, challenge: String
    ) -> URL? {
        guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: true) else { return nil }
        var items = components.queryItems ?? []
        items += [
            URLQueryItem(name: "response_type", value: "code"), URLQueryItem(name: "client_id", value: clientID),
            URLQueryItem(name: "redirect_uri", value: redirectURI.absoluteString),
        ]
        if let scope { items.append(URLQueryItem(name: "scope", value: scope)) }
        items += [
            URLQueryItem(name: "state", value: state), URLQueryItem(name: "code_challenge", value: challenge),
            URLQueryItem(name: "code_challenge_method", value: "S256"),
        ]
        components.queryItems = items
        // URLComponents leaves `+` and `/` as they are in a query; a form decoder would read `+` as a space.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacing("+", with: "%2B")
        return components.url
    }

    /// A request to the redirect arrived with these query parameters.
    package mutating func received(_ query: [String: String]) -> Next {
        guard !answered else { return .ignore(page: .alreadyAnswered) }
        // The state is compared in constant time: it is what stops another page from handing in its own code.
        guard let returned = query["state"], Self.same(returned, state) else { return .turnAway(page: .failed) }
        answered = true
        if let error = query["error"] {
            let ending: SessionFailure.BrowserEnding =
                error == "access_denied"
                ? .denied(query["error_description"]) : .refused(error, query["error_description"])
            return .fail(.browserLoginEnded(server: server, ending), page: .refused)
        }
        guard let code = query["code"], !code.isEmpty else {
            return .fail(.browserLoginEnded(server: server, .noCode), page: .failed)
        }
        return .exchange(code: code, page: .signedIn)
    }

    /// No request came before the deadline.
    package func timedOut(after wait: Duration) -> SessionFailure {
        .browserLoginEnded(server: server, .timedOut(wait))
    }

    /// Whether `a` and `b` are the same, in a time that does not depend on where they differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<max(x.count, y.count) {
            difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
        }
        return difference == 0
    }
}
