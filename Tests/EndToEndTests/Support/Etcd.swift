import Foundation
import Testing

/// Debian's etcd 3.4, one member with authentication on, as Tests/Fixtures/etcd/start sets it up: ana (`Passw0rd!`),
/// who may read and write the keys under `items/` (items/01 … items/25 are there), and root. Its JSON gateway is at
/// `origin + "/v3/…"`: every call is a POST of a JSON body, keys and values in base64; a login is
/// POST /v3/auth/authenticate, whose simple token goes bare in `Authorization`, and lives until it has gone unused
/// for the TTL (there is no logout).
struct Etcd: Sendable {
    /// `http://HOST:PORT`, the member's client URL.
    let origin: String
    /// The folder the start script keeps etcd's data and log in.
    let folder: URL

    static let rootPassword = "root-Passw0rd!"

    static var fixtures: URL { Project.root.appending(path: "Tests/Fixtures/etcd") }

    /// Whether etcd still takes `token`, as a range of items/01, which ana and root may read, shows: refused with
    /// 401 (`etcdserver: invalid auth token`) once it has expired or was never issued.
    func isValid(_ token: String) async throws -> Bool {
        let (status, answer) = try await call(
            "/v3/kv/range", ["key": base64("items/01"), "count_only": true], token: token)
        switch status {
        case 200: return true
        case 401: return false
        default: throw SupportFailure("etcd answered a range with \(status): \(answer)")
        }
    }

    /// The names of the users etcd has, as root sees them: ana and root unless a test made others.
    func users() async throws -> [String] {
        let (status, answer) = try await call("/v3/auth/user/list", [:], token: try await token(for: "root"))
        guard status == 200 else { throw SupportFailure("etcd answered the user list with \(status): \(answer)") }
        return answer["users"] as? [String] ?? []
    }

    /// A fresh token of `user` (`ana` or `root`), from POST /v3/auth/authenticate.
    func token(for user: String) async throws -> String {
        let password = user == "root" ? Etcd.rootPassword : "Passw0rd!"
        let (status, answer) = try await call("/v3/auth/authenticate", ["name": user, "password": password])
        guard status == 200, let token = answer["token"] as? String else {
            throw SupportFailure("etcd refused \(user)'s login with \(status): \(answer)")
        }
        return token
    }

    /// The status and JSON object of a POST of `body` to the gateway's `path`, with `token` if given.
    func call(_ path: String, _ body: [String: Any], token: String? = nil) async throws -> (Int, [String: Any]) {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        let result = try await curl(
            (token.map { ["-H", "Authorization: \($0)"] } ?? [])
                + ["-w", "\n%{http_code}", "-X", "POST", "--data-binary", json, origin + path])
        guard let newline = result.stdout.lastIndex(of: "\n"), let status = Int(result.stdout[newline...].dropFirst())
        else { throw SupportFailure("curl to etcd: \(result)") }
        let answer = try JSONSerialization.jsonObject(with: Data(result.stdout[..<newline].utf8)) as? [String: Any]
        return (status, try #require(answer, "\(result)"))
    }

    /// A key or value as the gateway spells it.
    func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
}

/// Runs `body` with a fresh etcd on a loopback address of its own, and stops it afterwards; simple tokens live
/// `tokenTTL` seconds unused (etcd's default, 300, unless given).
func withEtcd<Result: Sendable>(tokenTTL: Int? = nil, _ body: (Etcd) async throws -> Result) async throws -> Result {
    let folder = FileManager.default.temporaryDirectory.appending(path: "swaggerctl-etcd-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = folder.appending(path: "start.log")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var environment = [
        "PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": folder.path, "ETCD_HOST": privateLoopbackHost(),
    ]
    environment["ETCD_TOKEN_TTL"] = tokenTTL.map(String.init)
    do {
        return try await withChildProcess(
            Etcd.fixtures.appending(path: "start"), [folder.appending(path: "server").path],
            environment: environment, log: log
        ) { lines in
            guard lines[0].hasPrefix("listening on ") else { throw SupportFailure("etcd printed \(lines[0])") }
            return try await body(
                Etcd(
                    origin: String(lines[0].dropFirst("listening on ".count)),
                    folder: folder.appending(path: "server")))
        }
    } catch let failure as StartFailure {
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let etcdLog = (try? String(contentsOf: folder.appending(path: "server/etcd.log"), encoding: .utf8)) ?? ""
        throw SupportFailure("etcd: \(failure); its log: \(said.suffix(1000)) \(etcdLog.suffix(1000))")
    }
}
