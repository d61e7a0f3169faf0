import Foundation
import SessionMachine
import SessionStorage
import SwaggerDocuments
import SwaggerHTTP
import SwaggerModel
import TestSupport
import Testing

@testable import SwaggerClient

@Suite("ShellCompletions: what the shell offers for --server and --email", .timeLimit(.minutes(5)))
struct ShellCompletionsTests {
    /// A configuration folder holding ana and ivo on the demo server (ivo newer) and ana on another server.
    static func folder() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        let index = SessionList(directory: folder.url)
        try index.save(Fixtures.record(Fixtures.ana, savedAt: Fixtures.savedAt))
        try index.save(Fixtures.record(Fixtures.ivo, savedAt: Fixtures.savedAt.addingTimeInterval(10)))
        try index.save(
            Fixtures.record(
                Account(server: Fixtures.otherServer, name: "ana@example.com"),
                savedAt: Fixtures.savedAt.addingTimeInterval(5)))
        return folder
    }

    @Test("servers: each stored server once, the default first, filtered by what was typed")
    func servers() throws {
        let folder = try Self.folder()
        let environment = ["SWAGGERCTL_CONFIG_DIR": folder.url.path]
        #expect(
            ShellCompletions.servers(prefix: "", environment: environment) == [
                Fixtures.server.string, Fixtures.otherServer.string,
            ])
        #expect(ShellCompletions.servers(prefix: "https:", environment: environment) == [Fixtures.otherServer.string])
        #expect(ShellCompletions.servers(prefix: "ftp:", environment: environment) == [])
    }

    @Test("servers: the names the registry gives servers are offered with the URLs, and name them for --email")
    func names() throws {
        let folder = try Self.folder()
        let entry = ServerEntry(
            server: Fixtures.otherServer, description: Fixtures.original(Fixtures.otherServer),
            updatedAt: Fixtures.savedAt)
        try ServerRegistry(directory: folder.url).save(entry, naming: NameRequest(ServerName("prod"), rename: false))
        let environment = ["SWAGGERCTL_CONFIG_DIR": folder.url.path]
        #expect(ShellCompletions.servers(prefix: "pr", environment: environment) == ["prod"])
        #expect(ShellCompletions.servers(prefix: "", environment: environment).contains("prod"))
        #expect(
            ShellCompletions.emails(words: ["details", "-s", "prod"], prefix: "", environment: environment) == [
                "ana@example.com"
            ])
    }

    @Test(
        "emails: the accounts of the server on the command line, else of the default one, the active first",
        arguments: [
            ([String](), [String: String](), ["ivo@example.com", "ana@example.com"]),
            (["details", "-s", "https://API.example.com:443/v2/"], [:], ["ana@example.com"]),
            (["details", "--server=https://api.example.com/v2"], [:], ["ana@example.com"]),
            (
                ["details", "--server", "https://api.example.com/v2", "-s", Fixtures.server.string], [:],
                ["ivo@example.com", "ana@example.com"]
            ),
            (["details"], ["SWAGGERCTL_SERVER": Fixtures.otherServer.string], ["ana@example.com"]),
            (["details", "-s", "not a url"], [:], []),
            (["details", "-s", "https://elsewhere.example.com"], [:], []),
        ])
    func emails(words: [String], environment: [String: String], expected: [String]) throws {
        let folder = try Self.folder()
        let merged = environment.merging(["SWAGGERCTL_CONFIG_DIR": folder.url.path]) { $1 }
        #expect(ShellCompletions.emails(words: words, prefix: "", environment: merged) == expected)
    }

    @Test("nothing stored, or a folder that cannot be read, offers nothing and never fails")
    func nothing() throws {
        let folder = try TemporaryDirectory()
        try Data("not json".utf8).write(to: folder.url.appending(path: SessionList.fileName))
        let environment = ["SWAGGERCTL_CONFIG_DIR": folder.url.path]
        #expect(ShellCompletions.servers(prefix: "", environment: environment) == [])
        #expect(ShellCompletions.emails(words: [], prefix: "", environment: environment) == [])
        #expect(ShellCompletions.servers(prefix: "", environment: ["SWAGGERCTL_CONFIG_DIR": "relative"]) == [])
    }

    /// A body with read-only members: `id` marked in place, `owner` beside its `$ref` (OpenAPI 3.1), `createdAt` in the
    /// schema its `$ref` names.
    static let readOnlyMembers = #"""
        {"openapi": "3.1.0", "paths": {"/pets/{petId}": {"put": {"operationId": "replacePet",
          "parameters": [{"name": "petId", "in": "path", "required": true, "schema": {"type": "integer"}}],
          "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {
            "id": {"type": "integer", "readOnly": true},
            "owner": {"$ref": "#/components/schemas/User", "readOnly": true},
            "createdAt": {"$ref": "#/components/schemas/Stamp"},
            "name": {"type": "string"},
            "status": {"type": "string", "enum": ["available", "sold"], "readOnly": false}}}}}}}}},
         "components": {"schemas": {"User": {"type": "object"}, "Stamp": {"type": "string", "readOnly": true}}}}
        """#

    @Test("a body's read-only members are not offered, marked in place, beside a $ref or in the schema it names")
    func readOnlyMembers() throws {
        let index = try #require(
            OperationIndex.read(Data(Self.readOnlyMembers.utf8), at: URL(filePath: "/openapi.json")))
        let text = CompletionNames.text(of: index)
        #expect(
            CompletionNames.fields(in: text, operation: "replacePet", prefix: "") == ["petId=", "name=", "status="])
        #expect(
            CompletionNames.fields(in: text, operation: "replacePet", prefix: "status=") == [
                "status=available", "status=sold",
            ])
    }

    @Test("completion's lines kept by a version that chose fields otherwise are not current; those made now are")
    func namesVersion() throws {
        let index = try #require(
            OperationIndex.read(Data(Self.readOnlyMembers.utf8), at: URL(filePath: "/openapi.json")))
        #expect(CompletionNames.isCurrent(CompletionNames.text(of: index)))
        #expect(!CompletionNames.isCurrent("O\treplacePet\tPUT\t/pets/{petId}\nF\tid\n"))
        #expect(!CompletionNames.isCurrent(""))
    }

    @Test("the operation on the line is the first word after api that is neither an option nor an option's value")
    func operationArgument() {
        let cases: [([String], String?)] = [
            (["swaggerctl", "api", "getPet", "-f", "k"], "getPet"),
            (["swaggerctl", "api", "-X", "POST", "-H", "A: b", "createPet", "-F", ""], "createPet"),
            (["swaggerctl", "api", "-q", ".x", "-o", "table", "--paginate", "listPets", "-f"], "listPets"),
            (["swaggerctl", "api", "-s", "https://h", "-e", "a@b.c", "-f"], nil),
            (["swaggerctl", "details"], nil),
        ]
        for (words, expected) in cases {
            #expect(ShellCompletions.operationArgument(in: words) == expected, "\(words)")
        }
    }

    @Test("a word of bash or zsh is read as the command receives it: quotes and backslashes taken away")
    func unquoted() {
        let cases: [(String, String)] = [
            ("getPet", "getPet"),
            ("'GET /pets/{petId}'", "GET /pets/{petId}"),
            (#""GET /pets/{petId}""#, "GET /pets/{petId}"),
            (#"GET\ /pets/\{petId\}"#, "GET /pets/{petId}"),
            (#"x\$\(touch\$\{IFS\}/m\)"#, "x$(touch${IFS}/m)"),
            (#""a\"b\$c\d'e""#, #"a"b$c\d'e"#),
            (#"'a\b'"c"d"#, #"a\bcd"#),
            ("'GET /pe", "GET /pe"),
            ("a\\\nb", "ab"),
        ]
        for (typed, received) in cases {
            #expect(ShellCompletions.unquoted(typed) == received, "\(typed)")
        }
        #expect(ShellCompletions.serverFlag(in: ["details", "-s", "'https://h/a b'"]) == "https://h/a b")
        #expect(ShellCompletions.serverFlag(in: ["details", #"--server="https://h""#]) == "https://h")
    }
}
