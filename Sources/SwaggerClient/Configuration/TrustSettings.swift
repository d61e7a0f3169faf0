import FoundationEssentials

/// Which certificate authorities swaggerctl trusts for `https://` servers. It never turns verification off.
///
/// By default it trusts the system's store. `SSL_CERT_FILE` and `SSL_CERT_DIR` replace that store, as they do
/// for OpenSSL and curl; `--ca-cert FILE` (or `SWAGGERCTL_CA_CERT`) adds one authority to whichever store is
/// in use, for a server with a private CA.
public struct TrustSettings: Sendable, Hashable {
    /// `SSL_CERT_FILE`: a PEM bundle that replaces the system's store.
    public var certificateFile: String?
    /// `SSL_CERT_DIR`: folders of PEM certificates that replace (or, with ``certificateFile``, add to) it.
    public var certificateDirectories: [String] = []
    /// `--ca-cert` or `SWAGGERCTL_CA_CERT`: a PEM file of authorities trusted as well.
    public var additionalCertificates: String?

    /// The system's store only.
    public init() {}

    /// Reads `SSL_CERT_FILE`, `SSL_CERT_DIR` and `SWAGGERCTL_CA_CERT`, and `--ca-cert`, which wins over the
    /// last.
    /// - Throws: ``SwaggerError`` with code ``SwaggerError/Code/usage`` for a file or folder that cannot be read.
    public init(environment: [String: String], caCertificate: String? = nil) throws(SwaggerError) {
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
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder == folder,
            FileManager.default.isReadableFile(atPath: path)
        else {
            let what = folder ? "a folder of certificates" : "a PEM file of certificates"
            throw SwaggerError(.usage, "\(name) names \(path), which is not \(what) that swaggerctl can read.")
        }
        return path
    }
}
