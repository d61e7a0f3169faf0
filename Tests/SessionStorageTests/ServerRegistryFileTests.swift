import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SessionStorage

/// The registry is read from JSON values rather than through `Decodable`: what it writes, it reads back whole.
@Suite("ServerRegistry's file: every member read back, damage kept, another version refused", .timeLimit(.minutes(5)))
struct ServerRegistryFileTests {
    let temporary: TemporaryDirectory
    let registry: ServerRegistry

    init() throws {
        temporary = try TemporaryDirectory()
        registry = ServerRegistry(directory: temporary.appending("swaggerctl"))
    }

    static func full() throws -> ServerEntry {
        let copy = try #require(URL(string: "http://127.0.0.1:8080/api/openapi.yaml"))
        var entry = ServerEntry(
            server: Fixtures.server, description: Fixtures.original(Fixtures.server),
            sources: ["login": "preset original", "profile": "given"],
            document: DocumentCopy(
                url: copy, etag: "\"v1\"",
                lastModified: "Tue, 01 Dec 2026 10:00:00 GMT", fetchedAt: Fixtures.savedAt.addingTimeInterval(0.25),
                file: "0123456789abcdef.openapi"),
            updatedAt: Fixtures.savedAt.addingTimeInterval(0.5))
        entry.name = try ServerName("demo")
        entry.appID = "app-7"
        entry.caCertificate = "/etc/ssl/private-ca.pem"
        entry.announce = [Fixtures.otherServer]
        return entry
    }

    @Test("an entry with every member is read back as it was saved, as Decodable reads it too")
    func everyMember() throws {
        let entry = try Self.full()
        try registry.save(entry, current: true, naming: NameRequest(try ServerName("demo"), rename: false))
        let (current, entries) = try registry.contents()
        #expect(current == Fixtures.server)
        #expect(entries == [entry])
        let kept = try JSONEncoder.swaggerctl.encode(entry)
        #expect(try JSONDecoder.swaggerctl.decode(ServerEntry.self, from: kept) == entry)
    }

    @Test("an entry that cannot be read is kept as it was, beside the others, while another is saved")
    func damagedEntry() throws {
        try registry.save(Self.full())
        let path = URL(filePath: registry.path)
        let text = try String(contentsOf: path, encoding: .utf8)
        // A date the registry never writes, in an entry for another server.
        let damaged = #"{"server": "https://api.example.com/v2", "description": {}, "updatedAt": 5}"#
        let edited = text.replacingOccurrences(of: #""servers" : ["#, with: #""servers" : ["# + damaged + ",")
        try Data(edited.utf8).write(to: path)
        #expect(try registry.contents().entries.map(\.server) == [Fixtures.server])
        #expect(try registry.damaged() == [Fixtures.otherServer])
        var changed = try Self.full()
        changed.appID = "app-8"
        try registry.save(changed)
        #expect(try registry.entry(for: Fixtures.server)?.appID == "app-8")
        let after = try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as? [String: Any]
        let servers = (after?["content"] as? [String: Any])?["servers"] as? [[String: Any]]
        #expect(servers?.contains { $0["updatedAt"] as? Int == 5 } == true)
    }

    @Test(
        "a file that is not the registry, or of another version, is refused by name and left as it is",
        arguments: [
            (#"{"version": 2, "content": {"servers": []}}"#, "format version 2"),
            (#"{"content": {"servers": []}}"#, "is not a swaggerctl server registry"),
            ("[1, 2", "is not a swaggerctl server registry"),
            (#"{"version": 1, "content": {"servers": {}}}"#, "its content is damaged"),
        ])
    func refused(text: String, reason: String) throws {
        try registry.save(Self.full())
        let path = URL(filePath: registry.path)
        try Data(text.utf8).write(to: path)
        let error = try #require(throws: SwaggerError.self) { try registry.contents() }
        #expect(error.message.contains(reason))
        #expect(error.message.contains(registry.path))
        #expect(throws: SwaggerError.self) { try registry.save(Self.full()) }
        #expect(try String(contentsOf: path, encoding: .utf8) == text)
    }
}
