import Foundation
import SessionMachine
import SessionStorage
import SwaggerClient
import SwaggerHTTP
import SwaggerModel
import TestSupport
import Testing

@Suite("Concurrent processes", .timeLimit(.minutes(15)))
struct ConcurrencyTests {
    @Test("20 concurrent logins to 20 accounts, from separate processes, leave all 20 sessions")
    func twentyLogins() async throws {
        let sandbox = try Sandbox()
        let accounts = (1...20).map { (email: "user\($0)@example.com", password: "password-\($0)") }
        let seeds = accounts.map { ["email": $0.email, "password": $0.password] }
        let usersFile = sandbox.root.appending(path: "users.json")
        try JSONSerialization.data(withJSONObject: seeds).write(to: usersFile)

        try await withDemoServer(["--users", usersFile.path]) { server in
            let results = try await withThrowingTaskGroup(of: CommandResult.self) { group in
                for account in accounts {
                    group.addTask {
                        try await sandbox.login(server.apiURL, email: account.email, password: account.password)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.allSatisfy { $0.status == 0 }, "\(results.filter { $0.status != 0 })")
            let emails = Set(try sandbox.sessions.records().map(\.name))
            #expect(emails == Set(accounts.map(\.email)))
            for account in accounts {
                let stored = try await sandbox.file.credentials(
                    for: Account(server: server.apiURL, name: account.email))
                #expect(stored != nil, "\(account.email)")
            }
            let status = try await sandbox.swaggerctl("status", "--format", "json")
            let listed = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [Any]
            #expect(listed?.count == 20)
        }
    }
}
