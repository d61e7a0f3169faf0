import Foundation
import SessionStorage
import SwaggerModel
import TestSupport
import Testing

/// Completion offers what servers wrote (operation ids, paths, field names, enum values, account names chosen by a
/// provider, server URLs from an imported file) as data: in bash, zsh and fish, nothing of it runs, on Tab or when
/// the completed line runs, and nothing with a control character is offered.
@Suite("Completion is data: server text never runs in bash, zsh or fish", .timeLimit(.minutes(15)))
struct CompletionSafetyTests {
    /// Every hostile text creates a file in `markers` when a shell runs it; the folder must stay empty.
    struct Hostile: Sendable {
        let sandbox: Sandbox
        let markers: URL
        let server: String
        let account: String
        let hostileServer: String

        func touched() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: markers.path)
        }
    }

    /// A document whose names and values run commands if a shell expands them, and hold control characters.
    static func document(markers: String) -> String {
        let touch = { (name: String) in "$(touch${IFS}\(markers)/\(name))" }
        let tick = { (name: String) in "`touch${IFS}\(markers)/\(name)`" }
        return #"""
            {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {
              "/p\#(touch("path"))/{id}": {"get": {"operationId": "x\#(touch("id"))", "parameters": [
                {"name": "f\#(touch("field"))", "in": "query", "schema": {"type": "string"}},
                {"name": "kind", "in": "query", "schema": {"type": "string",
                  "enum": ["v\#(touch("enum"))", "w\#(tick("enum-tick"))", "e\u001b]0;owned\u0007"]}},
                {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
                "responses": {}}},
              "/q": {"get": {"operationId": "y\#(tick("id-tick"))", "responses": {}}},
              "/r": {"get": {"operationId": "z\u001b[31mred", "responses": {}}}}}
            """#
    }

    /// A session on a server whose copy of the document is ``document(markers:)``, a second account there whose
    /// name runs a command, and a session on a server whose URL runs one.
    static func withHostileNames(_ body: @Sendable (Hostile) async throws -> Void) async throws {
        let sandbox = try Sandbox()
        let markers = sandbox.root.appending(path: "markers")
        try FileManager.default.createDirectory(at: markers, withIntermediateDirectories: true)
        let file = sandbox.root.appending(path: "names.json")
        try Data(Self.document(markers: markers.path).utf8).write(to: file)
        try await FileServer.serve(file) { document in
            try await IdentityServer.run { url, _ in
                let login = try await sandbox.login(
                    url, email: "ana@example.com", password: "Passw0rd!", extra: ["--kind", "identity", "-q"])
                try #require(login.status == 0, "\(login)")
                try #require(try await sandbox.swaggerctl("server", "set", url, "--openapi", document).status == 0)
                try #require(try await sandbox.swaggerctl("operations").status == 0)
                let account = "h$(touch${IFS}\(markers.path)/account)@example.com"
                let hostileServer = "http://127.0.0.1:9/$(touch$IFS$9\(markers.path)/server)"
                for (server, name) in [(url, account), (hostileServer, "b@example.com")] {
                    let record = SessionRecord(
                        account: Account(server: try ServerURL(server), name: name), appID: "a", backend: .file,
                        savedAt: Date(), serverDescription: Fixtures.original(try ServerURL(server)))
                    try sandbox.sessions.save(record)
                }
                try await body(
                    Hostile(
                        sandbox: sandbox, markers: markers, server: url, account: account,
                        hostileServer: hostileServer))
            }
        }
    }

    /// The lines completed, each with the candidates it must offer, as their text is: whole, and none with a control
    /// character.
    static func cases(_ names: Hostile) -> [(line: String, offered: Set<String>)] {
        let touch = { (name: String) in "$(touch${IFS}\(names.markers.path)/\(name))" }
        let tick = { (name: String) in "`touch${IFS}\(names.markers.path)/\(name)`" }
        return [
            ("swaggerctl api ", ["x\(touch("id"))", "y\(tick("id-tick"))"]),
            ("swaggerctl api /p", ["/p\(touch("path"))/{id}"]),
            ("swaggerctl api x\(touch("id")) -f f", ["f\(touch("field"))="]),
            ("swaggerctl api x\(touch("id")) -f kind=", ["kind=v\(touch("enum"))", "kind=w\(tick("enum-tick"))"]),
            ("swaggerctl details -s \(names.server) -e h", [names.account]),
            ("swaggerctl details --server http://127.0.0.1:9/", [names.hostileServer]),
        ]
    }

    @Test("bash: the script's function offers each name as it is, and runs none")
    func bashFunction() async throws {
        try await Self.withHostileNames { names in
            let script = try await PackagingTests.completionScript("bash", in: names.sandbox)
            for (line, offered) in Self.cases(names) {
                let result = try await PackagingTests.shell(
                    "bash", ["-c", PackagingTests.bashComplete, "bash", script.path, line], names.sandbox)
                // What readline puts on the line: each candidate quoted as the shell reads it back.
                let unquoted = try await PackagingTests.shell(
                    "bash", ["-c", #"eval "words=($1)"; printf '%s\n' "${words[@]}""#, "bash", result.stdout],
                    names.sandbox)
                let candidates = Set(unquoted.stdout.split(separator: "\n").map(String.init))
                #expect(candidates.isSuperset(of: offered), "\(line): \(result)")
                // Read back as the shell reads them, not as `printf %q` wrote them (an ESC as the text `\E`): no
                // candidate holds a control character.
                let controls = candidates.filter { $0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } }
                #expect(controls.isEmpty, "\(line): \(result)")
            }
            #expect(try names.touched().isEmpty)
        }
    }

    @Test(
        "bash, zsh and fish on a terminal: Tab puts each name on the line quoted; running the line runs none",
        arguments: ["bash", "zsh", "fish"])
    func interactive(shell name: String) async throws {
        try await Self.withHostileNames { names in
            let shell = try await PackagingTests.interactiveShell(name, in: names.sandbox)
            // Each line is typed up to where one candidate is left, so that Tab puts it on the line whole.
            let cases = [
                ("swaggerctl api y", "y`touch${IFS}\(names.markers.path)/id-tick`"),
                ("swaggerctl api x", "x$(touch${IFS}\(names.markers.path)/id)"),
                // The id that Tab put on the line quoted names the operation whose fields are offered.
                ("swaggerctl api x\t -f f", "f$(touch${IFS}\(names.markers.path)/field)="),
                ("swaggerctl details --server http://127.0.0.1:9/", names.hostileServer),
                ("swaggerctl details -s \(names.server) -e h", names.account),
            ]
            for (index, (line, expected)) in cases.enumerated() {
                let words = try await onDedicatedThread {
                    try PackagingTests.completedWords(line, in: shell, marker: index)
                }
                #expect(words.last == expected, "\(name): \(line) became \(words)")
            }
            shell.type("\u{3}exit\r")
            #expect(try names.touched().isEmpty)
        }
    }
}
