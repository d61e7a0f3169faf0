import DemoServer
import Foundation
import Hummingbird
import SwaggerAPI
import Testing

@Suite("AccountDirectory seeds", .timeLimit(.minutes(5)))
struct AccountDirectoryTests {
    /// The extra fields of `alice`'s profile.
    struct AliceExtras: Decodable, Equatable {
        struct Team: Decodable, Equatable {
            var name: String
            var floor: Int
        }

        var team: Team
    }

    static let aliceProfileJSON = #"""
        {"id": 7, "name": "Alice", "email": "alice@example.com", "team": {"name": "Ops", "floor": 3}}
        """#

    static func seeds() throws -> [AccountDirectory.Seed] {
        let profile = try JSONDecoder().decode(Components.Schemas.User.self, from: Data(aliceProfileJSON.utf8))
        return [
            AccountDirectory.Seed(email: "alice@example.com", password: "alice-secret", profile: profile),
            AccountDirectory.Seed(email: "Bob@Example.com", password: "bob-secret", profile: nil),
        ]
    }

    @Test("each seeded account signs in with its own password and not with the other's")
    func seededPasswords() async throws {
        let server = try await TestServer.make(seeds: try Self.seeds())
        let attempts: [(email: String, password: String, status: HTTPResponse.Status)] = [
            ("alice@example.com", "alice-secret", .ok),
            ("bob@example.com", "bob-secret", .ok),
            ("alice@example.com", "bob-secret", .unauthorized),
            ("bob@example.com", "alice-secret", .unauthorized),
            (AccountDirectory.demoEmail, AccountDirectory.demoPassword, .ok),  // added to seeds that lack it
        ]
        try await server.run { client in
            for attempt in attempts {
                let status = try await client.login(email: attempt.email, password: attempt.password).status
                #expect(status == attempt.status, "\(attempt.email) with \(attempt.password)")
            }
        }
    }

    @Test("a seeded profile is served as given, extra nested fields included")
    func seededProfile() async throws {
        let server = try await TestServer.make(seeds: try Self.seeds())
        try await server.run { client in
            let token = try await client.accessToken(email: "alice@example.com", password: "alice-secret")
            let response = try await client.getUser(authorization: "Bearer \(token)")
            #expect(response.status == .ok)
            let user = try response.decode(Components.Schemas.User.self)
            #expect(user.id == 7)
            #expect(user.name == "Alice")
            #expect(user.email == "alice@example.com")
            #expect(
                try reencode(user.additionalProperties, as: AliceExtras.self)
                    == AliceExtras(team: .init(name: "Ops", floor: 3)))
        }
    }

    @Test("a seed without a profile gets one holding only its e-mail")
    func seedWithoutProfile() async throws {
        let server = try await TestServer.make(seeds: try Self.seeds())
        try await server.run { client in
            let token = try await client.accessToken(email: "bob@example.com", password: "bob-secret")
            let response = try await client.getUser(authorization: "Bearer \(token)")
            #expect(response.status == .ok)
            let user = try response.decode(Components.Schemas.User.self)
            #expect(user == Components.Schemas.User(email: "Bob@Example.com"))
        }
    }

    @Test("a seed can replace the demo account's password")
    func seedReplacesDemoAccount() async throws {
        let seed = AccountDirectory.Seed(email: "Demo@Example.com", password: "changed")
        let server = try await TestServer.make(seeds: [seed])
        try await server.run { client in
            let withNewPassword = try await client.login(password: "changed").status
            let withDemoPassword = try await client.login().status
            #expect(withNewPassword == .ok)
            #expect(withDemoPassword == .unauthorized)
        }
    }

    @Test("seeds(from:) reads a JSON users file")
    func readsUsersFile() throws {
        let file = try Self.temporaryFile(
            contents: #"""
                [
                  {"email": "alice@example.com", "password": "alice-secret", "profile": \#(Self.aliceProfileJSON)},
                  {"email": "bob@example.com", "password": "bob-secret"}
                ]
                """#)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }

        let seeds = try AccountDirectory.seeds(from: file)
        #expect(seeds.map(\.email) == ["alice@example.com", "bob@example.com"])
        #expect(seeds.map(\.password) == ["alice-secret", "bob-secret"])
        let alice = try JSONDecoder().decode(
            Components.Schemas.User.self, from: try #require(seeds.first?.profile))
        #expect(alice.name == "Alice")
        #expect(
            try reencode(alice.additionalProperties, as: AliceExtras.self)
                == AliceExtras(team: .init(name: "Ops", floor: 3)))
        #expect(seeds.last?.profile == nil)
    }

    @Test(
        "seeds(from:) names the file when it cannot use it",
        arguments: [
            "[{\"email\": \"alice@example.com\"",
            #"[{"email": "alice@example.com"}]"#,
            #"{"email": "alice@example.com", "password": "x"}"#,
        ])
    func malformedUsersFile(contents: String) throws {
        let file = try Self.temporaryFile(contents: contents)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }

        let error = #expect(throws: (any Error).self) { try AccountDirectory.seeds(from: file) }
        let description = error.map { String(describing: $0) } ?? ""
        #expect(description.contains(file.path), "\(description)")
    }

    @Test("seeds(from:) names the file when it does not exist")
    func missingUsersFile() throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "missing-\(UUID().uuidString).json")
        let error = #expect(throws: (any Error).self) { try AccountDirectory.seeds(from: file) }
        let description = error.map { String(describing: $0) } ?? ""
        #expect(description.contains(file.path), "\(description)")
    }

    /// Writes `contents` to `users.json` in a new temporary directory.
    static func temporaryFile(contents: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(
            path: "SwaggerDemoServerTests-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appending(path: "users.json")
        try Data(contents.utf8).write(to: file)
        return file
    }
}
