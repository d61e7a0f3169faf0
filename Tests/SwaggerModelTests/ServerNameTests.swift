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

    @Test("text that is neither is refused with what a URL looks like", arguments: ["demo:8080", "a/b", "two words"])
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

    @Test("a name clashes with another server that has it, and not with the server's own")
    func clash() throws {
        let entries = [try Self.named(Self.demo, "demo"), Self.other]
        let demo = try ServerName("demo")
        #expect(ServerName.clash(demo, for: Fixtures.server, among: entries) == nil)
        #expect(ServerName.clash(try ServerName("prod"), for: Fixtures.otherServer, among: entries) == nil)
        let clash = try #require(ServerName.clash(demo, for: Fixtures.otherServer, among: entries))
        #expect(clash.code == .usage)
        #expect(
            clash.message
                == "\(Fixtures.server) has the name demo; give another, or rename it: `server set demo --name NEW`.")
    }

    @Test("the registry's entry keeps its name, and one without a name writes none")
    func coded() throws {
        let named = try Self.named(Self.demo, "demo")
        let data = try JSONEncoder().encode(named)
        #expect(String(decoding: data, as: UTF8.self).contains(#""name":"demo""#))
        #expect(try JSONDecoder().decode(ServerEntry.self, from: data).name == ServerName("demo"))
        #expect(!String(decoding: try JSONEncoder().encode(Self.demo), as: UTF8.self).contains(#""name""#))
    }
}
