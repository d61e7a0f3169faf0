import FoundationEssentials
import SwaggerHTTP
import SwaggerModel

/// `--paginate`'s decisions: where the next page is, and when to stop. No I/O; the owner fetches each page
/// and tells it what came back.
///
/// The next page is found, in this order, in:
/// - an RFC 8288 `Link` header with `rel="next"`, as GitHub and GitLab send; a `Link` header without one says
///   this is the last page;
/// - a `next` URL in the body, as Django REST framework sends, OData's `@odata.nextLink`, or `links.next`, as
///   JSON:API and fastapi-pagination send;
/// - `"has_more": true`, as Stack Exchange's API sends: the same URL with `page` one higher (the first page is
///   1 when the URL names none);
/// - a `next_page` cursor, as fastapi-pagination's cursor pages send: the same URL with that `cursor`;
/// - `page` below `pages`, as fastapi-pagination's pages send: the same URL with `page` one higher;
/// - `offset` plus `limit` below `total`: the same URL with `offset` that much higher.
///
/// Each of them, present and saying there is no next page (`null`, `false`, the last page), ends the list.
/// A body that holds a list (`items`, `results` or `data`) beside a count or a position, but none of them,
/// is ``Next/undetermined``: part of a list must never pass for all of it.
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
        /// The page is part of a longer list, by its members (named here), but says nothing by which the next
        /// page can be found.
        case undetermined(members: [String])
    }

    /// What a page says of the next one.
    enum Link: Hashable {
        case next(URL)
        case last
        case unknown(members: [String])
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
        let next: URL
        switch Self.next(after: url, link: link, body: body) {
        case .last: return .complete
        case .unknown(let members): return .undetermined(members: members)
        case .next(let found): next = found
        }
        guard server.isSameOrigin(next) else { return .offServer(next) }
        guard !fetched.contains(next.absoluteString) else { return .loop(next) }
        guard fetched.count < limit else { return .limitReached(next: next) }
        fetched.insert(next.absoluteString)
        return .fetch(next)
    }

    /// The members that hold a page's list.
    static let listMembers = ["items", "results", "data"]
    /// The members that count a list or place a page in it.
    static let positionMembers = [
        "total", "count", "total_count", "page", "pages", "size", "limit", "offset", "cursor", "next", "next_page",
        "previous", "prev",
    ]

    /// What the page at `url` says of the next one: the `Link` header, else the body.
    static func next(after url: URL, link: String?, body: Data) -> Link {
        // A Link header pages only when it has pagination's relations; one that only describes the answer
        // (`rel="describedby"`) leaves the body to say.
        if let link {
            if let target = LinkHeader.target(of: "next", in: link) {
                return URL(string: target, relativeTo: url).map { .next($0.absoluteURL) } ?? .last
            }
            if ["prev", "previous", "first", "last"].contains(where: { LinkHeader.target(of: $0, in: link) != nil }) {
                return .last
            }
        }
        // Read as text, not decoded: a page is still a page when some number in it is too large for a Double.
        guard let members = JSONText.members(of: body) else { return .last }
        let links = members["links"].flatMap { JSONText.members(of: Data($0.utf8)) }
        for text in [members["next"], members["@odata.nextLink"], links?["next"]] {
            guard let text else { continue }
            if text == "null" { return .last }
            // A URL, or JSON:API's link object, {"href": URL}. Anything else (a page number) is left to the
            // rules below, and is no reason to stop.
            guard let target = Self.string(text) ?? JSONText.members(of: Data(text.utf8))?["href"].flatMap(Self.string)
            else { continue }
            guard !target.isEmpty else { return .last }
            return URL(string: target, relativeTo: url).map { .next($0.absoluteURL) } ?? .last
        }
        switch members["has_more"] {
        case "true": return following(url).map(Link.next) ?? .last
        case "false": return .last
        default: break
        }
        if let text = members["next_page"] {
            if text == "null" { return .last }
            if let cursor = Self.string(text) {
                guard !cursor.isEmpty else { return .last }
                return setting(url, "cursor", to: cursor).map(Link.next) ?? .last
            }
        }
        let number = { (name: String) in members[name].flatMap { Int($0) } }
        if let page = number("page"), let pages = number("pages") {
            guard page < pages else { return .last }
            return setting(url, "page", to: String(page + 1)).map(Link.next) ?? .last
        }
        if let offset = number("offset"), let limit = number("limit"), let total = number("total") {
            guard offset + limit < total, limit > 0 else { return .last }
            return setting(url, "offset", to: String(offset + limit)).map(Link.next) ?? .last
        }
        let lists = listMembers.filter { members[$0]?.hasPrefix("[") == true }
        let positions = positionMembers.filter { members[$0] != nil }
        return lists.isEmpty || positions.isEmpty ? .last : .unknown(members: lists + positions)
    }

    /// A JSON string's value; `nil` for `null` or anything else.
    private static func string(_ text: String) -> String? {
        try? JSONDecoder().decode(String.self, from: Data(text.utf8))
    }

    /// `url` with its `page` parameter one higher.
    static func following(_ url: URL) -> URL? {
        let current =
            URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedQueryItems?
            .last(where: { $0.name == "page" }).flatMap { $0.value.flatMap(Int.init) } ?? 1
        return setting(url, "page", to: String(current + 1))
    }

    /// `url` with the query parameter `name` set to `value`, in place of any it had.
    static func setting(_ url: URL, _ name: String, to value: String) -> URL? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        var items = components.percentEncodedQueryItems ?? []
        items.removeAll { $0.name == name }
        items.append(URLQueryItem(name: name, value: PercentEncoding.encode(value)))
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
