import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SessionStorage

@Suite("SessionList: the list of stored sessions in sessions.json", .timeLimit(.minutes(5)))
struct SessionListTests {
    /// A record as the session list keeps it: its server's description is the registry's, never the list's.
    static func record(
        _ account: Account, appID: String = "swaggerctl-demo", username: String? = nil,
        savedAt: Date = Fixtures.savedAt, expiresAt: Date? = nil, backend: BackendKind = .file
    ) -> SessionRecord {
        Fixtures.record(
            account, appID: appID, username: username, savedAt: savedAt, expiresAt: expiresAt, backend: backend,
            description: .some(nil))
    }

    let temporary: TemporaryDirectory
    let folder: URL
    let index: SessionList
    var sessionsFile: URL { folder.appending(path: "sessions.json") }

    init() throws {
        temporary = try TemporaryDirectory()
        folder = temporary.appending("swaggerctl")
        index = SessionList(directory: folder)
    }

    static let otherAna = Account(server: Fixtures.otherServer, name: "ana@example.com")

    @Test("an index with no file is empty and creates nothing")
    func empty() throws {
        #expect(try index.records() == [])
        #expect(try index.record(server: Fixtures.server) == nil)
        #expect(try index.remove(Fixtures.ana) == false)
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test("records() lists every session, newest first, with every field kept")
    func records() throws {
        let old = Self.record(Fixtures.ana, appID: "app-1", username: "ana", savedAt: Fixtures.savedAt)
        let new = Self.record(
            Fixtures.ivo, appID: "app-2", savedAt: Fixtures.savedAt.addingTimeInterval(120),
            expiresAt: Fixtures.savedAt.addingTimeInterval(3600))
        let middle = Self.record(Self.otherAna, savedAt: Fixtures.savedAt.addingTimeInterval(60))
        try index.save(old)
        try index.save(new)
        try index.save(middle)

        #expect(try index.records() == [new, middle, old])
        #expect(try SessionList(directory: folder).records() == [new, middle, old])
    }

    @Test("record(server:) without an e-mail is the newest session on that server")
    func newestOnServer() throws {
        try index.save(Self.record(Fixtures.ivo, savedAt: Fixtures.savedAt.addingTimeInterval(10)))
        try index.save(Self.record(Fixtures.ana, savedAt: Fixtures.savedAt.addingTimeInterval(20)))
        // The newest overall is on another server and does not count.
        try index.save(Self.record(Self.otherAna, savedAt: Fixtures.savedAt.addingTimeInterval(30)))
        try index.save(
            Self.record(
                Account(server: Fixtures.server, name: "old@example.com"), savedAt: Fixtures.savedAt))

        #expect(try index.record(server: Fixtures.server)?.account == Fixtures.ana)
        #expect(try index.record(server: Fixtures.otherServer)?.account == Self.otherAna)
        #expect(try index.record(server: Fixtures.serverURL("https://unknown.example/api")) == nil)
    }

    @Test("record(server:email:) is exactly that account's session, however old")
    func exactAccount() throws {
        try index.save(Self.record(Fixtures.ivo, appID: "ivo-app", savedAt: Fixtures.savedAt))
        try index.save(
            Self.record(Fixtures.ana, appID: "ana-app", savedAt: Fixtures.savedAt.addingTimeInterval(60)))
        try index.save(Self.record(Self.otherAna, appID: "other", savedAt: Fixtures.savedAt.addingTimeInterval(90)))

        #expect(try index.record(server: Fixtures.server, name: "ivo@example.com")?.appID == "ivo-app")
        #expect(try index.record(server: Fixtures.server, name: "ana@example.com")?.appID == "ana-app")
        #expect(try index.record(server: Fixtures.otherServer, name: "ana@example.com")?.appID == "other")
        #expect(try index.record(server: Fixtures.otherServer, name: "ivo@example.com") == nil)
    }

    @Test("the newest session wins even when two were saved within the same second")
    func sameSecond() throws {
        let second = Fixtures.savedAt
        try index.save(Self.record(Fixtures.ana, savedAt: second.addingTimeInterval(0.2)))
        try index.save(Self.record(Fixtures.ivo, savedAt: second.addingTimeInterval(0.7)))

        #expect(try index.record(server: Fixtures.server)?.account == Fixtures.ivo)
        #expect(try index.records().map(\.account) == [Fixtures.ivo, Fixtures.ana])
    }

    @Test("save replaces the record for the same account")
    func saveReplaces() throws {
        try index.save(Self.record(Fixtures.ana, appID: "first", savedAt: Fixtures.savedAt))
        try index.save(Self.record(Fixtures.ivo, savedAt: Fixtures.savedAt.addingTimeInterval(30)))
        let replacement = Self.record(
            Fixtures.ana, appID: "second", username: "ana", savedAt: Fixtures.savedAt.addingTimeInterval(60))
        try index.save(replacement)

        let records = try index.records()
        #expect(records.count == 2)
        #expect(records.first == replacement)
        #expect(records.filter { $0.account == Fixtures.ana } == [replacement])
    }

    @Test("remove forgets one account and reports whether it was there")
    func remove() throws {
        try index.save(Self.record(Fixtures.ana))
        try index.save(Self.record(Fixtures.ivo))

        #expect(try index.remove(Fixtures.ana) == true)
        #expect(try index.remove(Fixtures.ana) == false)
        #expect(try index.remove(Self.otherAna) == false)
        #expect(try index.records().map(\.account) == [Fixtures.ivo])
    }

    @Test("the folder is 0700, sessions.json is 0600, and no temporary files are left")
    func permissionsAndNoTemporaryFiles() throws {
        for offset in 0..<5 {
            try index.save(Self.record(Fixtures.ana, savedAt: Fixtures.savedAt.addingTimeInterval(Double(offset))))
        }
        try index.save(Self.record(Fixtures.ivo))
        try index.remove(Fixtures.ivo)

        let manager = FileManager.default
        #expect(try manager.posixPermissions(folder) == 0o700)
        #expect(try manager.posixPermissions(sessionsFile) == 0o600)
        #expect(try manager.names(in: folder) == ["sessions.json", ".sessions.json.lock"])
        #expect(index.path == sessionsFile.path)
    }

    @Test("a pre-existing 0755 folder is tightened to 0700")
    func tightens() throws {
        let manager = FileManager.default
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)

        try index.save(Self.record(Fixtures.ana))
        #expect(try manager.posixPermissions(folder) == 0o700)
    }

    @Test(
        "an unreadable sessions.json stops reads and writes with a message naming it, and is left untouched",
        arguments: ["not json", #"{"version": 99, "content": []}"#, #"{"version": 1, "content": {"server": 1}}"#])
    func corrupt(contents: String) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(contents.utf8).writePrivately(to: sessionsFile)
        let path = sessionsFile.path

        let readError = #expect(throws: SwaggerError.self) { try index.records() }
        #expect(readError?.message.contains(path) == true)
        let saveError = #expect(throws: SwaggerError.self) { try index.save(Self.record(Fixtures.ana)) }
        #expect(saveError?.message.contains(path) == true)
        let removeError = #expect(throws: SwaggerError.self) { try index.remove(Fixtures.ana) }
        #expect(removeError?.message.contains(path) == true)

        #expect(try Data(contentsOf: sessionsFile) == Data(contents.utf8))
    }

    @Test("a record that cannot be read is kept as it is, affects no other, and is removed with its account")
    func damagedRecord() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let damaged = #"{"server":"\#(Fixtures.server)","email":"old@example.com","savedAt":"-4712-01-01T00:00:00Z"}"#
        let nameless = #"{"server":1}"#
        try Data(#"{"version": 1, "content": [\#(damaged), \#(nameless)]}"#.utf8).writePrivately(to: sessionsFile)

        #expect(try index.records().isEmpty)
        #expect(try index.damaged() == [Account(server: Fixtures.server, name: "old@example.com"), nil])
        try index.save(Self.record(Fixtures.ana))
        #expect(try index.records().map(\.name) == ["ana@example.com"])
        #expect(try index.damaged().count == 2, "rewriting the file keeps what it cannot read")
        let text = try String(contentsOf: sessionsFile, encoding: .utf8)
        #expect(text.contains("-4712-01-01T00:00:00Z") && text.contains(#""server" : 1"#))

        #expect(try index.remove(Account(server: Fixtures.server, name: "old@example.com")))
        #expect(try index.damaged() == [nil])
        #expect(try index.records().map(\.name) == ["ana@example.com"])
    }

    @Test("50 concurrent saves keep every session")
    func concurrentSaves() async throws {
        let folder = self.folder
        try await withThrowingTaskGroup(of: Void.self) { group in
            for offset in 0..<50 {
                group.addTask {
                    try SessionList(directory: folder).save(
                        Self.record(
                            Account(server: Fixtures.server, name: "user\(offset)@example.com"),
                            savedAt: Fixtures.savedAt.addingTimeInterval(Double(offset))))
                }
            }
            try await group.waitForAll()
        }

        #expect(try index.records().map(\.name) == (0..<50).reversed().map { "user\($0)@example.com" })
    }

    @Test("checkWritable tries the list without changing it: same file, no temporary left; a damaged list fails it")
    func checkWritable() throws {
        try index.save(Self.record(Fixtures.ana, savedAt: Fixtures.savedAt))
        let before = try FileManager.default.attributesOfItem(atPath: sessionsFile.path)
        try index.checkWritable()
        let after = try FileManager.default.attributesOfItem(atPath: sessionsFile.path)
        #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") } == [])

        try Data("not a list".utf8).writePrivately(to: sessionsFile)
        #expect(throws: SwaggerError.self) { try index.checkWritable() }
        #expect(try String(contentsOf: sessionsFile, encoding: .utf8) == "not a list")
    }
}
