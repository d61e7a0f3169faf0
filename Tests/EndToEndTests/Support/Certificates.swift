import Foundation

/// A throwaway certificate authority and server certificates, made with Debian's `openssl` for one test run:
/// one good certificate for `127.0.0.1` and `localhost`, one for another host name, one that has expired, and
/// one from an authority nobody trusts.
struct Certificates: Sendable {
    let folder: URL

    /// The authority's certificate: what `--ca-cert` and `SSL_CERT_FILE` are given.
    var authority: String { path("ca.pem") }

    /// A server certificate and its key, as `--tls-cert` and `--tls-key` take them.
    struct Pair: Sendable {
        var certificate: String
        var key: String

        var serverArguments: [String] { ["--tls-cert", certificate, "--tls-key", key] }
    }

    var good: Pair { pair("good") }
    var otherHost: Pair { pair("other-host") }
    var expired: Pair { pair("expired") }
    var untrusted: Pair { pair("untrusted") }

    /// Makes everything in a new temporary folder.
    static func make() async throws -> Certificates {
        let folder = FileManager.default.temporaryDirectory.appending(path: "swaggerctl-ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let certificates = Certificates(folder: folder)
        try await certificates.makeAuthority("ca", name: "swaggerctl test CA")
        try await certificates.makeAuthority("stranger-ca", name: "Nobody trusts this CA")
        let loopback = "DNS:localhost,IP:127.0.0.1,IP:::1"
        try await certificates.issue("good", by: "ca", names: loopback, from: "250101000000Z", until: "491231235959Z")
        try await certificates.issue(
            "other-host", by: "ca", names: "DNS:other.example", from: "250101000000Z", until: "491231235959Z")
        try await certificates.issue(
            "expired", by: "ca", names: loopback, from: "200101000000Z", until: "200201000000Z")
        try await certificates.issue(
            "untrusted", by: "stranger-ca", names: loopback, from: "250101000000Z", until: "491231235959Z")
        return certificates
    }

    /// A folder holding the authority's certificate under its subject-hash name, as `SSL_CERT_DIR` folders
    /// (such as /etc/ssl/certs) are laid out, by `openssl rehash`.
    func hashedFolder() async throws -> URL {
        let trusted = folder.appending(path: "trusted", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: trusted, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: authority, toPath: trusted.appending(path: "ca.pem").path)
        try await openssl("rehash", trusted.path)
        return trusted
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    private func path(_ name: String) -> String { folder.appending(path: name).path }

    private func pair(_ name: String) -> Pair { Pair(certificate: path("\(name).pem"), key: path("\(name).key")) }

    private func makeAuthority(_ name: String, name subject: String) async throws {
        try await openssl(
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "3650",
            "-subj", "/CN=\(subject)", "-keyout", path("\(name).key"), "-out", path("\(name).pem"),
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
        // `openssl ca` keeps a small database; each authority gets its own.
        let database = folder.appending(path: "\(name).db", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: database, withIntermediateDirectories: true)
        try Data().write(to: database.appending(path: "index.txt"))
        try Data("01\n".utf8).write(to: database.appending(path: "serial"))
        let configuration = """
            [ca]
            default_ca = authority
            [authority]
            dir = \(database.path)
            database = $dir/index.txt
            serial = $dir/serial
            new_certs_dir = $dir
            certificate = \(path("\(name).pem"))
            private_key = \(path("\(name).key"))
            default_md = sha256
            policy = anything
            unique_subject = no
            copy_extensions = copy
            [anything]
            commonName = supplied
            """
        try Data(configuration.utf8).write(to: database.appending(path: "openssl.cnf"))
    }

    /// Issues `name` for `names` (subjectAltName syntax), valid from `start` until `end` (YYMMDDHHMMSSZ): dates
    /// that `openssl ca` takes as they are, expired ones included.
    private func issue(_ name: String, by authority: String, names: String, from start: String, until end: String)
        async throws
    {
        try await openssl(
            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=\(name)",
            "-keyout", path("\(name).key"), "-out", path("\(name).csr"),
            "-addext", "subjectAltName=\(names)", "-addext", "extendedKeyUsage=serverAuth")
        try await openssl(
            "ca", "-batch", "-notext", "-config", folder.appending(path: "\(authority).db/openssl.cnf").path,
            "-startdate", start, "-enddate", end, "-in", path("\(name).csr"), "-out", path("\(name).pem"))
    }

    private func openssl(_ arguments: String...) async throws {
        let result = try await runProgram(URL(filePath: "/usr/bin/openssl"), arguments, environment: [:])
        guard result.status == 0 else { throw SupportFailure("openssl \(arguments.first ?? ""): \(result)") }
    }
}

/// Runs `body` with fresh certificates, and removes them afterwards.
func withCertificates<Result>(_ body: (Certificates) async throws -> Result) async throws -> Result {
    let certificates = try await Certificates.make()
    defer { certificates.remove() }
    return try await body(certificates)
}
