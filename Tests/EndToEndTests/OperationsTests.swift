import Foundation
import SessionStorage
import SwaggerModel
import Testing

/// `api` with the server's document: operations by name against the demo server (OpenAPI 3.1, YAML), FastAPI (3.1,
/// JSON) and Flask-RESTX (Swagger 2.0); fields checked before anything is sent; the copy kept and asked for again;
/// `--jq`, `-o table`, redirects and completion.
@Suite("api by operation: the demo server, FastAPI and Flask-RESTX documents", .timeLimit(.minutes(15)))
struct OperationsTests {
    /// A framework whose document names `createPet` and `getPet`, and how to log in to it.
    struct Framework: Sendable, CustomTestStringConvertible {
        var fixture: PythonServer.Fixture
        var account: [String]
        var testDescription: String { fixture.rawValue }
    }

    static let frameworks = [
        Framework(fixture: .fastapi, account: ["-e", "ana@example.com"]),
        Framework(fixture: .restx, account: ["-u", "ana"]),
    ]

    func withSession(_ framework: Framework, _ body: (Sandbox, PythonServer) async throws -> Void) async throws {
        let sandbox = try Sandbox()
        try await withPythonServer(framework.fixture) { server in
            let login = try await sandbox.swaggerctl(
                ["login", "-s", server.origin, "--password-stdin"] + framework.account, stdin: "Passw0rd!\n")
            try #require(login.status == 0, "\(login)")
            try await body(sandbox, server)
        }
    }

    @Test(
        "createPet and getPet by name: fields go to the path, the query and the body, typed as -F types them",
        arguments: frameworks)
    func byName(framework: Framework) async throws {
        try await withSession(framework) { sandbox, _ in
            let listed = try await sandbox.swaggerctl("operations", "pet")
            #expect(listed.status == 0, "\(listed)")
            let lines = listed.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            #expect(
                lines.map { Array($0.prefix(3)) } == [
                    ["createPet", "POST", "/pets"], ["getPet", "GET", "/pets/{pet_id}"],
                ])

            let created = try await sandbox.swaggerctl(
                "api", "createPet", "-f", "name=Rex", "-f", "kind=dog", "-F", "age=3")
            #expect(created.status == 0, "\(created)")
            let body = try JSONSerialization.jsonObject(with: Data(created.stdout.utf8)) as? [String: Any]
            let pet = body?["created"] as? [String: Any]
            #expect(pet?["name"] as? String == "Rex" && pet?["kind"] as? String == "dog" && pet?["age"] as? Int == 3)

            let read = try await sandbox.swaggerctl("api", "GET /pets/{pet_id}", "-f", "pet_id=7", "-f", "kind=cat")
            #expect(read.status == 0, "\(read)")
            let answer = try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any]
            #expect(answer?["id"] as? Int == 7 && answer?["kind"] as? String == "cat", "\(read)")
        }
    }

    @Test("what the document refuses is refused with exit 64 before anything is sent", arguments: frameworks)
    func refusedBeforeSending(framework: Framework) async throws {
        try await withSession(framework) { sandbox, server in
            let cases: [([String], String)] = [
                (["createPet", "-f", "name=Rex", "-f", "kind=fish"], "kind takes one of cat, dog, bird"),
                (["createPet", "-f", "name=Rex"], "createPet needs -f kind (one of cat, dog, bird)."),
                (["createPet", "-f", "nmae=Rex", "-f", "kind=dog"], "did you mean name?"),
                (["createPet", "-f", "name=Rex", "-f", "kind=dog", "-f", "age=3"], "-F age=3 types it"),
                (["getPet", "-f", "pet_id=seven"], #"getPet: pet_id takes an integer, not "seven"."#),
                (["getPet"], "getPet needs -f pet_id (an integer)."),
                (["getPets"], "Did you mean getPet?"),
            ]
            // FastAPI counts each request that reaches it with a token.
            let counted = framework.fixture == .fastapi
            let before = counted ? try await APITests.counters(server)["requests"] : nil
            for (arguments, expected) in cases {
                let result = try await sandbox.swaggerctl(["api"] + arguments)
                #expect(result.status == 64, "\(arguments): \(result)")
                #expect(result.stderr.contains(expected), "\(arguments): \(result)")
                #expect(result.stdout.isEmpty, "\(arguments): \(result)")
            }
            if counted { #expect(try await APITests.counters(server)["requests"] == before) }
        }
    }

    @Test("the demo server's own document: getUser by name, --dry-run's curl line without the token, which curl runs")
    func demoServer() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            let user = try await sandbox.swaggerctl("api", "getUser")
            #expect(user.status == 0 && user.stdout.contains("\"demo@example.com\""), "\(user)")

            let dry = try await sandbox.swaggerctl("api", "getUser", "--dry-run")
            #expect(dry.status == 0, "\(dry)")
            let token = try await sandbox.swaggerctl("token")
            #expect(!token.stdout.isEmpty && !dry.stdout.contains(token.stdout.trimmingCharacters(in: .newlines)))
            #expect(
                dry.stdout.hasPrefix(
                    "curl \(server.apiURL)/User/User -H 'Authorization: Bearer '\"$(swaggerctl token -s "))
            // The line runs as it is, with swaggerctl on the PATH.
            #expect(dry.stdout.hasSuffix("\n") && dry.stdout.split(separator: "\n").count == 1, "\(dry)")
            let ran = try await runProgram(
                URL(filePath: "/bin/sh"), ["-c", dry.stdout.dropLast() + " -sS"],
                environment: sandbox.environment.merging(["PATH": Binaries.directory.path + ":/usr/bin:/bin"]) { $1 })
            // swaggerctl ends the body's line in a pipe, where curl leaves it as sent.
            #expect(ran.status == 0 && ran.stdout + "\n" == user.stdout, "\(ran)")
        }
    }

    @Test("a token header's name and scheme with $ and backticks reach curl from --dry-run's line as written")
    func dryRunQuotesTheHeader() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            // Every character of the name and the scheme is one that RFC 9110 allows in a token.
            let use = "X-$HOME`id`'x: `id`$USER"
            let set = try await sandbox.swaggerctl("server", "set", server.apiURL, "--token", use)
            try #require(set.status == 0, "\(set)")
            let dry = try await sandbox.swaggerctl("api", "getUser", "--dry-run")
            #expect(dry.status == 0, "\(dry)")
            let ran = try await runProgram(
                URL(filePath: "/bin/sh"), ["-c", dry.stdout.dropLast() + " -sS -v"],
                environment: sandbox.environment.merging(["PATH": Binaries.directory.path + ":/usr/bin:/bin"]) { $1 })
            // curl -v shows each header it sends after "> ".
            #expect(ran.stderr.contains("> \(use) "), "\(dry.stdout)\n\(ran)")
        }
    }

    @Test("the copy is asked for again with its ETag when an hour old or with --refresh-document: a 304 keeps it")
    func conditionalRefresh() async throws {
        let sandbox = try Sandbox()
        try await withDemoServer { server in
            try #require(try await sandbox.loginAsDemo(server.apiURL).status == 0)
            let registry = ServerRegistry(directory: sandbox.configDirectory)
            func copy() throws -> DocumentCopy {
                try #require(try registry.entry(for: try ServerURL(server.apiURL))?.document)
            }
            let first = try copy()
            #expect(first.etag?.isEmpty == false)
            let file = sandbox.cacheDirectory.appending(path: "documents/\(first.file)")
            let inode = try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int
            // Within the hour: the copy is used as it is, and nothing is asked.
            #expect(try await sandbox.swaggerctl("api", "getUser").status == 0)
            #expect(try copy().fetchedAt == first.fetchedAt)
            // With the flag, and once it is older than an hour, the server is asked; its 304 keeps the same file.
            #expect(try await sandbox.swaggerctl("operations", "--refresh-document").status == 0)
            let checked = try copy()
            #expect(checked.fetchedAt > first.fetchedAt)
            var entry = try #require(try registry.entry(for: try ServerURL(server.apiURL)))
            entry.document?.fetchedAt = Date(timeIntervalSinceNow: -7200)
            try registry.save(entry)
            #expect(try await sandbox.swaggerctl("api", "getUser").status == 0)
            #expect(try copy().fetchedAt.timeIntervalSinceNow > -600)
            #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int == inode)
        }
    }

    @Test("--jq runs on each page and on the --slurp list; -o table lays the items out; a jq mistake costs no request")
    func output() async throws {
        try await withSession(Self.frameworks[0]) { sandbox, server in
            let titles = try await sandbox.swaggerctl("api", "/questions", "--paginate", "--jq", ".items[].title")
            #expect(titles.status == 0, "\(titles)")
            #expect(titles.stdout == (1...8).map { "Question \($0)\n" }.joined(), "\(titles)")
            let count = try await sandbox.swaggerctl("api", "/questions", "--paginate", "--slurp", "-q", "length")
            #expect(count.stdout == "8\n", "\(count)")
            let table = try await sandbox.swaggerctl("api", "/questions", "--paginate", "-o", "table")
            #expect(table.status == 0, "\(table)")
            #expect(
                table.stdout.hasPrefix("question_id\ttitle\n1\tQuestion 1\n")
                    && table.stdout.hasSuffix("8\tQuestion 8\n"))
            let before = try await APITests.counters(server)["requests"]
            let broken = try await sandbox.swaggerctl("api", "/questions", "--jq", ".[")
            #expect(broken.status == 64 && broken.stderr.contains("--jq: the jq program does not compile"), "\(broken)")
            #expect(try await APITests.counters(server)["requests"] == before)
        }
    }

    @Test("a redirect on the server is followed with the token; to another origin only with -L, and without it")
    func redirects() async throws {
        try await withSession(Self.frameworks[0]) { sandbox, _ in
            let moved = try await sandbox.swaggerctl("api", "moved")
            #expect(moved.status == 0 && moved.stdout.contains(#""kind":"dog""#), "\(moved)")
            // As RFC 9110 §15.4 has it, what the server received after each redirect: the method, and the body.
            for (status, sent, received, body) in [
                (301, "PUT", "PUT", true), (302, "PATCH", "PATCH", true), (301, "DELETE", "DELETE", true),
                (301, "POST", "GET", false), (302, "POST", "GET", false), (303, "PUT", "GET", false),
                (307, "POST", "POST", true), (308, "PUT", "PUT", true),
            ] {
                let echo = try await sandbox.swaggerctl(
                    "api", "-X", sent, "/moved-echo?status=\(status)", "-f", "name=rex")
                let answer = try JSONSerialization.jsonObject(with: Data(echo.stdout.utf8)) as? [String: Any]
                #expect(
                    echo.status == 0 && answer?["method"] as? String == received
                        && (answer?["body"] as? String)?.contains("rex") == body, "\(status) \(sent): \(echo)")
            }
            // The demo server is another origin, whose profile needs a token.
            try await withDemoServer { demo in
                let away = "to=\(demo.apiURL)/User/User"
                let refused = try await sandbox.swaggerctl("api", "movedAway", "-f", away)
                #expect(
                    refused.status == 1 && refused.stderr.contains("-L follows it, without the token"), "\(refused)")
                let followed = try await sandbox.swaggerctl("api", "movedAway", "-f", away, "-L")
                #expect(followed.status == 1, "\(followed)")
                #expect(followed.stderr.contains("GET \(demo.apiURL)/User/User was refused (HTTP 401"), "\(followed)")
            }
        }
    }

    @Test("bash completes operation ids, paths, field names and enum values from the copy kept", arguments: frameworks)
    func completion(framework: Framework) async throws {
        try await withSession(framework) { sandbox, _ in
            let script = try await PackagingTests.completionScript("bash", in: sandbox)
            // FastAPI documents its header parameter; Flask-RESTX's parser takes only the query.
            let getPetFields = framework.fixture == .fastapi ? ["pet_id=", "kind=", "x-trace="] : ["pet_id=", "kind="]
            let cases = [
                ("swaggerctl api crea", ["createPet"]),
                // Quoted as bash reads it back (`printf %q`), as every candidate a server wrote is.
                ("swaggerctl api /pets/", [#"/pets/\{pet_id\}"#]),
                ("swaggerctl api getPet -f ", getPetFields),
                ("swaggerctl api getPet -F kind=", ["kind=cat", "kind=dog", "kind=bird"]),
                ("swaggerctl api -X POST createPet -f k", ["kind="]),
                ("swaggerctl api createPet -q . -F kind=b", ["kind=bird"]),
            ]
            for (line, expected) in cases {
                let result = try await PackagingTests.shell(
                    "bash", ["-c", PackagingTests.bashComplete, "bash", script.path, line], sandbox)
                #expect(
                    Set(result.stdout.split(separator: "\n").map(String.init)) == Set(expected), "\(line): \(result)")
            }
        }
    }
}
