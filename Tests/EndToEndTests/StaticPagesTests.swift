import Foundation
import Testing

/// `api --paginate` against pages that nginx serves from files, set up as its documentation does: the paging
/// styles a static site can have, each to its last item and exit 0.
@Suite(
    "api --paginate against nginx: body links, Link and Next-Page headers, numbered pages, offsets",
    .timeLimit(.minutes(15)))
struct StaticPagesTests {
    static let pages = 3
    static let perPage = 3

    /// The items of page `page` (from 1), as JSON: `{"id": N}`, numbered from 1 across the pages.
    static func items(_ page: Int) -> String {
        "[" + (1...perPage).map { #"{"id": \#((page - 1) * perPage + $0)}"# }.joined(separator: ", ") + "]"
    }

    /// Each style's files: the page's path and its text.
    static var files: [String: String] {
        var files: [String: String] = [:]
        for page in 1...pages {
            let next = page < pages ? #", "next": "/p/\#(page + 1).json""# : ""
            files["p/\(page).json"] = #"{"items": \#(items(page))\#(next)}"#
            files["l/\(page).json"] = items(page)
            files["k/\(page).json"] = #"{"data": \#(items(page))}"#
            files["n/\(page).json"] = #"{"items": \#(items(page)), "page": \#(page), "total_pages": \#(pages)}"#
            let offset = (page - 1) * perPage
            files["o/\(offset).json"] =
                #"{"results": \#(items(page)), "offset": \#(offset), "limit": \#(perPage), "count": \#(pages * perPage)}"#
        }
        return files
    }

    /// The headers that name the next page: `Link` (RFC 8288) for `/l/`, and the whole URL in `Next-Page`, as
    /// Kinto sends it, for `/k/`.
    static var settings: String {
        let link = (1..<pages).map { #"/l/\#($0).json "</l/\#($0 + 1).json>; rel=\"next\"";"# }
        let nextPage = (1..<pages).map { #"/k/\#($0).json "$scheme://$http_host/k/\#($0 + 1).json";"# }
        return "map $uri $link { default \"\"; \(link.joined(separator: " ")) }\n"
            + "map $uri $next_page { default \"\"; \(nextPage.joined(separator: " ")) }"
    }

    static let locations = """
        location /l/ { add_header Link $link; }
        location /k/ { add_header Next-Page $next_page; }
        location = /n { try_files /n/$arg_page.json =404; }
        location = /o { try_files /o/$arg_offset.json =404; }
        """

    @Test("every style nginx can serve gives every item once, in order; pages named ahead also several at a time")
    func everyStyle() async throws {
        let sandbox = try Sandbox(environment: ["SWAGGERCTL_TOKEN": "static"])
        try await Nginx.serve(Self.files, settings: Self.settings, locations: Self.locations) { base in
            let everyItem = (1...Self.pages * Self.perPage).map { "\($0)\n" }.joined()
            let runs: [(path: String, items: String, extra: [String])] = [
                ("/p/1.json", ".items[].id", []), ("/l/1.json", ".[].id", []), ("/k/1.json", ".data[].id", []),
                ("/n?page=1", ".items[].id", []), ("/n?page=1", ".items[].id", ["--parallel", "3"]),
                ("/o?offset=0&limit=\(Self.perPage)", ".results[].id", []),
                ("/o?offset=0&limit=\(Self.perPage)", ".results[].id", ["--parallel", "2"]),
            ]
            for run in runs {
                let result = try await sandbox.swaggerctl(
                    ["api", "-s", base, run.path, "--paginate", "--jq", run.items] + run.extra)
                #expect(result.status == 0 && result.stderr.isEmpty, "\(run.path) \(run.extra): \(result)")
                #expect(result.stdout == everyItem, "\(run.path) \(run.extra): \(result)")
            }
        }
    }
}
