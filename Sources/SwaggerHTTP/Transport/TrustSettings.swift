import FoundationEssentials
import NIOSSL
import SwaggerModel

/// Which certificate authorities swaggerctl trusts for `https://` servers. It never turns verification off.
///
/// By default it trusts the system's store. `SSL_CERT_FILE` and `SSL_CERT_DIR` replace that store, as they do
/// for OpenSSL and curl, and together they are one store, as OpenSSL reads them: the file's certificates and
/// every folder's. `--ca-cert FILE` (or `SWAGGERCTL_CA_CERT`) adds authorities to whichever store is in use,
/// for a server with a private CA.
package struct TrustSettings: Sendable, Hashable {
    /// `SSL_CERT_FILE`: a PEM bundle that replaces the system's store.
    var certificateFile: String?
    /// `SSL_CERT_DIR`: folders of PEM certificates that replace (or, with ``certificateFile``, add to) it.
    var certificateDirectories: [String] = []
    /// `--ca-cert` or `SWAGGERCTL_CA_CERT`: a PEM file of authorities trusted as well.
    package var additionalCertificates: String?
    /// The certificate and key the client proves itself with in TLS (RFC 8705), as PEM; `nil` for none.
    var clientIdentity: ClientIdentity?

    /// A client's certificate and its private key.
    package struct ClientIdentity: Sendable, Hashable {
        package var certificate: String
        package var privateKey: String
    }

    /// The system's store only.
    package init() {}

    /// Reads `SSL_CERT_FILE`, `SSL_CERT_DIR` and `SWAGGERCTL_CA_CERT`, and `--ca-cert`, which wins over the
    /// last.
    /// - Throws: ``SwaggerError`` with code ``SwaggerError/Code/usage`` for a file or folder that cannot be read.
    package init(environment: [String: String], caCertificate: String? = nil) throws(SwaggerError) {
        func value(_ name: String) -> String? {
            guard let value = environment[name], !value.isEmpty else { return nil }
            return value
        }
        certificateFile = try value("SSL_CERT_FILE").map { (path) throws(SwaggerError) in
            try Self.readable(path, from: "SSL_CERT_FILE", folder: false)
        }
        for path in (value("SSL_CERT_DIR") ?? "").split(separator: ":").map(String.init) where !path.isEmpty {
            certificateDirectories.append(try Self.readable(path, from: "SSL_CERT_DIR", folder: true))
        }
        if let caCertificate {
            additionalCertificates = try Self.readable(caCertificate, from: "--ca-cert", folder: false)
        } else if let path = value("SWAGGERCTL_CA_CERT") {
            additionalCertificates = try Self.readable(path, from: "SWAGGERCTL_CA_CERT", folder: false)
        }
    }

    private static func readable(_ path: String, from name: String, folder: Bool) throws(SwaggerError) -> String {
        var isFolder = false
        let what = folder ? "a folder of certificates" : "a PEM file of certificates"
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw SwaggerError(.usage, "\(name) names \(path), which does not exist: give \(what).")
        }
        guard isFolder == folder else {
            throw SwaggerError(
                .usage, "\(name) names \(path), which is a \(isFolder ? "folder" : "file"): give \(what).")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw SwaggerError(.usage, "\(name) names \(path), which you may not read: check its permissions.")
        }
        // Absolute, because a session keeps the --ca-cert of its login for commands run elsewhere.
        return path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}

extension TrustSettings {
    /// The client TLS configuration: full verification, always, against the chosen store; and the client's own
    /// certificate, where it proves itself with one.
    var tlsConfiguration: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .fullVerification
        if let identity = clientIdentity,
            let chain = try? NIOSSLCertificate.fromPEMBytes(Array(identity.certificate.utf8)), !chain.isEmpty,
            let key = try? NIOSSLPrivateKey(bytes: Array(identity.privateKey.utf8), format: .pem)
        {
            configuration.certificateChain = chain.map { .certificate($0) }
            configuration.privateKey = .privateKey(key)
        }
        var files = [certificateFile, additionalCertificates].compactMap { $0 }
        var folders = certificateDirectories
        // NIOSSL reads a folder by hashed name, as OpenSSL does, only as the trust roots; its additional roots
        // are files or certificates. So the first folder (else the file) is the roots, and the rest are added:
        // files as they are, and further folders as the certificates they hold.
        if !folders.isEmpty {
            configuration.trustRoots = .file(folders.removeFirst())
        } else if let certificateFile {
            configuration.trustRoots = .file(certificateFile)
            files.removeFirst()
        }
        configuration.additionalTrustRoots =
            files.map { .file($0) } + folders.map { .certificates(Self.certificates(inFolder: $0)) }
        return configuration
    }

    /// The first file of the store that holds no certificate NIOSSL can load; `nil` when all do.
    func firstUnloadable() -> String? {
        [certificateFile, additionalCertificates].compactMap { $0 }.first { path in
            ((try? NIOSSLCertificate.fromPEMFile(path)) ?? []).isEmpty
        }
    }

    /// The certificates of a folder as OpenSSL's `c_rehash` lays it out, and of any other PEM file in it. What
    /// is not a certificate is left out, as OpenSSL leaves it.
    private static func certificates(inFolder folder: String) -> [NIOSSLCertificate] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.sorted().flatMap { name in
            (try? NIOSSLCertificate.fromPEMFile(folder + "/" + name)) ?? []
        }
    }
}
