import FoundationEssentials
import SwaggerModel

/// Whether `api` follows a redirect, and how: one on the session's own origin is followed with the token, as the
/// server that issued it sends the request on within itself; one to another origin is followed only when the person
/// asked (`--location`), and then without the token, which goes nowhere else.
package enum Redirect {
    /// The most redirects one request follows, as curl's default is 50 and browsers' about 20: a loop ends soon.
    package static let hopLimit = 10

    package enum Decision: Sendable, Hashable {
        /// Send `method` to `url` next; the body goes only with 307 and 308, which keep the method.
        case follow(url: URL, method: String, keepsBody: Bool, withToken: Bool)
        /// The response stands: not a redirect, or one that is not followed.
        case stand
        /// Too many in a row.
        case tooMany
    }

    /// - Parameters:
    ///   - status: The response's status, and `location` its `Location` header, read against `url`.
    ///   - method: The method that was sent.
    ///   - server: The session's server, whose origin gets the token.
    ///   - elsewhere: Whether the person asked to follow redirects to other origins.
    ///   - hops: How many redirects this request has followed already.
    package static func decide(
        status: Int, location: String?, from url: URL, method: String, server: ServerURL, elsewhere: Bool, hops: Int
    ) -> Decision {
        guard [301, 302, 303, 307, 308].contains(status), let location,
            let target = URL(string: location.trimmingWhitespace(), relativeTo: url)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https", target.host != nil
        else { return .stand }
        let withToken = server.isSameOrigin(target)
        guard withToken || elsewhere else { return .stand }
        guard hops < hopLimit else { return .tooMany }
        // 303 asks for a GET; 301 and 302 turn a POST into one, as browsers and curl do. 307 and 308 keep both.
        let keeps = status == 307 || status == 308
        let next =
            keeps || method == "HEAD" || (status != 303 && method != "POST") ? method : "GET"
        return .follow(url: target, method: next, keepsBody: keeps, withToken: withToken)
    }
}
