import FoundationEssentials
import SwaggerHTTP
import SwaggerModel

/// `--paginate`'s decisions: where the next page is, and when to stop. No I/O; the owner fetches each page
/// and tells it what came back.
///
/// The next page is found, in this order, in:
/// - an RFC 8288 `Link` header with `rel="next"`, as GitHub and GitLab send;
/// - a `next` URL in the body, as Django REST Framework sends, or OData's `@odata.nextLink`;
/// - `"has_more": true` in the body, as Stack Exchange's API sends: the same URL with `page` one higher
///   (the first page is 1 when the URL names none).
///
/// Every page must be on the session's server, because each one carries the token; no page is fetched
/// twice; and at most ``limit`` pages are fetched.
package struct Pagination: Sendable {
    /// The most pages fetched unless `--max-pages` says otherwise.
    package static let defaultLimit = 100

    /// What to do after a page.
    package enum Next: Sendable, Hashable {
        case fetch(URL)
        case complete
        /// There are more pages, but ``limit`` have been fetched.
        case limitReached(next: URL)
        /// The next page is on another origin, which the token must not reach.
        case offServer(URL)
        /// The next page was fetched before: the server links in a loop.
        case loop(URL)
    }

    /// The session's server, the only origin a page may come from.
    package let server: ServerURL
    /// The most pages to fetch.
    package let limit: Int
    private var fetched: Set<String>

    /// Starts with the first page, which the owner fetches; `limit`, the most pages to fetch, includes it.
    package init(first: URL, server: ServerURL, limit: Int = Pagination.defaultLimit) {
        self.server = server
        self.limit = max(1, limit)
        self.fetched = [first.absoluteString]
    }

    /// How many pages have been fetched or are being fetched.
    package var count: Int { fetched.count }

    /// A page arrived, successfully. `link` is its `Link` header fields, joined by commas, if any.
    package mutating func received(_ url: URL, link: String?, body: Data) -> Next {
        guard let next = Self.next(after: url, link: link, body: body) else { return .complete }
        guard server.isSameOrigin(next) else { return .offServer(next) }
        guard !fetched.contains(next.absoluteString) else { return .loop(next) }
        guard fetched.count < limit else { return .limitReached(next: next) }
        fetched.insert(next.absoluteString)
        return .fetch(next)
    }

    /// The next page's URL, from the `Link` header, else the body; `nil` on the last page.
    static func next(after url: URL, link: String?, body: Data) -> URL? {
        if let link, let target = LinkHeader.target(of: "next", in: link) {
            return URL(string: target, relativeTo: url)?.absoluteURL
        }
        // Read as text, not decoded: a page is still a page when some number in it is too large for a Double.
        guard let members = JSONText.members(of: body) else { return nil }
        for key in ["next", "@odata.nextLink"] {
            if let text = members[key], let target = try? JSONDecoder().decode(String.self, from: Data(text.utf8)),
                !target.isEmpty
            {
                return URL(string: target, relativeTo: url)?.absoluteURL
            }
        }
        guard members["has_more"] == "true" else { return nil }
        return following(url)
    }

    /// `url` with its `page` parameter one higher.
    static func following(_ url: URL) -> URL? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        var items = components.percentEncodedQueryItems ?? []
        let current = items.last(where: { $0.name == "page" }).flatMap { $0.value.flatMap(Int.init) } ?? 1
        items.removeAll { $0.name == "page" }
        items.append(URLQueryItem(name: "page", value: String(current + 1)))
        components.percentEncodedQueryItems = items
        return components.url
    }
}

/// RFC 8288's `Link` header: `<uri>; rel="next"; title="…", <uri>; rel=last`.
enum LinkHeader {
    /// The target of the first link whose `rel` includes `relation`, compared without case (§3.3).
    static func target(of relation: String, in header: String) -> String? {
        var index = header.startIndex
        while let open = header[index...].firstIndex(of: "<") {
            guard let close = header[open...].firstIndex(of: ">") else { return nil }
            let target = String(header[header.index(after: open)..<close])
            // The parameters run to the next comma that is outside a quoted string.
            var end = header.index(after: close)
            var quoted = false
            while end < header.endIndex, quoted || header[end] != "," {
                if header[end] == "\"" { quoted.toggle() }
                end = header.index(after: end)
            }
            for parameter in header[header.index(after: close)..<end].split(separator: ";") {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingWhitespace().lowercased() == "rel" else {
                    continue
                }
                let value = pair[1].trimmingWhitespace().trimming(while: { $0 == "\"" })
                if value.lowercased().split(separator: " ").contains(Substring(relation.lowercased())) {
                    return target
                }
            }
            index = end
        }
        return nil
    }
}
