import Foundation
import Testing

/// Tab in bash, zsh and fish on a terminal, as a person presses it: a field's `name=` left open for its value, the
/// value offered at the next Tab, no read-only member offered for a body, a server wherever a command takes one, and
/// an account with its `@` as it is.
@Suite("Completion completes fields, servers and accounts in bash, zsh and fish", .timeLimit(.minutes(15)))
struct CompletionTests {
    /// A pet store whose body has members the server fills in: `id` and `createdAt` are read-only.
    static let document = #"""
        {"openapi": "3.0.3", "info": {"title": "Pets", "version": "1"}, "paths": {
          "/pet": {"post": {"operationId": "createPet", "requestBody": {"content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/Pet"}}}}, "responses": {}}}},
         "components": {"schemas": {"Pet": {"type": "object", "required": ["name"], "properties": {
           "id": {"type": "integer", "readOnly": true},
           "createdAt": {"type": "string", "format": "date-time", "readOnly": true},
           "name": {"type": "string"},
           "category": {"type": "string"},
           "status": {"type": "string", "enum": ["available", "pending", "sold"]}}}}}}
        """#

    /// A sandbox whose one server, and so the current one, is the pet store, with its document's copy kept.
    static func withPetStore(_ body: @Sendable (Sandbox) async throws -> Void) async throws {
        let sandbox = try Sandbox()
        let file = sandbox.root.appending(path: "pets.json")
        try Data(Self.document.utf8).write(to: file)
        try await FileServer.serve(file) { document in
            let server = try #require(URL(string: document)).deletingLastPathComponent().deletingLastPathComponent()
            let set = try await sandbox.swaggerctl(
                "server", "set", server.appending(path: "api").absoluteString, "--openapi", document,
                "--login-path", "/login", "--profile-path", "/me")
            try #require(set.status == 0, "\(set)")
            let operations = try await sandbox.swaggerctl("operations")
            try #require(operations.status == 0 && operations.stdout.contains("createPet"), "\(operations)")
            try await body(sandbox)
        }
    }

    @Test(
        "Tab completes a field to name= with no space and nothing escaped; the next Tab offers and completes its values",
        arguments: ["bash", "zsh", "fish"])
    func fields(shell name: String) async throws {
        try await Self.withPetStore { sandbox in
            let shell = try await PackagingTests.interactiveShell(name, in: sandbox)
            shell.type("swaggerctl api createPet -f st\t")
            // bash lists at the second Tab of those that add nothing, zsh at the first; fish lists in a pager, which
            // a dumb terminal does not show.
            if name != "fish" {
                shell.type(name == "bash" ? "\t\t" : "\t")
                try await onDedicatedThread {
                    for value in ["available", "pending", "sold"] { try shell.read(until: value) }
                }
            }
            // With a space after `status=`, the `a` would be a word of its own.
            let words = try await onDedicatedThread { try PackagingTests.completedWords("a", in: shell, marker: 0) }
            #expect(words.suffix(2) == ["-f", "status=available"], "\(name): became \(words)")
            #expect(!shell.transcript.contains(#"\="#), "\(name): \(shell.transcript)")
            shell.type("\u{3}exit\r")
        }
    }

    @Test("a read-only member is not offered for a request's body", arguments: ["bash", "zsh", "fish"])
    func readOnly(shell name: String) async throws {
        try await Self.withPetStore { sandbox in
            let shell = try await PackagingTests.interactiveShell(name, in: sandbox)
            // `createdAt` is read-only: `category` is the one field that starts with `c`.
            let words = try await onDedicatedThread {
                try PackagingTests.completedWords("swaggerctl api createPet -F c", in: shell, marker: 0)
            }
            #expect(words.last == "category=", "\(name): became \(words)")
            shell.type("\u{3}exit\r")
        }
    }

    @Test(
        "a server is completed wherever a command takes one, and an account with its @ as it is",
        arguments: ["bash", "zsh", "fish"])
    func serversAndAccounts(shell name: String) async throws {
        let sandbox = try PackagingTests.sandboxWithServers()
        let shell = try await PackagingTests.interactiveShell(name, in: sandbox)
        let cases = [
            ("swaggerctl server show https://h", "https://h.example:8443/v2"),
            ("swaggerctl server set http://loc", "http://localhost:9/api"),
            ("swaggerctl server forget https:", "https://h.example:8443/v2"),
            ("swaggerctl server export http://127.0.0.1:8081", "http://127.0.0.1:8081/api"),
            ("swaggerctl git-credential --setup http://loc", "http://localhost:9/api"),
            ("swaggerctl details -s http://127.0.0.1:8080/api -e d", "demo@example.com"),
            // bash splits the word at its `@`.
            ("swaggerctl details -s http://127.0.0.1:8080/api -e demo@e", "demo@example.com"),
        ]
        for (index, (line, expected)) in cases.enumerated() {
            let words = try await onDedicatedThread {
                try PackagingTests.completedWords(line, in: shell, marker: index)
            }
            #expect(words.last == expected, "\(name): \(line) became \(words)")
        }
        #expect(!shell.transcript.contains(#"\@"#), "\(name): \(shell.transcript)")
        shell.type("\u{3}exit\r")
    }

    @Test("fish and zsh describe each server by itself, a URL by its name, a name by its URL; bash shows none")
    func describedServers() async throws {
        let sandbox = try Sandbox()
        let set = try await sandbox.swaggerctl(
            "server", "set", "http://127.0.0.1:9/api", "--preset", "original", "--name", "demo")
        try #require(set.status == 0, "\(set)")
        // As the scripts ask: the option, the index of the word completed, the cursor in it, and the words.
        let asked = ["---completion", "details", "--", "--server", "3", "0", "swaggerctl", "details", "-s", ""]
        let expected = [
            "fish": ["http://127.0.0.1:9/api\tnamed demo, current", "demo\thttp://127.0.0.1:9/api"],
            "zsh": [#"http\://127.0.0.1\:9/api:named demo, current"#, "demo:http://127.0.0.1:9/api", " "],
            "bash": ["http://127.0.0.1:9/api", "demo"],
        ]
        for (shell, lines) in expected {
            let result = try await sandbox.swaggerctl(asked, environment: ["SAP_SHELL": shell])
            #expect(result.status == 0, "\(shell): \(result)")
            #expect(result.stdout.split(separator: "\n").map(String.init) == lines, "\(shell): \(result)")
        }
    }
}
