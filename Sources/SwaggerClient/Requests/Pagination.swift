import FoundationEssentials
import SwaggerHTTP
import SwaggerModel

/// `--paginate`'s decisions: where the next page is, and when to stop. No I/O; the owner fetches each page
/// and tells it what came back.
///
/// The next page is found, in this order, in:
/// - an RFC 8288 `Link` header with `rel="next"`, as GitHub and GitLab send; a `Link` header without one, but with
///   another of pagination's relations, says this is the last page;
/// - a `next` URL in the body, as Django REST framework sends, OData's `@odata.nextLink`, or `next` in `links`,
///   `_links` (HAL's `{"href"}`), `pagination` or `meta`, as JSON:API, Spring, APIFlask and others send;
/// - `"has_more": true`, as Stack Exchange's API sends: the same URL with `page` one higher (the first page is
///   1 when the URL names none);
/// - a `next_page` cursor, as fastapi-pagination's cursor pages send: the same URL with that `cursor`;
/// - `page` below `pages`, `current_page` below `total_pages` or `last_page` (Litestar, Laravel), or Spring's
///   `number` below `totalPages`: the same URL with the page one higher;
/// - `offset` plus `limit` below `total`: the same URL with `offset` that much higher;
/// - a total (`count`, `total`) beside a list, with the page in the query or named by the server's description:
///   the next page, until as many items as the total have come (Django Ninja).
///
/// Each of them, present and saying there is no next page (`null`, `false`, the last page), ends the list.
/// A body that holds a list beside a count or a position, but none of them, is ``Pagination/Next/undetermined(members:)``: part of a
/// list must never pass for all of it.
///
/// Every page must be on the session's server, because each one carries the token; no page is fetched
/// twice; and no more pages than ``limit`` are fetched, when the person set one.
package struct Pagination: Sendable {
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
        /// The page at the URL held the very items of the page before: the server ignores how the next page was
        /// asked for, so the rest of the list cannot be reached that way. The page is not shown.
        case repeated(URL)
    }

    /// What a page says of the next one.
    enum Link: Hashable {
        case next(URL)
        case last
        case unknown(members: [String])
    }

    /// The session's server, the only origin a page may come from.
    package let server: ServerURL
    /// The most pages to fetch; `nil` for every one.
    package let limit: Int?
    /// The query parameter that names a page, when the server's description says (`ServerDescription.paging`).
    package let pageParameter: String?
    private var fetched: Set<String>
    /// How many items the pages so far held, for a list that says only its total.
    private var seen = 0
    /// The last page's list, as sent, to know a page that repeats it.
    private var lastItems: Data?
    /// The page that ``upcoming(after:link:body:)`` found from the `Link` header or the `next` member, with what it
    /// read: the same header and member in the whole page make the same decision, which `received` then takes.
    private var early: (page: URL, link: String?, nextMember: String?, next: URL)?

    /// Starts with the first page, which the owner fetches; `limit`, the most pages to fetch, includes it.
    package init(first: URL, server: ServerURL, limit: Int? = nil, pageParameter: String? = nil) {
        self.server = server
        self.limit = limit.map { max(1, $0) }
        self.pageParameter = pageParameter
        self.fetched = [first.absoluteString]
    }

    /// How many pages have been fetched or are being fetched.
    package var count: Int { fetched.count }

    /// A page arrived, successfully. `link` is its `Link` header fields, joined by commas, if any.
    package mutating func received(_ url: URL, link: String?, body: Data) -> Next {
        let early = self.early.take()
        // Read once, for its structure: the members found, the list found and counted, without a copy of each item.
        let page = JSONText.outline(of: body)
        if let page, let list = page.list, page.count > 0 {
            // Compared with the last list as bytes, which differ within the first item of any two real pages: a
            // hash would read all of each page.
            let items = page.bytes[list]
            guard items != lastItems else { return .repeated(url) }
            lastItems = items
        }
        seen += page?.count ?? 0
        // Nothing was fetched since the early page passed `verdict`, which would pass it again.
        if let early, early.page == url, early.link == link, page?.members?["next"] == early.nextMember {
            fetched.insert(early.next.absoluteString)
            return .fetch(early.next)
        }
        let next: URL
        switch Self.next(after: url, link: link, members: page?.members, seen: seen, pageParameter: pageParameter) {
        case .last: return .complete
        case .unknown(let members): return .undetermined(members: members)
        case .next(let found): next = found
        }
        let verdict = verdict(on: next)
        if case .fetch = verdict { fetched.insert(next.absoluteString) }
        return verdict
    }

    /// The page that ``received(_:link:body:)`` is expected to fetch after this one, found before the page is read:
    /// from the `Link` header, or from the members at the edges of the body (``JSONText/edgeMembers(of:)``), where a
    /// page names its next one before or after its list. `--paginate` asks for it at once, so that the server
    /// prepares it while this page is read and shown. It passes the tests of every page fetched (the server's
    /// origin, not fetched before, within the limit), so the token goes nowhere else; when `received` decides
    /// otherwise (the page repeats the last, or a member between the edges says more), the request is given up.
    package mutating func upcoming(after url: URL, link: String?, body: Data) -> URL? {
        early = nil
        let members = JSONText.edgeMembers(of: body)
        let leading = Self.leading(after: url, link: link, next: members?["next"])
        let found =
            leading ?? Self.next(after: url, link: link, members: members, seen: seen, pageParameter: pageParameter)
        guard case .next(let next) = found, case .fetch = verdict(on: next) else { return nil }
        if leading != nil { early = (url, link, members?["next"], next) }
        return next
    }

    /// Whether the page at `next` may be fetched.
    private func verdict(on next: URL) -> Next {
        guard server.isSameOrigin(next) else { return .offServer(next) }
        guard !fetched.contains(next.absoluteString) else { return .loop(next) }
        if let limit, fetched.count >= limit { return .limitReached(next: next) }
        return .fetch(next)
    }

    /// The members that hold a page's list.
    static let listMembers = JSONText.itemKeys
    /// The members that count a list or place a page in it.
    static let positionMembers = [
        "total", "count", "total_count", "totalCount", "totalElements", "page", "pages", "current_page",
        "total_pages", "totalPages", "last_page", "number", "size", "limit", "offset", "cursor", "next", "next_page",
        "previous", "prev",
    ]
    /// The objects that may hold a body's `next` link.
    static let linkHolders = ["links", "_links", "pagination", "meta"]

    /// What the page at `url` says of the next one: the `Link` header, else the body. `seen` is how many items the
    /// pages so far held, this one's included.
    static func next(after url: URL, link: String?, body: Data, seen: Int = 0, pageParameter: String? = nil) -> Link {
        next(
            after: url, link: link, members: JSONText.outline(of: body)?.members, seen: seen,
            pageParameter: pageParameter)
    }

    /// ``next(after:link:body:seen:pageParameter:)`` for a body whose members are read already: `nil` when it is not
    /// an object.
    static func next(
        after url: URL, link: String?, members: JSONText.ObjectText?, seen: Int = 0, pageParameter: String? = nil
    ) -> Link {
        if let leading = leading(after: url, link: link, next: members?["next"]) { return leading }
        // Read as text, not decoded: a page is still a page when some number in it is too large for a Double.
        guard let members else { return .last }
        let nested = linkHolders.compactMap { members[$0].flatMap { JSONText.members(of: Data($0.utf8)) } }
        for text in [members["@odata.nextLink"]] + nested.map({ $0["next"] }) {
            guard let text, let found = Self.link(after: url, in: text) else { continue }
            return found
        }
        switch members["has_more"] {
        case "true": return following(url, "page").map(Link.next) ?? .last
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
        // A page's number below the number of pages: the next page's number in the query parameter that names it.
        for (position, last, named) in [
            ("page", "pages", "page"), ("current_page", "total_pages", "current_page"),
            ("current_page", "last_page", "page"),
        ] {
            guard let page = number(position), let pages = number(last) else { continue }
            guard page < pages else { return .last }
            let parameter = pageParameter ?? (Self.query(url, position) != nil ? position : named)
            return setting(url, parameter, to: String(page + 1)).map(Link.next) ?? .last
        }
        // Spring Data's pages count from 0.
        if let page = number("number"), let pages = number("totalPages"), members["content"] != nil {
            guard page + 1 < pages else { return .last }
            return setting(url, pageParameter ?? "page", to: String(page + 1)).map(Link.next) ?? .last
        }
        if let offset = number("offset"), let limit = number("limit"), let total = number("total") {
            guard offset + limit < total, limit > 0 else { return .last }
            return setting(url, "offset", to: String(offset + limit)).map(Link.next) ?? .last
        }
        let lists = listMembers.filter { members.member($0, startsWith: UInt8(ascii: "[")) }
        let positions = positionMembers.filter { members.ranges[$0] != nil }
        // Only a total beside the list, and the page in the query: pages until the total has come.
        if !lists.isEmpty, let total = number("count") ?? number("total"),
            let parameter = pageParameter ?? (Self.query(url, "page") != nil ? "page" : nil)
        {
            guard seen < total, members[lists[0]] != "[]" else { return .last }
            return following(url, parameter).map(Link.next) ?? .last
        }
        return lists.isEmpty || positions.isEmpty ? .last : .unknown(members: lists + positions)
    }

    /// What the `Link` header, else the body's `next` member (its text as sent), say of the next page; `nil` when
    /// neither does, for the other members to say. They come first, and are the same whether read from the whole
    /// page or from its edges.
    private static func leading(after url: URL, link: String?, next: String?) -> Link? {
        // A Link header pages only when it has pagination's relations; one that only describes the answer
        // (`rel="describedby"`) leaves the body to say.
        if let link {
            if let target = LinkHeader.target(of: "next", in: link) {
                return resolve(target, against: url).map(Link.next) ?? .last
            }
            if ["prev", "previous", "first", "last"].contains(where: { LinkHeader.target(of: $0, in: link) != nil }) {
                return .last
            }
        }
        return next.flatMap { Self.link(after: url, in: $0) }
    }

    /// What a member that links to the next page says: `null` or `""` that there is none; a URL, or JSON:API's and
    /// HAL's link object, `{"href": URL}`, where it is. Anything else (a page number) is `nil`, left to the rules
    /// that follow, and no reason to stop.
    private static func link(after url: URL, in text: String) -> Link? {
        if text == "null" { return .last }
        guard let target = Self.string(text) ?? JSONText.members(of: Data(text.utf8))?["href"].flatMap(Self.string)
        else { return nil }
        guard !target.isEmpty else { return .last }
        return resolve(target, against: url).map(Link.next) ?? .last
    }

    /// `target` resolved against the page at `url` (RFC 3986 §5.2), with no base left in the URL.
    static func resolve(_ target: String, against url: URL) -> URL? {
        var target = target
        var page = url.absoluteString
        // A path from the root without dot segments, as most servers write a next link, is the page's scheme and
        // authority and then itself: made by the general resolution, the URL is built and parsed twice over.
        let joined = target.withUTF8 { path -> String? in
            guard path.first == UInt8(ascii: "/"), path.count < 2 || path[1] != UInt8(ascii: "/") else { return nil }
            for index in path.indices
            where path[index] == UInt8(ascii: "\\")
                || path[index] == UInt8(ascii: "/")
                    && index + 1 < path.count && path[index + 1] == UInt8(ascii: ".")
            {
                return nil
            }
            return page.withUTF8 { base -> String? in
                guard let colon = base.firstIndex(of: UInt8(ascii: ":")), colon + 3 <= base.count,
                    base[colon + 1] == UInt8(ascii: "/"), base[colon + 2] == UInt8(ascii: "/")
                else { return nil }
                let end =
                    base[(colon + 3)...].firstIndex {
                        $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
                    } ?? base.count
                return String(unsafeUninitializedCapacity: end + path.count) { text in
                    _ = text.initialize(fromContentsOf: base[..<end])
                    _ = text[end...].initialize(fromContentsOf: path)
                    return end + path.count
                }
            }
        }
        if let joined { return URL(string: joined) }
        return URL(string: target, relativeTo: url)?.absoluteURL
    }

    /// A JSON string's value; `nil` for `null` or anything else.
    private static func string(_ text: String) -> String? {
        // A link is written without escapes; only one with escapes needs a decoder.
        let utf8 = text.utf8
        if utf8.count >= 2, utf8.first == UInt8(ascii: "\""), utf8.last == UInt8(ascii: "\""),
            !utf8.dropFirst().dropLast().contains(where: {
                $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") || $0 < 0x20
            })
        {
            return String(text.dropFirst().dropLast())
        }
        return try? JSONDecoder().decode(String.self, from: Data(text.utf8))
    }

    /// The value of `url`'s query parameter `name`, if it has one.
    static func query(_ url: URL, _ name: String) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedQueryItems?
            .last(where: { $0.name == name })?.value
    }

    /// `url` with its `parameter` one higher: the page after the one it names, the first being 1.
    static func following(_ url: URL, _ parameter: String) -> URL? {
        let current = query(url, parameter).flatMap { Int($0) } ?? 1
        return setting(url, parameter, to: String(current + 1))
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
