import Foundation
import SwaggerModel
import TestSupport
import Testing

@testable import SessionStorage

@Suite("FileBackend: tokens in a private, locked, atomically replaced file", .timeLimit(.minutes(5)))
struct FileBackendTests {
    let temporary: TemporaryDirectory
    /// The configuration folder, not created until the first write.
    let folder: URL
    let backend: FileBackend
    var credentialsFile: URL { folder.appending(path: "credentials.json") }

    init() throws {
        temporary = try TemporaryDirectory()
        folder = temporary.appending("config/swaggerctl")
        backend = FileBackend(directory: folder)
    }

    @Test("store, read and remove round-trip, per account")
    func roundTrip() async throws {
        let ana = Credentials(accessToken: "ana-access", refreshToken: "ana-refresh")
        let ivo = Credentials(accessToken: "ivo-access")
        let anaElsewhere = Account(server: Fixtures.otherServer, name: Fixtures.ana.name)

        #expect(try await backend.credentials(for: Fixtures.ana) == nil)
        try await backend.store(ana, for: Fixtures.ana)
        try await backend.store(ivo, for: Fixtures.ivo)

        #expect(try await backend.credentials(for: Fixtures.ana) == ana)
        #expect(try await backend.credentials(for: Fixtures.ivo) == ivo)
        #expect(try await backend.credentials(for: anaElsewhere) == nil)

        #expect(try await backend.removeCredentials(for: Fixtures.ana) == true)
        #expect(try await backend.credentials(for: Fixtures.ana) == nil)
        #expect(try await backend.credentials(for: Fixtures.ivo) == ivo)
    }

    @Test("a second store for the same account replaces the first")
    func replace() async throws {
        try await backend.store(Credentials(accessToken: "old", refreshToken: "old-refresh"), for: Fixtures.ana)
        try await backend.store(Credentials(accessToken: "new"), for: Fixtures.ana)

        #expect(try await backend.credentials(for: Fixtures.ana) == Credentials(accessToken: "new"))
        let text = try String(contentsOf: credentialsFile, encoding: .utf8)
        #expect(!text.contains("old"))
    }

    @Test("a new backend on the same folder reads what another one stored")
    func persistence() async throws {
        try await backend.store(Credentials(accessToken: "kept"), for: Fixtures.ana)

        let reopened = FileBackend(directory: folder)
        #expect(try await reopened.credentials(for: Fixtures.ana) == Credentials(accessToken: "kept"))
    }

    @Test("remove returns false when nothing is stored, with or without a file")
    func removeAbsent() async throws {
        #expect(try await backend.removeCredentials(for: Fixtures.ana) == false)
        #expect(!FileManager.default.fileExists(atPath: folder.path))

        try await backend.store(Credentials(accessToken: "ivo"), for: Fixtures.ivo)
        #expect(try await backend.removeCredentials(for: Fixtures.ana) == false)
        #expect(try await backend.removeCredentials(for: Fixtures.ivo) == true)
        #expect(try await backend.removeCredentials(for: Fixtures.ivo) == false)
    }

    @Test("kind and location name the file backend and the file's path")
    func kindAndLocation() {
        #expect(backend.kind == .file)
        #expect(backend.location == credentialsFile.path)
        #expect(FileBackend.fileName == "credentials.json")
    }

    @Test("the folder is created 0700, with its missing parents, and credentials.json is 0600")
    func permissions() async throws {
        try await backend.store(Credentials(accessToken: "t"), for: Fixtures.ana)

        let manager = FileManager.default
        #expect(try manager.posixPermissions(folder) == 0o700)
        #expect(try manager.posixPermissions(credentialsFile) == 0o600)
        #expect(try manager.posixPermissions(folder.appending(path: ".credentials.json.lock")) == 0o600)
    }

    @Test("a missing parent of the folder is created 0700 too, as PrivateDirectory.create() promises")
    func parentPermissions() async throws {
        try await backend.store(Credentials(accessToken: "t"), for: Fixtures.ana)

        #expect(try FileManager.default.posixPermissions(temporary.appending("config")) == 0o700)
    }

    @Test("a pre-existing 0755 folder is tightened to 0700; a 0644 file is refused, not used, and left as it is")
    func tightens() async throws {
        let manager = FileManager.default
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        #expect(try manager.posixPermissions(folder) == 0o755)

        try await backend.store(Credentials(accessToken: "t"), for: Fixtures.ana)
        #expect(try manager.posixPermissions(folder) == 0o700)

        try manager.setAttributes([.posixPermissions: 0o644], ofItemAtPath: credentialsFile.path)
        let contents = try Data(contentsOf: credentialsFile)
        let readError = await #expect(throws: SwaggerError.self) { try await backend.credentials(for: Fixtures.ana) }
        let storeError = await #expect(throws: SwaggerError.self) {
            try await backend.store(Credentials(accessToken: "u"), for: Fixtures.ivo)
        }
        for error in [readError, storeError] {
            #expect(error?.message.hasPrefix("\(credentialsFile.path) is open to others (mode 0644)") == true)
            #expect(error?.message.contains("`chmod 600` it") == true)
        }
        #expect(try manager.posixPermissions(credentialsFile) == 0o644)
        #expect(try Data(contentsOf: credentialsFile) == contents)
    }

    @Test("writes leave no temporary files: only credentials.json and its lock file")
    func noTemporaryFiles() async throws {
        for index in 0..<5 {
            try await backend.store(Credentials(accessToken: "t\(index)"), for: Fixtures.ana)
            try await backend.store(Credentials(accessToken: "u\(index)"), for: Fixtures.ivo)
        }
        _ = try await backend.removeCredentials(for: Fixtures.ivo)

        #expect(try FileManager.default.names(in: folder) == ["credentials.json", ".credentials.json.lock"])
    }

    @Test("the file is versioned JSON holding server, email and tokens")
    func fileFormat() async throws {
        try await backend.store(Credentials(accessToken: "acc", refreshToken: "ref"), for: Fixtures.ana)

        let data = try Data(contentsOf: credentialsFile)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        let entries = try #require(object["content"] as? [[String: String]])
        #expect(
            entries == [
                [
                    "server": Fixtures.server.string, "email": "ana@example.com", "accessToken": "acc",
                    "refreshToken": "ref",
                ]
            ])
    }

    @Test(
        "an unreadable credentials.json stops reads and writes with a message naming it, and is left untouched",
        arguments: [
            "not json", #"{"version": 99, "content": []}"#, #"{"version": 1, "content": {"not": "a list"}}"#,
            #"[{"server": "s", "email": "e", "accessToken": "t"}]"#, "",
        ])
    func corrupt(contents: String) async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(contents.utf8).writePrivately(to: credentialsFile)
        let path = credentialsFile.path

        let readError = await #expect(throws: SwaggerError.self) {
            try await backend.credentials(for: Fixtures.ana)
        }
        #expect(readError?.code == .failure)
        #expect(readError?.message.contains(path) == true)

        let storeError = await #expect(throws: SwaggerError.self) {
            try await backend.store(Credentials(accessToken: "new"), for: Fixtures.ana)
        }
        #expect(storeError?.code == .failure)
        #expect(storeError?.message.contains(path) == true)

        let removeError = await #expect(throws: SwaggerError.self) {
            try await backend.removeCredentials(for: Fixtures.ana)
        }
        #expect(removeError?.message.contains(path) == true)

        #expect(try Data(contentsOf: credentialsFile) == Data(contents.utf8))
    }

    @Test("a newer format version is named in the message")
    func newerVersion() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{"version": 99, "content": []}"#.utf8).writePrivately(to: credentialsFile)

        let error = await #expect(throws: SwaggerError.self) { try await backend.credentials(for: Fixtures.ana) }
        #expect(error?.message.contains("version 99") == true)
    }

    @Test(
        "the message says whether a file is not swaggerctl's, of another version, or damaged within",
        arguments: [
            (#"{"content": []}"#, "it is not a swaggerctl credentials file"),
            (#"{"version": "1", "content": []}"#, "it is not a swaggerctl credentials file"),
            (#"{"version": 2, "content": 7}"#, "it has format version 2, and this swaggerctl reads version 1"),
            (#"{"version": 1, "content": 7}"#, "its content is damaged"),
            (#"{"version": 1}"#, "its content is damaged"),
        ])
    func reasons(contents: String, reason: String) async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(contents.utf8).writePrivately(to: credentialsFile)

        let error = await #expect(throws: SwaggerError.self) { try await backend.credentials(for: Fixtures.ana) }
        #expect(error?.message.contains(": \(reason). It was left untouched") == true, "\(String(describing: error))")
    }

    @Test("50 concurrent stores into one backend keep every account")
    func concurrentStores() async throws {
        let backend = self.backend
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask {
                    try await backend.store(
                        Credentials(accessToken: "token-\(index)"),
                        for: Account(server: Fixtures.server, name: "user\(index)@example.com"))
                }
            }
            try await group.waitForAll()
        }

        #expect(try await Self.lost(in: backend, count: 50) == [])
        #expect(try FileManager.default.names(in: folder) == ["credentials.json", ".credentials.json.lock"])
    }

    @Test("50 concurrent stores through 50 separate keystores on one folder keep every account")
    func concurrentKeystores() async throws {
        let folder = self.folder
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask {
                    try await FileBackend(directory: folder).store(
                        Credentials(accessToken: "token-\(index)"),
                        for: Account(server: Fixtures.server, name: "user\(index)@example.com"))
                }
            }
            try await group.waitForAll()
        }

        #expect(try await Self.lost(in: backend, count: 50) == [])
    }

    @Test("a reader that takes no lock never sees a half-written file")
    func atomicReplace() async throws {
        let folder = self.folder
        let file = credentialsFile
        // A large document, so that writing it in place would take long enough to be seen half done.
        let token = String(repeating: "t", count: 4096)
        for index in 0..<100 {
            try await backend.store(
                Credentials(accessToken: token), for: Account(server: Fixtures.server, name: "seed\(index)@x"))
        }
        let torn = try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask {
                for round in 0..<60 {
                    try await FileBackend(directory: folder).store(
                        Credentials(accessToken: token + "\(round)"),
                        for: Account(server: Fixtures.server, name: "seed\(round % 100)@x"))
                }
                return 0
            }
            group.addTask {
                var torn = 0
                for _ in 0..<600 {
                    // Read the bytes directly, as `cat` or another program would, without the lock.
                    let data = try Data(contentsOf: file)
                    if (try? JSONSerialization.jsonObject(with: data)) == nil { torn += 1 }
                    await Task.yield()
                }
                return torn
            }
            return try await group.reduce(0, +)
        }
        #expect(torn == 0)
    }

    /// The indexes of the accounts `user<i>@example.com` whose token is not `token-<i>`.
    static func lost(in backend: FileBackend, count: Int) async throws -> [Int] {
        var lost: [Int] = []
        for index in 0..<count {
            let account = Account(server: Fixtures.server, name: "user\(index)@example.com")
            if try await backend.credentials(for: account) != Credentials(accessToken: "token-\(index)") {
                lost.append(index)
            }
        }
        return lost
    }
}
