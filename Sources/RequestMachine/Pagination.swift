import FoundationEssentials
import SwaggerModel

/// `--paginate`'s decisions: where the next page is, and when to stop. No I/O; ``RequestCoordinator`` holds it,
/// fetches each page and tells it what came back.
///
/// The first page is read for each of the ``PageStyle/known`` styles in turn, and the rest of the list as the first
/// page was: a page without its style's sign of a next page is the last. Numbered pages and offsets whose last is
/// known are named ahead (``upcoming(after:)``), so that several can be on their way at once. A page that holds a
/// list beside a count or a position, but shows none of the styles, is ``Next/undetermined(members:)``: part of a
/// list must never pass for all of it.
///
/// Every page must be on the session's server, because each one carries the token; no page is fetched twice; and
/// no more pages than ``limit`` are fetched, when the person set one.
package struct Pagination: Sendable {
    /// What to do after a page.
    package enum Next: Sendable, Hashable {
        case fetch(URL)
        /// The pages after this one were named ahead: ``upcoming(after:)`` names them.
        case planned
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
        /// The page gives a cursor in the member named, but nothing names the query parameter that takes it.
        case unnamedCursor(member: String)
        /// The page gives a total, in the member named, beside its list, but nothing names the query parameter that
        /// takes a page's number.
        case unnamedPage(member: String)
        /// The page at the URL held the very items of the page before, or, where the next page was worked out rather
        /// than named by the server, items of a page before: the server ignores how the next page was asked for, so
        /// the rest of the list cannot be reached that way. The page is not shown.
        case repeated(URL)
        /// The last page says the server cut the list short (the criterion that holds, as written), with no way to
        /// the rest; `items` came in all.
        case cut(criterion: String, items: Int)
    }

    /// Pages named ahead: `parameter` set to `next`, then `step` more, up to `last`, on the first page's URL.
    package struct Plan: Sendable, Hashable {
        var template: URL
        var parameter: String
        var next: Int
        var step: Int
        var last: Int
    }

    /// The session's server, the only origin a page may come from.
    package let server: ServerURL
    /// The most pages to fetch; `nil` for every one.
    package let limit: Int?
    /// What the server's description names: the page and cursor parameters.
    package let paging: Paging?
    /// The style the list is read in, once its first page has shown it.
    package private(set) var style: PageStyle?
    private var fetched: Set<String>
    /// How many items the pages so far held, for a list that says only its total.
    private var seen = 0
    /// The last page's list, as sent, to know a page that repeats it.
    private var lastItems: Data?
    /// The items of the pages so far, by their text's hash, where the next page is worked out rather than named.
    private var itemHashes: Set<Int> = []
    /// The page that ``upcoming(after:)`` guessed before its page was read whole, which ``received(_:)`` confirms,
    /// and the members at the edges that it was read by.
    private var early: (next: URL, members: JSONText.ObjectText?)?
    /// The pages named ahead, how many were named, how many of them came, and the first one the limit kept back.
    private var plan: Plan?
    private var named = 0
    private var arrived = 0
    private var heldBack: URL?

    /// Starts with the first page, which the owner fetches; `limit`, the most pages to fetch, includes it.
    package init(first: URL, server: ServerURL, limit: Int? = nil, paging: Paging? = nil) {
        self.server = server
        self.limit = limit.map { max(1, $0) }
        self.paging = paging
        self.fetched = [first.absoluteString]
    }

    /// How many pages have been fetched or are being fetched.
    package var count: Int { fetched.count }

    /// A page that may be asked for before `page` has been read whole, or, with `page` `nil`, before the pages asked
    /// for already have come: the next of the pages named ahead, or else, once for each page, the one its headers
    /// and the members at the edges of its body name (``JSONText/edgeMembers(of:)``), where a page names its next
    /// one before or after its list. It passes the tests of every page fetched (the server's origin, not fetched
    /// before, within the limit), so the token goes nowhere else; when ``received(_:)`` decides otherwise, the
    /// request is given up.
    package mutating func upcoming(after page: APIResponse?) -> URL? {
        if plan != nil { return ahead() }
        guard let page, early == nil else { return nil }
        let read = PageStyle.Page(url: page.url, response: page, members: JSONText.edgeMembers(of: page.body))
        let reading = style.map { [$0] } ?? PageStyle.known
        for candidate in reading {
            guard let found = candidate.read(read, paging: paging) else { continue }
            guard case .next(let next) = found, case .fetch = verdict(on: next) else { return nil }
            fetched.insert(next.absoluteString)
            early = (next, read.members)
            return next
        }
        return nil
    }

    /// The next of the pages named ahead, if the limit allows it.
    private mutating func ahead() -> URL? {
        guard var plan, heldBack == nil, plan.next <= plan.last,
            let next = Self.setting(plan.template, plan.parameter, to: String(plan.next))
        else { return nil }
        switch verdict(on: next) {
        case .fetch:
            fetched.insert(next.absoluteString)
        case .limitReached:
            heldBack = next
            return nil
        default:
            return nil
        }
        plan.next += plan.step
        self.plan = plan
        named += 1
        return next
    }

    /// A page arrived, successfully, from `url`, the URL it was asked for at.
    package mutating func received(_ page: APIResponse, from url: URL) -> Next {
        // The page asked for early is decided again with the rest: when it is the next one it passes the same
        // tests and is counted again, and any other was never fetched.
        let guessed = early.take()
        if let guessed { fetched.remove(guessed.next.absoluteString) }
        return decide(page, from: url, early: guessed)
    }

    /// `early` is the page asked for early, with the members it was read by.
    private mutating func decide(_ page: APIResponse, from url: URL, early: (next: URL, members: JSONText.ObjectText?)?)
        -> Next
    {
        // Read once, for its structure: the members found, the list found and counted, without a copy of each item.
        let outline = JSONText.outline(of: page.body)
        if let outline, let list = outline.list, outline.count > 0 {
            // Compared with the last list as bytes, which differ within the first item of any two real pages: a
            // hash would read all of each page.
            let items = outline.bytes[list]
            guard items != lastItems else { return .repeated(url) }
            lastItems = items
        }
        // A page worked out, not named by the server, that holds items already seen: the server ignored the
        // parameter, or the guess of it was wrong.
        if style?.isComputed == true, let outline, !remember(outline) { return .repeated(url) }
        seen += outline?.count ?? 0
        let read = PageStyle.Page(
            url: page.url, response: page, members: outline?.members, hasList: outline?.list != nil,
            count: outline?.count ?? 0, seen: seen)
        if plan != nil { return plannedPage(read) }
        let reading: PageStyle.Reading
        if let style {
            // Read in the list's style, known before the early page was asked for: the whole page reads the same
            // when it shows the same members as its edges did, and is not read again.
            if let early, style.readsSame(early.members, read.members) {
                reading = .next(early.next)
            } else {
                reading = style.read(read, paging: paging) ?? .last
            }
        } else if let (found, first) = Self.detect(read, paging: paging) {
            style = found
            reading = first
            if found.isComputed, let outline { _ = remember(outline) }
        } else {
            let members = outline?.members
            let lists = JSONText.itemKeys.filter { members?.member($0, startsWith: UInt8(ascii: "[")) ?? false }
            let positions = Self.positionMembers.filter { members?[$0] != nil }
            return lists.isEmpty || positions.isEmpty ? end(page) : .undetermined(members: lists + positions)
        }
        let next: URL
        switch reading {
        case .last: return end(page)
        case .unnamedCursor(let member): return .unnamedCursor(member: member)
        case .unnamedPage(let member): return .unnamedPage(member: member)
        case .next(let found): next = found
        }
        let verdict = verdict(on: next)
        guard case .fetch = verdict else { return verdict }
        fetched.insert(next.absoluteString)
        // The next page is the first of those that can be named ahead: the rest follow it.
        if let plan = style?.plan(from: read, paging: paging),
            Self.setting(plan.template, plan.parameter, to: String(plan.next)) == next
        {
            self.plan = plan
            self.plan?.next += plan.step
            named = 1
        }
        return .fetch(next)
    }

    /// The list's end, unless its last page says the server cut it short.
    private func end(_ page: APIResponse) -> Next {
        let criteria = paging?.cut ?? Paging.cutByDefault
        // Read whole once, on the last page only: the pages before it are read by their edges.
        let exchange = Exchange(
            method: "GET", url: page.url, status: page.status, responseHeaders: page.headers,
            responseBody: criteria.contains(where: \.readsResponseBody)
                ? JSONValue(parsing: page.body) : nil)
        guard let cut = criteria.first(where: { $0.holds(in: exchange) }) else { return .complete }
        return .cut(criterion: cut.description, items: seen)
    }

    /// Notes the items of `outline`'s list; `false` when one of them came on a page before.
    private mutating func remember(_ outline: JSONText.Page) -> Bool {
        guard let list = outline.list, let items = JSONText.items(of: outline.bytes[list]) else { return true }
        let hashes = items.map(\.hashValue)
        guard itemHashes.isDisjoint(with: hashes) else { return false }
        itemHashes.formUnion(hashes)
        return true
    }

    /// The first of the known styles that `page` shows, and what it reads there.
    private static func detect(_ page: PageStyle.Page, paging: Paging?) -> (PageStyle, PageStyle.Reading)? {
        for style in PageStyle.known {
            if let reading = style.read(page, paging: paging) { return (style, reading) }
        }
        return nil
    }

    /// What follows a page of those named ahead: the next, named already, unless this one is empty or says it is
    /// the last, which ends the list there.
    private mutating func plannedPage(_ page: PageStyle.Page) -> Next {
        arrived += 1
        if page.hasList, page.count == 0 { return .complete }
        if case .last? = style?.read(page, paging: paging) { return end(page.response) }
        if arrived < named { return .planned }
        if let heldBack { return .limitReached(next: heldBack) }
        guard let plan, plan.next <= plan.last else { return .complete }
        return .planned
    }

    /// Whether the page at `next` may be fetched.
    private func verdict(on next: URL) -> Next {
        guard server.isSameOrigin(next) else { return .offServer(next) }
        guard !fetched.contains(next.absoluteString) else { return .loop(next) }
        if let limit, fetched.count >= limit { return .limitReached(next: next) }
        return .fetch(next)
    }

    /// The members that count a list or place a page in it.
    static let positionMembers = [
        "total", "count", "total_count", "totalCount", "totalElements", "page", "pages", "current_page",
        "total_pages", "totalPages", "last_page", "number", "size", "limit", "offset", "cursor", "next", "next_page",
        "previous", "prev",
    ]

    /// `target` resolved against the page at `url` (RFC 3986 §5.2), with no base left in the URL.
    package static func resolve(_ target: String, against url: URL) -> URL? {
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

    /// The value of `url`'s query parameter `name`, if it has one.
    package static func query(_ url: URL, _ name: String) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedQueryItems?
            .last(where: { $0.name == name })?.value
    }

    /// `url` with its `parameter` one higher: the page after the one it names, the first being 1.
    package static func following(_ url: URL, _ parameter: String) -> URL? {
        let current = query(url, parameter).flatMap { Int($0) } ?? 1
        // The URL may be the server's: a number past any list's is not followed, and cannot overflow.
        guard (0..<1 << 48).contains(current) else { return nil }
        return setting(url, parameter, to: String(current + 1))
    }

    /// `url` with the query parameter `name` set to `value`, in place of any it had.
    package static func setting(_ url: URL, _ name: String, to value: String) -> URL? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        var items = components.percentEncodedQueryItems ?? []
        items.removeAll { $0.name == name }
        items.append(URLQueryItem(name: name, value: PercentEncoding.encode(value)))
        components.percentEncodedQueryItems = items
        return components.url
    }
}
