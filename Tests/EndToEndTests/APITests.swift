import Foundation
import Testing

/// `swaggerctl api` against the FastAPI app: each pagination style, `--slurp`, the page limit, a 401 renewed
/// and repeated, the statuses' exit codes, and the token kept to the session's server.
@Suite("api: authenticated requests and pagination, against FastAPI", .timeLimit(.minutes(15)))
struct APITests {
    /// Logs in to the FastAPI app, then runs `body`.
    func withSession(_ body: (Sandbox, PythonServer) async throws -> Void) async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(.fastapi) { server in
            let login = try await sandbox.login(
                server.origin, email: OAuth2Tests.ana.email, password: OAuth2Tests.ana.password,
                extra: ["--kind", "oauth2", "--profile-path", "/users/me"])
            try #require(login.status == 0, "\(login)")
            try await body(sandbox, server)
        }
    }

    /// What the app has counted: logins, refreshes and authenticated requests.
    static func counters(_ server: PythonServer) async throws -> [String: Int] {
        try await server.json(["\(server.origin)/test/counters"]) as? [String: Int] ?? [:]
    }

    @Test(
        "--paginate --slurp gives every item once, in order, whichever way the pages link",
        arguments: [("/questions", "question_id"), ("/linked", "id"), ("/cursor", "pk")])
    func slurp(path: String, key: String) async throws {
        try await withSession { sandbox, _ in
            // The pages wait in TMPDIR, not in a folder of swaggerctl's: a cache folder that cannot even be made
            // (its parent is a file, which stops root too) is no obstacle.
            let scratch = sandbox.root.appending(path: "tmp")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            let file = sandbox.root.appending(path: "not-a-folder")
            try Data().write(to: file)
            let result = try await sandbox.swaggerctl(
                ["api", path, "--paginate", "--slurp"],
                environment: ["TMPDIR": scratch.path, "SWAGGERCTL_CACHE_DIR": file.appending(path: "cache").path])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
            let items = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
            #expect(items?.compactMap { $0[key] as? Int } == Array(1...8), "\(result)")
            // The scratch file's name was removed as soon as it was made.
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [])
        }
    }

    @Test(
        "--paginate --slurp gives all 25 items of each of fastapi-pagination's page types",
        arguments: [
            "/fp/page?size=10", "/fp/limit-offset?limit=10", "/fp/links?size=10", "/fp/cursor?size=10",
            "/numbered?size=10", "/body-cursor",
        ])
    func fastapiPagination(path: String) async throws {
        try await withSession { sandbox, _ in
            try await sandbox.expectEveryItem(of: path)
        }
    }

    @Test("an object of items paged by Link headers, as the README shows it: --jq, -o table and --slurp, to the end")
    func linkedObjects() async throws {
        try await withSession { sandbox, _ in
            let titles = try await sandbox.swaggerctl("api", "/linked-items", "--paginate", "--jq", ".items[].title")
            #expect(titles.status == 0 && titles.stderr.isEmpty, "\(titles)")
            #expect(titles.stdout == (1...8).map { "Item \($0)\n" }.joined(), "\(titles)")
            let table = try await sandbox.swaggerctl("api", "/linked-items", "--paginate", "-o", "table")
            #expect(table.status == 0 && table.stdout.split(separator: "\n").count == 9, "\(table)")
            // One page holds the whole list: its Link names only the first page.
            for path in ["/linked-items", "/linked-items?per_page=20"] {
                let slurped = try await sandbox.swaggerctl("api", path, "--paginate", "--slurp")
                #expect(slurped.status == 0 && slurped.stderr.isEmpty, "\(slurped)")
                let items = try JSONSerialization.jsonObject(with: Data(slurped.stdout.utf8)) as? [[String: Any]]
                #expect(items?.compactMap { $0["id"] as? Int } == Array(1...8), "\(slurped)")
            }
        }
    }

    @Test("--parallel fetches numbered pages together, and prints them in order; a 429 slows it down, not fails it")
    func parallelPages() async throws {
        try await withSession { sandbox, server in
            // Each page but the first and last answers once the page after it is asked for: together, not in turn.
            let together = try await sandbox.swaggerctl(
                "api", "/numbered?size=5&together_key=k", "--paginate", "--parallel", "3", "--slurp")
            #expect(together.status == 0 && together.stderr.isEmpty, "\(together)")
            let items = try JSONSerialization.jsonObject(with: Data(together.stdout.utf8)) as? [[String: Any]]
            #expect(items?.compactMap { $0["id"] as? Int } == Array(1...25), "\(together)")
            #expect(try await Self.counters(server)["alone"] == nil)
            let pages = try await sandbox.swaggerctl(
                "api", "/numbered?size=5&together_key=printed", "--paginate", "--parallel", "4", "--jq", ".page")
            #expect(pages.status == 0 && pages.stdout == "1\n2\n3\n4\n5\n", "\(pages)")
            #expect(try await Self.counters(server)["alone"] == nil)

            let throttled = try await sandbox.swaggerctl(
                "api", "/throttled?key=a", "--paginate", "--parallel", "4", "--slurp")
            #expect(throttled.status == 0 && throttled.stderr.isEmpty, "\(throttled)")
            let all = try JSONSerialization.jsonObject(with: Data(throttled.stdout.utf8)) as? [[String: Any]]
            #expect(all?.compactMap { $0["id"] as? Int } == Array(1...25), "\(throttled)")
            #expect(try await Self.counters(server)["throttled"] == 1)

            let alone = try await sandbox.swaggerctl("api", "/numbered", "--parallel", "2")
            #expect(alone.status == 64 && alone.stderr.contains("--parallel is for --paginate"), "\(alone)")
        }
    }

    @Test("--paginate asks for each next page before it shows this one, and for none past the last page or the limit")
    func nextPageAskedEarly() async throws {
        try await withSession { sandbox, server in
            let requests = { try await Self.counters(server)["requests"] ?? 0 }
            let before = try await requests()
            let log = sandbox.root.appending(path: "strace.log")
            let traced = try await sandbox.run(
                URL(filePath: "/usr/bin/strace"),
                [
                    "-f", "-qq", "-s", "48", "-o", log.path, "-e", "trace=write,writev,sendto,sendmsg",
                    Binaries.swaggerctl.path, "api", "/cursor", "--paginate",
                ])
            #expect(traced.status == 0 && traced.stdout.split(separator: "\n").count == 2, "\(traced)")
            let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
            let asked = try #require(lines.firstIndex { $0.contains("GET /cursor?page=2 ") }, "\(lines)")
            let shown = try #require(lines.firstIndex { $0.contains(#"write(1, "{\"count\""#) }, "\(lines)")
            #expect(asked < shown, "\(lines)")
            // Two pages, two requests: nothing is asked for after the last page.
            #expect(try await requests() - before == 2)
            let limited = try await sandbox.swaggerctl("api", "/endless", "--paginate", "--max-pages", "3")
            #expect(limited.status == 0, "\(limited)")
            #expect(try await requests() - before == 5)
        }
    }

    @Test("--paginate into a pipe whose reader has gone stops there, as yes | head stops, not at the last page")
    func readerGone() async throws {
        try await withSession { sandbox, server in
            let requests = { try await Self.counters(server)["requests"] ?? 0 }
            let before = try await requests()
            let piped = try await sandbox.run(
                URL(filePath: "/bin/bash"),
                [
                    "-c",
                    #"set -o pipefail; "$0" api '/big?pages=40&size=200000' --paginate | head -c 10 >/dev/null; echo $?"#,
                    Binaries.swaggerctl.path,
                ])
            // 141: ended by SIGPIPE, with nothing said.
            #expect(piped.stdout == "141\n" && piped.stderr.isEmpty, "\(piped)")
            // Each page is larger than a pipe holds, so none is written whole before head has gone: the first page
            // and the one asked for early, of forty.
            #expect(try await requests() - before == 2)
        }
    }

    @Test("a list that ignores the server's page parameter stops --paginate with exit 1, never passing for the list")
    func ignoredPageParameter() async throws {
        try await withSession { sandbox, server in
            // The document's lists take `page`, which the session's description keeps; this one ignores it.
            #expect(try await sandbox.swaggerctl("server", "show").row("Pages")?.hasPrefix("by \"page\"") == true)
            for extra in [[], ["--slurp"]] {
                let result = try await sandbox.swaggerctl(["api", "/fp/unknown", "--paginate"] + extra)
                #expect(result.status == 1, "\(result)")
                #expect(
                    result.stderr
                        == "swaggerctl: Stopped after 1 page: /fp/unknown?page=2 repeated the page before; "
                        + "the list may be incomplete. Page with the API's parameters.\n", "\(result)")
                // The repeated page is not shown: each item once; and --slurp shows nothing of a list not whole.
                let shown = result.stdout.components(separatedBy: "\"id\"").count - 1
                #expect(shown == (extra.isEmpty ? 10 : 0), "\(result)")
            }
        }
    }

    @Test("--slurp holds one page at a time, not all of them: four times the pages take no more memory")
    func slurpMemory() async throws {
        try await withSession { sandbox, _ in
            // The most memory the command took (getrusage's ru_maxrss, in KiB) and how much it printed.
            func peak(pages: Int) async throws -> (kilobytes: Int, bytes: Int) {
                let measure = """
                    import resource, subprocess, sys
                    out = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE)
                    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
                    print(out.returncode, peak, len(out.stdout))
                    """
                let result = try await runProgram(
                    URL(filePath: "/usr/bin/python3"),
                    [
                        "-c", measure, Binaries.swaggerctl.path, "api", "/big?pages=\(pages)&size=2097152",
                        "--paginate",
                        "--slurp",
                    ],
                    environment: sandbox.environment)
                let fields = result.stdout.split(separator: " ").compactMap {
                    Int($0.trimmingCharacters(in: .newlines))
                }
                try #require(fields.count == 3 && fields[0] == 0, "\(result)")
                return (fields[1], fields[2])
            }
            let few = try await peak(pages: 4)
            let many = try await peak(pages: 16)
            #expect(many.bytes > 16 * 2_097_152 && few.bytes > 4 * 2_097_152)
            // Kept in memory, the twelve more pages would add 24 MiB; spooled, about nothing.
            #expect(many.kilobytes - few.kilobytes < 12 * 1024, "\(few) then \(many)")
        }
    }

    @Test("--paginate in a pipe writes each page as received, one per line")
    func pagesAsReceived() async throws {
        try await withSession { sandbox, _ in
            let result = try await sandbox.swaggerctl("api", "/questions", "--paginate")
            #expect(result.status == 0, "\(result)")
            let pages = result.stdout.split(separator: "\n")
            #expect(pages.count == 3, "\(result)")
            #expect(pages.first?.hasPrefix(#"{"items":[{"question_id":1,"title":"Question 1"}"#) == true, "\(result)")
        }
    }

    @Test("pagination follows every page unless --max-pages says otherwise, and then says where it stopped")
    func pageLimit() async throws {
        try await withSession { sandbox, _ in
            let three = try await sandbox.swaggerctl("api", "/endless", "--paginate", "--slurp", "--max-pages", "3")
            #expect(three.status == 0, "\(three)")
            #expect(three.stdout == #"[{"page":1},{"page":2},{"page":3}]"# + "\n", "\(three)")
            #expect(
                three.stderr.hasPrefix("swaggerctl: warning: stopped after 3 pages, as --max-pages says; the next is "),
                "\(three)")
            #expect(three.stderr.hasSuffix("/endless?page=4.\n"), "\(three)")

            // No limit of its own: 150 pages are 150 pages.
            let all = try await sandbox.swaggerctl("api", "/long", "--paginate", "--slurp")
            #expect(all.status == 0 && all.stderr.isEmpty, "\(all)")
            let items = try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [[String: Int]]
            #expect(items?.map { $0["page"] } == Array(1...150), "\(all.stderr)")
        }
    }

    @Test("a GET answered 503 is sent again, three attempts at most; a POST is sent once")
    func retries() async throws {
        try await withSession { sandbox, _ in
            let recovered = try await sandbox.swaggerctl("api", "/busy?key=get&fail=2")
            #expect(recovered.status == 0 && recovered.stdout == #"{"attempts":3}"# + "\n", "\(recovered)")

            let busy = try await sandbox.swaggerctl("api", "/busy?key=still&fail=3")
            #expect(busy.status == 5, "\(busy)")
            #expect(busy.stderr.contains("(HTTP 503"), "\(busy)")
            let after = try await sandbox.swaggerctl("api", "/busy?key=still&fail=3")
            #expect(after.stdout == #"{"attempts":4}"# + "\n", "three attempts before: \(after)")

            let posted = try await sandbox.swaggerctl("api", "-X", "POST", "/busy?key=post&fail=1")
            #expect(posted.status == 5, "\(posted)")
            let again = try await sandbox.swaggerctl("api", "-X", "POST", "/busy?key=post&fail=1")
            #expect(again.stdout == #"{"attempts":2}"# + "\n", "one attempt before: \(again)")
        }
    }

    @Test("a 401 renews the token and repeats the request once; a 401 after that exits 4 and keeps the session")
    func refreshAndRepeat() async throws {
        try await withSession { sandbox, server in
            let before = try await OAuth2Tests.stored(sandbox, server.origin)
            _ = try await curl(["-X", "POST", "\(server.origin)/test/expire-access-tokens"])
            let repeated = try await sandbox.swaggerctl("api", "/users/me")
            #expect(repeated.status == 0, "\(repeated)")
            #expect(repeated.stdout.contains(#""full_name":"Ana Horvat""#), "\(repeated)")
            #expect(try await Self.counters(server)["refreshes"] == 1)
            #expect(try await OAuth2Tests.stored(sandbox, server.origin).refreshToken != before.refreshToken)

            let refused = try await sandbox.swaggerctl("api", "/admin")
            #expect(refused.status == 4, "\(refused)")
            #expect(refused.stdout == #"{"detail":"Admins only"}"# + "\n", "\(refused)")
            #expect(
                refused.stderr
                    == "swaggerctl: GET /admin: the token was refused (HTTP 401 Unauthorized). If `swaggerctl details` "
                    + "says the session has ended, log in again.\n", "\(refused)")
            #expect(try await Self.counters(server)["refreshes"] == 2)
            #expect(try sandbox.sessions.records().count == 1)
            #expect(try await sandbox.swaggerctl("details").status == 0)
        }
    }

    @Test("a URL on another origin is refused before anything is sent; so is a next page there, after the first")
    func tokenStaysOnServer() async throws {
        try await withSession { sandbox, server in
            let requests = try await Self.counters(server)["requests"]
            let port = try #require(URL(string: server.origin)?.port)
            let other = try await sandbox.swaggerctl("api", "http://localhost:\(port)/users/me")
            #expect(other.status == 64, "\(other)")
            #expect(
                other.stderr.hasPrefix(
                    "swaggerctl: Refusing to send the token for \(server.origin) to http://localhost:\(port), which"
                ),
                "\(other)")
            #expect(try await Self.counters(server)["requests"] == requests)

            let elsewhere = try await sandbox.swaggerctl("api", "/elsewhere", "--paginate")
            #expect(elsewhere.status == 1, "\(elsewhere)")
            #expect(elsewhere.stdout.hasPrefix(#"{"results":[1],"#), "\(elsewhere)")
            #expect(
                elsewhere.stderr
                    == "swaggerctl: Stopped after 1 page: the next page, http://attacker.example/collect?page=2, is off "
                    + "\(server.origin), and the token goes nowhere else.\n", "\(elsewhere)")
        }
    }

    @Test("-f and -F make a JSON body, or the query for GET; --input sends bytes; -H adds a header; -i the status")
    func requestParts() async throws {
        try await withSession { sandbox, server in
            let post = try await sandbox.swaggerctl(
                "api", "/echo", "-f", "name=Ana", "-F", "age=41", "-H", "X-Swaggerctl-Test: yes")
            let echoed = try JSONSerialization.jsonObject(with: Data(post.stdout.utf8)) as? [String: Any]
            #expect(echoed?["method"] as? String == "POST", "\(post)")
            // As gh api's, the keys sorted; -F typed the number, -f kept the text.
            #expect(echoed?["body"] as? String == #"{"age":41,"name":"Ana"}"#, "\(post)")
            #expect(echoed?["contentType"] as? String == "application/json", "\(post)")
            #expect(echoed?["header"] as? String == "yes", "\(post)")

            let get = try await sandbox.swaggerctl("api", "-X", "GET", "/echo", "-f", "q=a+b&c")
            let query = try JSONSerialization.jsonObject(with: Data(get.stdout.utf8)) as? [String: Any]
            #expect(query?["query"] as? [String: String] == ["q": "a+b&c"], "\(get)")

            let put = try await sandbox.swaggerctl(["api", "-X", "PUT", "/echo", "--input", "-"], stdin: "[1, 2]")
            let input = try JSONSerialization.jsonObject(with: Data(put.stdout.utf8)) as? [String: Any]
            #expect(input?["body"] as? String == "[1, 2]", "\(put)")

            // In a pipe the body is as received, unless colour is asked for; then it is laid out and coloured.
            let coloured = try await sandbox.swaggerctl("api", "/teapot", "--color", "always")
            #expect(coloured.stdout == "{\n  \u{1B}[1;34m\"detail\"\u{1B}[0m: \u{1B}[32m\"I'm a teapot\"\u{1B}[0m\n}\n")
            let never = try await sandbox.swaggerctl("api", "/teapot", "--color", "never")
            #expect(never.stdout == #"{"detail":"I'm a teapot"}"# + "\n", "\(never)")

            let teapot = try await sandbox.swaggerctl("api", "-i", "/teapot")
            #expect(teapot.status == 1, "\(teapot)")
            // The status line and headers first on stdout, a blank line, then the body: as curl -i does.
            #expect(teapot.stdout.hasPrefix("HTTP/1.1 418 I'm a teapot\n"), "\(teapot)")
            #expect(teapot.stdout.contains("content-type: application/json\n"), "\(teapot)")
            #expect(teapot.stdout.hasSuffix("\n\n" + #"{"detail":"I'm a teapot"}"# + "\n"), "\(teapot)")
            #expect(
                teapot.stderr == "swaggerctl: GET /teapot was refused (HTTP 418 I'm a teapot): \"I'm a teapot\".\n",
                "the request named, and the server's detail quoted")
        }
    }

    @Test("a body over 1 MiB arrives whole; one over the limit, or endless, is refused before anything is sent")
    func wholeBodies() async throws {
        try await withSession { sandbox, server in
            // Three megabytes of JSON, which a 1 MiB cut would leave invalid.
            let items = (0..<150_000).map { "{\"n\":\($0)}" }.joined(separator: ",")
            let json = Data("[\(items)]".utf8)
            let file = sandbox.root.appending(path: "big.json")
            try json.write(to: file)

            let sent = try await sandbox.swaggerctl("api", "-X", "PUT", "/echo", "--input", file.path)
            let echoed = try JSONSerialization.jsonObject(with: Data(sent.stdout.utf8)) as? [String: Any]
            #expect(echoed?["length"] as? Int == json.count, "\(sent.stderr)")
            #expect(echoed?["tail"] as? String == String(decoding: json.suffix(64), as: UTF8.self), "\(sent.stderr)")

            let field = try await sandbox.swaggerctl("api", "/echo", "-F", "items=@\(file.path)")
            let fieldEcho = try JSONSerialization.jsonObject(with: Data(field.stdout.utf8)) as? [String: Any]
            #expect((fieldEcho?["length"] as? Int ?? 0) > json.count, "\(field.stderr)")

            let before = try await Self.counters(server)["requests"]
            let huge = sandbox.root.appending(path: "huge.bin")
            try Data(count: 16 << 20 + 1).write(to: huge)
            for arguments in [
                ["--input", huge.path], ["--input", "/dev/zero"], ["-F", "x=@/dev/zero"], ["-F", "x=@\(huge.path)"],
            ] {
                let refused = try await sandbox.swaggerctl(["api", "-X", "PUT", "/echo"] + arguments)
                #expect(refused.status == 64, "\(arguments): \(refused)")
                #expect(refused.stdout.isEmpty, "\(arguments)")
                #expect(refused.stderr.hasSuffix("more than 16 MiB, the most a request body can be.\n"), "\(refused)")
                #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused)")
            }
            #expect(try await Self.counters(server)["requests"] == before, "nothing was sent")
        }
    }
}
