import Foundation
import Testing

@Suite("Profiles as real servers send them", .timeLimit(.minutes(15)))
struct ProfileTests {
    static let profile = """
        {"id": 7, "name": null, "surname": "Šimić", "fullName": "Ivo Šimić", "imageId": 3, "adress": null,
         "oib": "12345678903", "email": "ivo@example.com", "statusId": null,
         "team": {"name": "支援", "lead": {"name": "Ana"}}, "tags": ["a", "b"], "vip": true}
        """

    @Test("nulls show as unknown, missing fields too, extras follow flattened, columns align by display width")
    func table() async throws {
        let sandbox = try Sandbox()
        try await FaultServer.run(profile: .init(body: Self.profile)) { url in
            let result = try await sandbox.login(url, email: "ivo@example.com", password: "pw")
            #expect(result.status == 0, "\(result)")
            #expect(
                result.stdout == """
                    ID              7
                    First name      unknown
                    Last name       Šimić
                    Full name       Ivo Šimić
                    Image ID        3
                    Address         unknown
                    Phone number    unknown
                    OIB             12345678903
                    E-mail          ivo@example.com
                    Status          unknown
                    tags            ["a","b"]
                    team.lead.name  Ana
                    team.name       支援
                    vip             true

                    """)
        }
    }

    @Test("--format json keeps every field, nulls and nested objects included")
    func json() async throws {
        let sandbox = try Sandbox()
        try await FaultServer.run(profile: .init(body: Self.profile)) { url in
            let login = try await sandbox.login(url, email: "ivo@example.com", password: "pw")
            try #require(login.status == 0, "\(login)")
            let result = try await sandbox.swaggerctl("details", "--format", "json")
            #expect(result.status == 0, "\(result)")
            let received = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? NSDictionary
            let sent = try JSONSerialization.jsonObject(with: Data(Self.profile.utf8)) as? NSDictionary
            #expect(received == sent)
            #expect(result.stdout.contains(#""adress": null"#))
        }
    }

    @Test("escape sequences from the server are shown, not obeyed")
    func controlCharacters() async throws {
        let sandbox = try Sandbox()
        try await FaultServer.run(profile: .init(body: #"{"name": "\u001b[31mred\u001b[0m"}"#)) { url in
            let result = try await sandbox.login(url, email: "a@example.com", password: "pw")
            #expect(result.status == 0, "\(result)")
            #expect(!result.stdout.contains("\u{1B}"))
            #expect(result.stdout.contains(#"First name    \u{1b}[31mred\u{1b}[0m"#))
        }
    }
}
