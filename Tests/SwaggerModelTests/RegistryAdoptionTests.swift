import Foundation
import SwaggerModel
import TestSupport
import Testing

@Suite("RegistryAdoption: what the registry takes in from records written before it")
struct RegistryAdoptionTests {
    /// `record` as a record written before the registry reads: with its server's description, in the old words.
    static func legacy(_ record: SessionRecord) throws -> SessionRecord {
        var json = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? [String: Any])
        json["dialect"] = ["kind": "original"]
        return try JSONDecoder().decode(SessionRecord.self, from: JSONSerialization.data(withJSONObject: json))
    }

    static let other = Account(server: "https://other.example.com", name: "ivo@example.com")

    @Test("each server only old records describe gets an entry, from its most recent record, and becomes current")
    func adopted() throws {
        let newest = try Self.legacy(Fixtures.record(Fixtures.ana, description: .some(nil)))
        let older = try Self.legacy(Fixtures.record(Fixtures.ivo, description: .some(nil)))
        let elsewhere = try Self.legacy(Fixtures.record(Self.other, description: .some(nil)))
        let adoption = RegistryAdoption([newest, older, elsewhere], into: [], current: nil, file: "sessions.json")
        #expect(adoption.entries.map(\.server) == [Fixtures.server, Self.other.server])
        #expect(adoption.entries.first?.sources == ["login": "sessions.json"])
        #expect(adoption.entries.first?.updatedAt == newest.savedAt)
        #expect(adoption.current == Fixtures.server)
    }

    @Test("a server the registry has, a current server it names, and a record in today's words adopt nothing")
    func nothing() throws {
        let old = try Self.legacy(Fixtures.record(Fixtures.ana, description: .some(nil)))
        let entry = ServerEntry(server: Fixtures.server, description: Fixtures.original(), updatedAt: Fixtures.savedAt)
        let known = RegistryAdoption([old], into: [entry], current: Fixtures.server, file: "sessions.json")
        #expect(known.isEmpty)
        let today = RegistryAdoption(
            [Fixtures.record(Fixtures.ana, description: .some(nil))], into: [entry], current: Fixtures.server,
            file: "sessions.json")
        #expect(today.isEmpty)
    }
}
