import Foundation
import Testing

/// Debian's glewlwyd, an OpenID Connect provider, as Tests/Fixtures/glewlwyd/start sets it up: ana, the public
/// client `swaggerctl` (code, device code, refresh), the confidential `swaggerctl-secret`, and `swaggerctl-key`, which
/// proves itself with assertions signed by its key.
struct Glewlwyd: Sendable {
    /// `http://HOST:PORT`.
    let origin: String
    /// The folder the start script keeps glewlwyd's files in.
    let folder: URL
    /// The OpenID Connect issuer, the address a person gives: `http://HOST:PORT/api/oidc`.
    var issuer: String { origin + "/api/oidc" }

    static var fixtures: URL { Project.root.appending(path: "Tests/Fixtures/glewlwyd") }

    /// The script that stands in for a person's browser at a device-code login: it approves the code as ana.
    static var browser: URL { fixtures.appending(path: "browser") }

    /// The private key of the client `swaggerctl-key`, as PEM.
    var clientKey: URL { folder.appending(path: "client-key.pem") }
    /// With TLS: the throwaway CA that issued glewlwyd's certificate and the client's.
    var authority: URL { folder.appending(path: "ca.pem") }
    /// With TLS: the certificate of the client `swaggerctl-cert`, and its private key.
    var clientCertificate: (certificate: URL, key: URL) {
        (folder.appending(path: "client-cert.pem"), folder.appending(path: "client-cert-key.pem"))
    }
    /// curl's options for glewlwyd's certificate.
    private var trust: [String] { origin.hasPrefix("https:") ? ["--cacert", authority.path] : [] }

    /// Whether glewlwyd holds `token` as alive, as its introspection endpoint (RFC 7662) says.
    func isActive(_ token: String) async throws -> Bool {
        let answer = try await introspect(token)
        return try #require(answer["active"] as? Bool, "\(answer)")
    }

    /// What glewlwyd's introspection endpoint (RFC 7662) says of `token`.
    func introspect(_ token: String) async throws -> [String: Any] {
        let result = try await curl(
            trust + ["-u", "swaggerctl-secret:s3cret", "-d", "token=\(token)", issuer + "/introspect"])
        return try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
    }

    /// The status of glewlwyd's userinfo endpoint for `token` sent in `Authorization` under `scheme`, with no proof.
    func userinfoStatus(_ token: String, scheme: String) async throws -> String {
        try await curl([
            "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: \(scheme) \(token)", issuer + "/userinfo",
        ])
        .stdout
    }
}

/// Runs `body` with a fresh glewlwyd whose device-code clients poll every second, and stops it afterwards; with `tls`,
/// serving HTTPS with a throwaway CA, and the client `swaggerctl-cert`.
func withGlewlwyd<Result: Sendable>(tls: Bool = false, _ body: (Glewlwyd) async throws -> Result) async throws
    -> Result
{
    let folder = FileManager.default.temporaryDirectory.appending(path: "swaggerctl-glewlwyd-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = folder.appending(path: "start.log")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let environment = [
        "PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": folder.path, "GLEWLWYD_HOST": privateLoopbackHost(),
        "GLEWLWYD_DEVICE_INTERVAL": "1", "GLEWLWYD_TLS": tls ? "1" : "",
    ]
    do {
        return try await withChildProcess(
            Glewlwyd.fixtures.appending(path: "start"), [folder.appending(path: "server").path],
            environment: environment, log: log
        ) { lines in
            guard lines[0].hasPrefix("listening on ") else { throw SupportFailure("glewlwyd printed \(lines[0])") }
            return try await body(
                Glewlwyd(
                    origin: String(lines[0].dropFirst("listening on ".count)),
                    folder: folder.appending(path: "server")))
        }
    } catch let failure as StartFailure {
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        throw SupportFailure("glewlwyd: \(failure); its log: \(said.suffix(2000))")
    }
}

extension Sandbox {
    /// A new EC P-256 private key, made by openssl, in a PEM file of the sandbox's.
    func newKey(named name: String) async throws -> URL {
        let file = root.appending(path: name)
        let made = try await runProgram(
            URL(filePath: "/usr/bin/openssl"),
            ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", file.path],
            environment: environment)
        try #require(made.status == 0, "\(made)")
        return file
    }
}
