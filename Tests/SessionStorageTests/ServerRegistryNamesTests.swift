import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SessionStorage

@Suite("ServerRegistry: each name belongs to one server, kept with its entry", .timeLimit(.minutes(5)))
struct ServerRegistryNamesTests {
    let temporary: TemporaryDirectory
    let registry: ServerRegistry

    init() throws {
        temporary = try TemporaryDirectory()
        registry = ServerRegistry(directory: temporary.appending("swaggerctl"))
    }

    static func entry(_ server: ServerURL, named name: String?) throws -> ServerEntry {
        var entry = ServerEntry(server: server, description: Fixtures.original(server), updatedAt: Fixtures.savedAt)
        entry.name = try name.map { try ServerName($0) }
        return entry
    }

    @Test("a name is saved with its server, in the registry's private file")
    func saved() throws {
        try registry.save(Self.entry(Fixtures.server, named: "demo"))
        #expect(try registry.entry(for: Fixtures.server)?.name == ServerName("demo"))
        #expect(try FileManager.default.posixPermissions(URL(filePath: registry.path)) == 0o600)
    }

    @Test("a name another server has is refused, and nothing is written")
    func clash() throws {
        try registry.save(Self.entry(Fixtures.server, named: "demo"))
        let before = try Data(contentsOf: URL(filePath: registry.path))
        let error = try #require(throws: SwaggerError.self) {
            try registry.save(Self.entry(Fixtures.otherServer, named: "demo"))
        }
        #expect(error.code == .usage)
        #expect(try Data(contentsOf: URL(filePath: registry.path)) == before)
        try registry.save(Self.entry(Fixtures.otherServer, named: nil))
        #expect(throws: SwaggerError.self) { try registry.name(Fixtures.otherServer, ServerName("demo")) }
        #expect(try registry.entry(for: Fixtures.otherServer)?.name == nil)
        #expect(try registry.name(Fixtures.server, ServerName("demo")), "its own name is no clash")
    }

    @Test("naming a server again renames it, and frees its former name")
    func renamed() throws {
        try registry.save(Self.entry(Fixtures.server, named: "demo"))
        try registry.save(Self.entry(Fixtures.otherServer, named: nil))
        #expect(try registry.name(Fixtures.server, ServerName("local")))
        #expect(try registry.name(Fixtures.otherServer, ServerName("demo")))
        let names = try registry.contents().entries.map { $0.name?.string }
        #expect(names == ["local", "demo"])
    }

    @Test("forgetting a server forgets its name")
    func forgotten() throws {
        try registry.save(Self.entry(Fixtures.server, named: "demo"))
        try registry.forget(Fixtures.server)
        try registry.save(Self.entry(Fixtures.otherServer, named: "demo"))
        #expect(try registry.entry(for: Fixtures.otherServer)?.name == ServerName("demo"))
    }
}
