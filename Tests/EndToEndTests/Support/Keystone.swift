import Foundation
import Testing

/// Debian's OpenStack Keystone (identity API v3, fernet tokens), as Tests/Fixtures/keystone/start sets it up: ana
/// (`Passw0rd!`, ana@example.com) with the role `member` on the project `demo` of the domain `Default`, the admin
/// (`admin`, `admin-Passw0rd!`), and 26 users in all, of which GET /v3/users shows 10 with `"truncated": true`.
struct Keystone: Sendable {
    /// `http://HOST:PORT`, where GET / answers 300 with the versions.
    let root: String
    /// The folder the start script keeps Keystone's files in.
    let folder: URL
    /// The identity endpoint, what a person gives as the auth URL (Keystone's guide: `OS_AUTH_URL=http://…:5000/v3`):
    /// `http://HOST:PORT/v3`.
    var origin: String { root + "/v3" }

    static var fixtures: URL { Project.root.appending(path: "Tests/Fixtures/keystone") }

    /// The database, for what the API does not say.
    var database: URL { folder.appending(path: "keystone.db") }

    /// A system-scoped token of the admin, made by the start script, good for an hour.
    func adminToken() throws -> String {
        try String(contentsOf: folder.appending(path: "admin-token"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether Keystone still takes `token`: GET /v3/auth/tokens as the admin answers 200, and 404 once it is revoked
    /// or expired.
    func isValid(_ token: String) async throws -> Bool {
        let status = try await validation(token).status
        switch status {
        case 200: return true
        case 404: return false
        default: throw SupportFailure("GET /v3/auth/tokens answered \(status)")
        }
    }

    /// Keystone's validation of `token` (GET /v3/auth/tokens with the admin's token in X-Auth-Token and `token` in
    /// X-Subject-Token): the status, and the body's `token` object when it is valid.
    func validation(_ token: String) async throws -> (status: Int, token: [String: Any]?) {
        let result = try await curl([
            "-w", "\n%{http_code}", "-H", "X-Auth-Token: \(try adminToken())", "-H", "X-Subject-Token: \(token)",
            origin + "/auth/tokens",
        ])
        guard let split = result.stdout.lastIndex(of: "\n"), let status = Int(result.stdout[split...].dropFirst())
        else { throw SupportFailure("curl: \(result)") }
        let body = Data(result.stdout[..<split].utf8)
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        return (status, status == 200 ? object?["token"] as? [String: Any] : nil)
    }

    /// How many users Keystone has, from its database: GET /v3/users stops at list_limit (10).
    func userCount() async throws -> Int {
        let answer = try await sqlite("SELECT count(*) FROM user")
        return try #require(Int(answer), "sqlite3 printed \(answer)")
    }

    /// How many revocations Keystone has recorded, one for each token it was asked to revoke: its tokens are fernet
    /// tokens, kept nowhere, so a revoked one is known by its event.
    func revocationEvents() async throws -> Int {
        let answer = try await sqlite("SELECT count(*) FROM revocation_event")
        return try #require(Int(answer), "sqlite3 printed \(answer)")
    }

    /// The id of the user `name` of the domain `Default`, from the database.
    func userID(named name: String) async throws -> String {
        let quoted = name.replacingOccurrences(of: "'", with: "''")
        let answer = try await sqlite(
            "SELECT user_id FROM local_user WHERE domain_id = 'default' AND name = '\(quoted)'")
        guard !answer.isEmpty else { throw SupportFailure("Keystone has no user \(name)") }
        return answer
    }

    /// What Debian's sqlite3 prints for `query` on Keystone's database, trimmed.
    private func sqlite(_ query: String) async throws -> String {
        let result = try await runProgram(
            URL(filePath: "/usr/bin/sqlite3"), [database.path, query], environment: ["PATH": "/usr/bin:/bin"])
        guard result.status == 0 else { throw SupportFailure("sqlite3: \(result)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Runs `body` with a fresh Keystone on a loopback address of its own, and stops it afterwards.
func withKeystone<Result: Sendable>(_ body: (Keystone) async throws -> Result) async throws -> Result {
    let folder = FileManager.default.temporaryDirectory.appending(path: "swaggerctl-keystone-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = folder.appending(path: "start.log")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let environment = [
        "PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": folder.path, "KEYSTONE_HOST": privateLoopbackHost(),
    ]
    let server = folder.appending(path: "server")
    do {
        return try await withChildProcess(
            Keystone.fixtures.appending(path: "start"), [server.path], environment: environment, log: log
        ) { lines in
            guard lines[0].hasPrefix("listening on ") else { throw SupportFailure("keystone printed \(lines[0])") }
            return try await body(Keystone(root: String(lines[0].dropFirst("listening on ".count)), folder: server))
        }
    } catch let failure as StartFailure {
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        throw SupportFailure("keystone: \(failure); its log: \(said.suffix(2000))")
    }
}
