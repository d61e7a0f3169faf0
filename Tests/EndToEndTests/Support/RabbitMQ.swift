import Foundation
import Testing

/// Debian's RabbitMQ 3.10 with its management plugin, as Tests/Fixtures/rabbitmq/start sets it up: the management
/// HTTP API, which takes HTTP Basic on every request (no token, no logout), with ana (`Passw0rd!`, tag management) and
/// admin, no guest, and the queues queue-01 … queue-25 in vhost `/`, which GET /api/queues?page=N&page_size=M pages
/// (`page`, `page_count`, `item_count`, `total_count` and `items`; a page past the last is a 400).
struct RabbitMQ: Sendable {
    /// `http://HOST:PORT`, the management API's.
    let origin: String
    /// The folder the start script keeps the node's config, database and logs in.
    let folder: URL

    /// The administrator `admin`'s password, for the server's side of a test.
    static let adminPassword = "admin-Passw0rd!"

    static var fixtures: URL { Project.root.appending(path: "Tests/Fixtures/rabbitmq") }

    /// The names of the users RabbitMQ has, as admin sees them (GET /api/users): admin and ana unless something
    /// made others.
    func users() async throws -> [String] {
        let (status, answer) = try await adminGet("/api/users")
        guard status == 200, let users = answer as? [[String: Any]] else {
            throw SupportFailure("RabbitMQ answered GET /api/users with \(status): \(answer)")
        }
        return users.compactMap { $0["name"] as? String }
    }

    /// The status and JSON document of a GET of the management API's `path` as admin.
    func adminGet(_ path: String) async throws -> (Int, Any) {
        let result = try await curl(["-u", "admin:\(Self.adminPassword)", "-w", "\n%{http_code}", origin + path])
        guard let newline = result.stdout.lastIndex(of: "\n"), let status = Int(result.stdout[newline...].dropFirst())
        else { throw SupportFailure("curl to RabbitMQ: \(result)") }
        let body = Data(result.stdout[..<newline].utf8)
        return (status, try JSONSerialization.jsonObject(with: body, options: .fragmentsAllowed))
    }
}

/// Runs `body` with a fresh RabbitMQ node whose management API listens on a loopback address of its own, and stops
/// the node afterwards.
func withRabbitMQ<Result: Sendable>(_ body: (RabbitMQ) async throws -> Result) async throws -> Result {
    let folder = FileManager.default.temporaryDirectory.appending(path: "swaggerctl-rabbitmq-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = folder.appending(path: "start.log")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let environment = [
        "PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": folder.path, "RABBITMQ_HOST": privateLoopbackHost(),
    ]
    do {
        return try await withChildProcess(
            RabbitMQ.fixtures.appending(path: "start"), [folder.appending(path: "server").path],
            environment: environment, log: log
        ) { lines in
            guard lines[0].hasPrefix("listening on ") else { throw SupportFailure("RabbitMQ printed \(lines[0])") }
            return try await body(
                RabbitMQ(
                    origin: String(lines[0].dropFirst("listening on ".count)),
                    folder: folder.appending(path: "server")))
        }
    } catch let failure as StartFailure {
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let logs = folder.appending(path: "server/log")
        let nodeLog =
            (try? FileManager.default.contentsOfDirectory(atPath: logs.path))?
            .first { $0.hasSuffix("@localhost.log") }
            .flatMap { try? String(contentsOf: logs.appending(path: $0), encoding: .utf8) } ?? ""
        throw SupportFailure("RabbitMQ: \(failure); its log: \(said.suffix(1000)) \(nodeLog.suffix(1500))")
    }
}
