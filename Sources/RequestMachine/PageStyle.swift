import FoundationEssentials
import SwaggerModel

/// How the pages of a list lead from one to the next: where a page says where the next one is, and how the list's
/// end shows. Each style is one row of data (``known``); the first page is read for each in turn, and the rest of
/// the list as its first page was, so that a page without the sign of its style (no `Link`, no `Next-Page`, no
/// `next`) is the last.
package struct PageStyle: Sendable, Hashable {
    package enum Next: Sendable, Hashable {
        /// RFC 8288's `Link` header, `rel="next"`; one with pagination's other relations and no `next` is the last
        /// page's.
        case link
        /// A response header that holds the next page's URL, as Kinto's `Next-Page` does.
        case header(String)
        /// A member of the body, by its path, that holds the next page's URL, or HAL's `{"href": URL}`; `null` or
        /// `""` says there is none.
        case url([String])
        /// A member of the body that holds an opaque cursor, sent back as the query parameter `parameter`, or as the
        /// one the server's description names; `null` or `""` says there is none.
        case cursor([String], parameter: String?)
        /// A member that is `true` while more pages follow: the page parameter one higher, from 1.
        case more(String)
        /// A page's number below the number of its last page: the page parameter one higher. `base` is the first
        /// page's number: Spring Data counts from 0. The pages can be named ahead.
        case numbered(page: String, last: String, parameter: String, base: Int)
        /// An offset and a limit below a total: the offset that much higher. The pages can be named ahead.
        case offset(offset: String, limit: String, total: String)
        /// A total beside the list, with the page in the query or named by the description: pages until as many
        /// items as the total have come.
        case total(String)
    }

    package var next: Next

    package init(_ next: Next) {
        self.next = next
    }

    /// The styles a first page is read for, in order: headers, then links in the body, then cursors and flags,
    /// then page numbers and offsets, then totals.
    package static let known: [PageStyle] =
        [PageStyle(.link), PageStyle(.header("Next-Page"))]
        + [
            ["next"], ["@odata.nextLink"], ["links", "next"], ["_links", "next"], ["pagination", "next"],
            ["meta", "next"],
        ]
        .map { PageStyle(.url($0)) }
        + [
            PageStyle(.more("has_more")),
            // fastapi-pagination's cursor pages.
            PageStyle(.cursor(["next_page"], parameter: "cursor")),
            PageStyle(.cursor(["next_cursor"], parameter: nil)),
            PageStyle(.cursor(["meta", "next_cursor"], parameter: nil)),
            // Slack's.
            PageStyle(.cursor(["response_metadata", "next_cursor"], parameter: "cursor")),
            // Matrix's, whose parameter is `since`.
            PageStyle(.cursor(["next_batch"], parameter: nil)),
            // Google's (AIP-158).
            PageStyle(.cursor(["nextPageToken"], parameter: "pageToken")),
        ]
        + [
            ("page", "pages", "page"), ("page", "total_pages", "page"), ("current_page", "total_pages", "current_page"),
            ("current_page", "last_page", "page"), ("page", "last_page", "page"), ("page", "totalPages", "page"),
            // RabbitMQ's management API.
            ("page", "page_count", "page"),
        ].map { PageStyle(.numbered(page: $0.0, last: $0.1, parameter: $0.2, base: 1)) }
        + [
            PageStyle(.numbered(page: "number", last: "totalPages", parameter: "page", base: 0)),
            PageStyle(.offset(offset: "offset", limit: "limit", total: "total")),
            PageStyle(.offset(offset: "offset", limit: "limit", total: "count")),
            PageStyle(.total("count")), PageStyle(.total("total")),
        ]

    /// What a page says of the next one, read in this style.
    package enum Reading: Sendable, Hashable {
        case next(URL)
        case last
        /// A cursor, in the member named, that no query parameter is known to take.
        case unnamedCursor(String)
        /// A total, in the member named, beside a list whose page parameter nothing names.
        case unnamedPage(String)
    }

    /// A page as a style reads it.
    package struct Page {
        package var url: URL
        package var response: APIResponse
        /// The top-level members, when the body is an object: all of them, or only those at its edges.
        package var members: JSONText.ObjectText?
        /// Whether the body holds a list, how many items it holds, and how many the pages so far held, this one's
        /// included.
        var hasList: Bool
        package var count: Int
        package var seen: Int

        package init(
            url: URL, response: APIResponse, members: JSONText.ObjectText?, hasList: Bool = false, count: Int = 0,
            seen: Int = 0
        ) {
            self.url = url
            self.response = response
            self.members = members
            self.hasList = hasList
            self.count = count
            self.seen = seen
        }
    }

    /// What `page` says of the next one in this style; `nil` when the page shows no sign of it. `paging` is what the
    /// server's description names.
    package func read(_ page: Page, paging: Paging?) -> Reading? {
        switch next {
        case .link:
            guard let link = page.response.header("Link") else { return nil }
            if let target = LinkHeader.target(of: "next", in: link) {
                return Pagination.resolve(target, against: page.url).map(Reading.next) ?? .last
            }
            // A Link header that only describes the answer (`rel="describedby"`) leaves the body to say.
            let paging = ["prev", "previous", "first", "last"].contains { LinkHeader.target(of: $0, in: link) != nil }
            return paging ? .last : nil
        case .header(let name):
            guard let target = page.response.header(name)?.trimmingWhitespace() else { return nil }
            guard !target.isEmpty else { return .last }
            return Pagination.resolve(target, against: page.url).map(Reading.next) ?? .last
        case .url(let path):
            guard let text = Self.member(path, of: page.members) else { return nil }
            if text == "null" { return .last }
            guard let target = Self.string(text) ?? JSONText.members(of: Data(text.utf8))?["href"].flatMap(Self.string)
            else { return nil }
            guard !target.isEmpty else { return .last }
            return Pagination.resolve(target, against: page.url).map(Reading.next) ?? .last
        case .cursor(let path, let parameter):
            return Self.readCursor(path, parameter: paging?.cursor ?? parameter, of: page)
        case .more(let name):
            switch Self.member([name], of: page.members) {
            case "true": return Pagination.following(page.url, paging?.page ?? "page").map(Reading.next) ?? .last
            case "false": return .last
            default: return nil
            }
        case .numbered(let position, let last, let named, let base):
            guard let number = Self.integer(position, of: page.members),
                let pages = Self.integer(last, of: page.members)
            else { return nil }
            guard number < pages - 1 + base else { return .last }
            return Pagination.setting(page.url, Self.parameter(page, position, named, paging), to: String(number + 1))
                .map(Reading.next) ?? .last
        case .offset(let offset, let limit, let total):
            guard let at = Self.integer(offset, of: page.members), let size = Self.integer(limit, of: page.members),
                let count = Self.integer(total, of: page.members)
            else { return nil }
            guard size > 0, at + size < count else { return .last }
            return Pagination.setting(page.url, offset, to: String(at + size)).map(Reading.next) ?? .last
        case .total(let name):
            return Self.readTotal(name, of: page, paging: paging)
        }
    }

    /// A cursor in the member at `path`, sent back in the query parameter `parameter`.
    private static func readCursor(_ path: [String], parameter: String?, of page: Page) -> Reading? {
        guard let text = member(path, of: page.members) else { return nil }
        if text == "null" { return .last }
        guard let cursor = string(text) else { return nil }
        guard !cursor.isEmpty else { return .last }
        guard let name = parameter else { return .unnamedCursor(path.joined(separator: ".")) }
        return Pagination.setting(page.url, name, to: cursor).map(Reading.next) ?? .last
    }

    /// A list that says only its total, in the member `name`: the next page by offset or by number, as the URL
    /// or else the description says, until the items seen reach the total.
    private static func readTotal(_ name: String, of page: Page, paging: Paging?) -> Reading? {
        guard page.hasList, let total = integer(name, of: page.members) else { return nil }
        guard page.seen < total, page.count > 0 else { return .last }
        // A list paged by an offset passes over the items seen so far; which way the list is paged, the URL
        // says (an offset, a page, or a limit that offsets go with), else the description, pages first.
        let offset = Pagination.query(page.url, "offset") != nil ? "offset" : paging?.offset
        let byOffset =
            Pagination.query(page.url, "offset") != nil
            || (Pagination.query(page.url, "page") == nil
                && (Pagination.query(page.url, "limit") != nil || paging?.page == nil))
        if let offset, byOffset {
            return Pagination.setting(page.url, offset, to: String(page.seen)).map(Reading.next) ?? .last
        }
        guard let parameter = Pagination.query(page.url, "page") != nil ? "page" : paging?.page else {
            return .unnamedPage(name)
        }
        return Pagination.following(page.url, parameter).map(Reading.next) ?? .last
    }

    /// Whether two readings of one response, each with its own members, read the same: whether every top-level
    /// member that this style reads is written the same in both, or is in neither. The headers, the URL and the
    /// description are the response's; a style that reads more, the items counted so far, is never the same.
    func readsSame(_ one: JSONText.ObjectText?, _ other: JSONText.ObjectText?) -> Bool {
        func same(_ name: String) -> Bool { JSONText.ObjectText.same(name, in: one, other) }
        switch next {
        case .link, .header: return true
        case .url(let path), .cursor(let path, _): return path.first.map(same) ?? true
        case .more(let name): return same(name)
        case .numbered(let page, let last, _, _): return same(page) && same(last)
        case .offset(let offset, let limit, let total): return same(offset) && same(limit) && same(total)
        case .total: return false
        }
    }

    /// The pages after `page` that can be named before they are fetched: numbered pages whose last is known, and
    /// offsets below a known total. `nil` for a style whose next page only its page can say.
    func plan(from page: Page, paging: Paging?) -> Pagination.Plan? {
        switch next {
        case .numbered(let position, let last, let named, let base):
            guard let number = Self.integer(position, of: page.members),
                let pages = Self.integer(last, of: page.members)
            else { return nil }
            return Pagination.Plan(
                template: page.url, parameter: Self.parameter(page, position, named, paging), next: number + 1, step: 1,
                last: pages - 1 + base)
        case .offset(let offset, let limit, let total):
            guard let at = Self.integer(offset, of: page.members), let size = Self.integer(limit, of: page.members),
                let count = Self.integer(total, of: page.members), size > 0
            else { return nil }
            return Pagination.Plan(template: page.url, parameter: offset, next: at + size, step: size, last: count - 1)
        default:
            return nil
        }
    }

    /// The query parameter that names a numbered page: the description's, else the one in the URL, else the style's.
    private static func parameter(_ page: Page, _ position: String, _ named: String, _ paging: Paging?) -> String {
        paging?.page ?? (Pagination.query(page.url, position) != nil ? position : named)
    }

    /// The text of the member at `path`, as sent; a path of more than one name reads the objects on its way.
    static func member(_ path: [String], of members: JSONText.ObjectText?) -> String? {
        guard let first = path.first, var text = members?[first] else { return nil }
        for name in path.dropFirst() {
            guard let inner = JSONText.members(of: Data(text.utf8))?[name] else { return nil }
            text = inner
        }
        return text
    }

    /// A member that is a count or a position, as sent: an integer from 0 to 2⁴⁸, so that the sums made of it
    /// cannot overflow, written as an integer or as a number that is one (`1e3`, `25.0`). Any other is not one.
    static func integer(_ name: String, of members: JSONText.ObjectText?) -> Int? {
        guard let text = members?[name] else { return nil }
        let limit = 1 << 48
        if let number = Int(text) { return (0...limit).contains(number) ? number : nil }
        guard let number = Double(text), number.rounded() == number, number >= 0, number <= Double(limit) else {
            return nil
        }
        return Int(number)
    }

    /// Whether the next page is one this style works out, rather than one the server names: such a page is only
    /// as good as the guess, and is checked for the items it repeats.
    var isComputed: Bool {
        switch next {
        case .link, .header, .url, .cursor: false
        case .more, .numbered, .offset, .total: true
        }
    }

    /// A JSON string's value; `nil` for `null` or anything else.
    static func string(_ text: String) -> String? {
        // A link is written without escapes; only one with escapes needs a decoder. Read as bytes: as characters,
        // each page's link was broken into graphemes twice over.
        var text = text
        let plain = text.withUTF8 { bytes -> String? in
            guard bytes.count >= 2, bytes[0] == UInt8(ascii: "\""), bytes[bytes.count - 1] == UInt8(ascii: "\"")
            else { return nil }
            let inner = UnsafeBufferPointer(rebasing: bytes[1..<(bytes.count - 1)])
            guard !inner.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") || $0 < 0x20 })
            else { return nil }
            return String(decoding: inner, as: UTF8.self)
        }
        return plain ?? (try? JSONDecoder().decode(String.self, from: Data(text.utf8)))
    }
}
