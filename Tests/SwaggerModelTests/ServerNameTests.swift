import Foundation
import TestSupport
import Testing

@testable import SwaggerModel

@Suite("Server names: a word that -s takes in place of a URL, and never a URL", .timeLimit(.minutes(5)))
struct ServerNameTests {
    static let demo = ServerEntry(
        server: Fixtures.server, description: Fixtures.original(), updatedAt: Fixtures.savedAt)
    static let other = ServerEntry(
        server: Fixtures.otherServer, description: Fixtures.original(Fixtures.otherServer),
        updatedAt: Fixtures.savedAt)

    static func named(_ entry: ServerEntry, _ name: String) throws -> ServerEntry {
        var entry = entry
        entry.name = try ServerName(name)
        return entry
    }

    @Test("a name is one word of letters, digits, -, _ and .", arguments: ["demo", "prod-eu", "a_1", "v2.api", "9"])
    func names(text: String) throws {
        #expect(try ServerName(text).string == text)
        #expect(try ServerReference(text) == .name(ServerName(text)))
    }

    @Test(
        "anything else is no name: empty, spaced, an option's dash, a dot first, other characters, over 64",
        arguments: ["", "two words", "-s", ".hidden", "..", "naïve", "a@b", "a\nb", String(repeating: "x", count: 65)])
    func notNames(text: String) {
        #expect(!ServerName.isName(text))
        #expect(throws: SwaggerError.self) { try ServerName(text) }
    }

    @Test(
        "text with a : or a / is a URL, never a name",
        arguments: ["https://api.example.com/v2", "http://localhost:8080", "HTTPS://Host/api/"])
    func urls(text: String) throws {
        #expect(try ServerReference(text) == .url(ServerURL(text)))
    }

    @Test("text with a : or a / and no scheme is an address, not a name", arguments: ["demo:8080", "a/b"])
    func addresses(text: String) throws {
        #expect(try ServerReference(text) == .url(ServerURL("https://" + text)))
    }

    @Test("text that is neither is refused with what a URL looks like", arguments: [":8080/api", "a b/c", "two words"])
    func neither(text: String) {
        #expect(throws: SwaggerError.self) { try ServerReference(text) }
        let error = try? #require(throws: SwaggerError.self) { try ServerReference(text) }
        #expect(error?.code == .usage)
        #expect(error?.message.contains("https://host/api") == true)
    }

    @Test("a name resolves to the server that has it; a URL to itself, whatever the names")
    func resolved() throws {
        let entries = [try Self.named(Self.demo, "demo"), try Self.named(Self.other, "prod")]
        #expect(try ServerReference("demo").resolved(among: entries) == Fixtures.server)
        #expect(try ServerReference("prod").resolved(among: entries) == Fixtures.otherServer)
        #expect(try ServerReference.url(Fixtures.otherServer).resolved(among: []) == Fixtures.otherServer)
    }

    @Test("an unknown name is a usage error that names the known names, sorted")
    func unknown() throws {
        let entries = [try Self.named(Self.other, "prod"), try Self.named(Self.demo, "demo")]
        let error = try #require(throws: SwaggerError.self) { try ServerReference("stage").resolved(among: entries) }
        #expect(error.code == .usage)
        #expect(error.message == "No server is named stage. Known names: demo, prod.")
    }

    @Test("with no name known, the error says how to give one")
    func noneKnown() throws {
        let error = try #require(throws: SwaggerError.self) { try ServerReference("demo").resolved(among: [Self.demo]) }
        #expect(error.code == .usage)
        #expect(
            error.message
                == "No server is named demo. No server has a name yet; give one with "
                + "`swaggerctl server set URL --name demo`.")
    }

    @Test("a host typed without its scheme is not a name any server has: the error shows the URL to give")
    func host() throws {
        let entries = [try Self.named(Self.demo, "demo")]
        let error = try #require(throws: SwaggerError.self) {
            try ServerReference("api.example.com").resolved(among: entries)
        }
        #expect(error.code == .usage)
        #expect(
            error.message
                == "No server is named api.example.com. For the server at that host, give its URL, such as "
                + "https://api.example.com.")
        let named = [try Self.named(Self.demo, "prod.eu")]
        #expect(try ServerReference("prod.eu").resolved(among: named) == Fixtures.server)
    }

    /// A request for a name, against a registry where the first server is named `demo` and the other has none.
    struct Naming: Sendable, CustomTestStringConvertible {
        var label: String
        var server: ServerURL
        var asked: String?
        var rename: Bool
        /// The name the server has afterwards, and the server that gave it up; or the refusal's message.
        var expected: Result<(after: String?, takenFrom: ServerURL?), SwaggerError>
        var clause: String?

        var testDescription: String { label }
    }

    static let namings: [Naming] = [
        Naming(
            label: "no request keeps the name", server: Fixtures.server, asked: nil, rename: false,
            expected: .success(("demo", nil)), clause: " (named demo)"),
        Naming(
            label: "no request, no name", server: Fixtures.otherServer, asked: nil, rename: false,
            expected: .success((nil, nil)), clause: ""),
        Naming(
            label: "its own name again", server: Fixtures.server, asked: "demo", rename: false,
            expected: .success(("demo", nil)), clause: " (named demo)"),
        Naming(
            label: "a free name for a server with none", server: Fixtures.otherServer, asked: "prod", rename: false,
            expected: .success(("prod", nil)), clause: " (now named prod)"),
        Naming(
            label: "another name for a named server", server: Fixtures.server, asked: "staging", rename: false,
            expected: .failure(
                SwaggerError(.usage, "\(Fixtures.server) is named demo; add --rename to name it staging instead.")),
            clause: nil),
        Naming(
            label: "another server's name", server: Fixtures.otherServer, asked: "demo", rename: false,
            expected: .failure(
                SwaggerError(
                    .usage,
                    "\(Fixtures.server) has the name demo; give another, or add --rename to move the name to "
                        + "\(Fixtures.otherServer).")), clause: nil),
        Naming(
            label: "--rename renames", server: Fixtures.server, asked: "staging", rename: true,
            expected: .success(("staging", nil)), clause: " (now named staging; was demo)"),
        Naming(
            label: "--rename moves another server's name", server: Fixtures.otherServer, asked: "demo", rename: true,
            expected: .success(("demo", Fixtures.server)),
            clause: " (now named demo, taken from \(Fixtures.server), which has no name now)"),
    ]

    @Test("a name changes or moves only with --rename", arguments: namings)
    func naming(_ row: Naming) throws {
        let entries = [try Self.named(Self.demo, "demo"), Self.other]
        let request = try row.asked.map { NameRequest(try ServerName($0), rename: row.rename) }
        switch row.expected {
        case .success(let expected):
            let naming = try ServerNaming(row.server, request, among: entries)
            #expect(naming.before == entries.first { $0.server == row.server }?.name)
            #expect(naming.after?.string == expected.after)
            #expect(naming.takenFrom == expected.takenFrom)
            #expect(naming.clause == row.clause)
        case .failure(let refusal):
            let error = try #require(throws: SwaggerError.self) {
                try ServerNaming(row.server, request, among: entries)
            }
            #expect(error.code == refusal.code)
            #expect(error.message == refusal.message)
        }
    }

    @Test("the registry's entry keeps its name, and one without a name writes none")
    func coded() throws {
        let named = try Self.named(Self.demo, "demo")
        // As the registry's file keeps it.
        let data = try JSONEncoder.swaggerctl.encode(named)
        #expect(String(decoding: data, as: UTF8.self).contains(#""name" : "demo""#))
        #expect(try JSONDecoder.swaggerctl.decode(ServerEntry.self, from: data).name == ServerName("demo"))
        #expect(!String(decoding: try JSONEncoder.swaggerctl.encode(Self.demo), as: UTF8.self).contains(#""name""#))
    }
}
