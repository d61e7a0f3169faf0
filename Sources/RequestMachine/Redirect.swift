import FoundationEssentials
import SwaggerModel

/// Whether `api` follows a redirect, and how: one on the session's own origin is followed with the token, as the
/// server that issued it sends the request on within itself; one to another origin is followed only when the person
/// asked (`--location`), and then without the token, which goes nowhere else.
package enum Redirect {
    /// The most redirects one request follows, as curl's default is 50 and browsers' about 20: a loop ends soon.
    static let hopLimit = 10

    package enum Decision: Sendable, Hashable {
        /// Send `method` to `url` next, with the body that was sent when `keepsBody`.
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
        status: Int, location: String?, from url: URL, method: String, server: ServerURL, crossOrigin: Bool, hops: Int
    ) -> Decision {
        guard [301, 302, 303, 307, 308].contains(status), let location,
            let target = URL(string: location.trimmingWhitespace(), relativeTo: url)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https", target.host != nil
        else { return .stand }
        let withToken = server.isSameOrigin(target)
        guard withToken || crossOrigin else { return .stand }
        guard hops < hopLimit else { return .tooMany }
        // RFC 9110 §15.4: 303 asks for a GET (a HEAD stays one); 301 and 302 may turn a POST into a GET, as browsers
        // and curl do; every other method, and every method on a 307 or 308, is sent again as it was, with its body.
        let becomesGet = method != "HEAD" && (status == 303 || (method == "POST" && (status == 301 || status == 302)))
        let next = becomesGet ? "GET" : method
        return .follow(url: target, method: next, keepsBody: status != 303 && !becomesGet, withToken: withToken)
    }
}
