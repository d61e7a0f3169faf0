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
        try registry.save(Self.entry(Fixtures.server, named: nil), naming: Self.request("demo"))
        #expect(try registry.entry(for: Fixtures.server)?.name == ServerName("demo"))
        #expect(try FileManager.default.posixPermissions(URL(filePath: registry.path)) == 0o600)
    }

    static func request(_ name: String, rename: Bool = false) throws -> NameRequest {
        NameRequest(try ServerName(name), rename: rename)
    }

    @Test("a name another server has is refused, and nothing is written")
    func clash() throws {
        try registry.save(Self.entry(Fixtures.server, named: nil), naming: Self.request("demo"))
        let before = try Data(contentsOf: URL(filePath: registry.path))
        let error = try #require(throws: SwaggerError.self) {
            try registry.save(Self.entry(Fixtures.otherServer, named: nil), naming: Self.request("demo"))
        }
        #expect(error.code == .usage)
        #expect(try Data(contentsOf: URL(filePath: registry.path)) == before)
        try registry.save(Self.entry(Fixtures.otherServer, named: nil))
        #expect(throws: SwaggerError.self) { try registry.name(Fixtures.otherServer, Self.request("demo")) }
        #expect(try registry.entry(for: Fixtures.otherServer)?.name == nil)
        #expect(try registry.name(Fixtures.server, Self.request("demo"))?.after == ServerName("demo"))
    }

    @Test("another name for a named server is refused without --rename, and nothing is written")
    func renameRefused() throws {
        try registry.save(Self.entry(Fixtures.server, named: nil), naming: Self.request("demo"))
        let before = try Data(contentsOf: URL(filePath: registry.path))
        #expect(throws: SwaggerError.self) { try registry.name(Fixtures.server, Self.request("local")) }
        #expect(throws: SwaggerError.self) {
            try registry.save(Self.entry(Fixtures.server, named: nil), naming: Self.request("local"))
        }
        #expect(try Data(contentsOf: URL(filePath: registry.path)) == before)
    }

    @Test("with --rename, a server is renamed, and a name moves from the server that had it")
    func renamed() throws {
        try registry.save(Self.entry(Fixtures.server, named: nil), naming: Self.request("demo"))
        try registry.save(Self.entry(Fixtures.otherServer, named: nil))
        let renamed = try registry.name(Fixtures.server, Self.request("local", rename: true))
        #expect(try renamed?.before == ServerName("demo") && renamed?.after == ServerName("local"))
        #expect(try registry.name(Fixtures.otherServer, Self.request("demo"))?.after == ServerName("demo"))
        let moved = try registry.save(
            Self.entry(Fixtures.server, named: nil), naming: Self.request("demo", rename: true))
        #expect(moved.takenFrom == Fixtures.otherServer)
        #expect(try registry.contents().entries.map { $0.name?.string } == ["demo", nil])
    }

    @Test("a save keeps the name the file has, whatever the entry saved says")
    func namesAreTheFiles() throws {
        try registry.save(Self.entry(Fixtures.server, named: nil), naming: Self.request("demo"))
        // An entry read before another command renamed its server, or one that names a server it should not.
        let read = try #require(try registry.entry(for: Fixtures.server))
        try registry.name(Fixtures.server, Self.request("local", rename: true))
        try registry.save(read)
        #expect(try registry.entry(for: Fixtures.server)?.name == ServerName("local"))
        try registry.save(Self.entry(Fixtures.otherServer, named: "local"))
        #expect(try registry.entry(for: Fixtures.otherServer)?.name == nil)
    }

    @Test("forgetting a server forgets its name")
    func forgotten() throws {
        try registry.save(Self.entry(Fixtures.server, named: nil), naming: Self.request("demo"))
        try registry.forget(Fixtures.server)
        try registry.save(Self.entry(Fixtures.otherServer, named: nil), naming: Self.request("demo"))
        #expect(try registry.entry(for: Fixtures.otherServer)?.name == ServerName("demo"))
    }
}
