import FoundationEssentials
import SessionMachine
import SwaggerModel
import SwaggerOutput

/// How `token --format` writes a token for the program that reads it.
package enum TokenFormat: String, Sendable, CaseIterable {
    /// The token alone, for `$(swaggerctl token)`.
    case plain
    /// `Authorization: Bearer <token>`, in the server's header and scheme, for `curl -H @-`.
    case header
    /// The token with its scheme, expiry, server and account.
    case json
    /// Kubernetes' `ExecCredential`, for a kubeconfig's `users[].user.exec`.
    case execCredential = "exec-credential"

    /// `token`'s text, ending in a newline.
    /// - Parameters:
    ///   - token: The session's token, with its expiry.
    ///   - execInfo: `KUBERNETES_EXEC_INFO`, which kubectl sets to the `ExecCredential` it expects.
    /// - Throws: `SwaggerError` with code `usage` for an `ExecCredential` version this does not write.
    package func render(_ token: UsableToken, execInfo: String?) throws(SwaggerError) -> String {
        switch self {
        case .plain:
            return token.value + "\n"
        case .header:
            return "\(token.use.header): \(token.headerValue)\n"
        case .json:
            return JSONOutput.render(TokenJSON(token), fallback: "{}")
        case .execCredential:
            let credential = ExecCredential(
                apiVersion: try ExecCredential.version(asked: execInfo),
                status: .init(token: token.value, expirationTimestamp: token.expiresAt.map(Self.rfc3339)))
            return JSONOutput.render(credential, fallback: "{}")
        }
    }

    /// Whole seconds in UTC, as Kubernetes' `metav1.Time` and most RFC 3339 readers take it.
    static func rfc3339(_ date: Date) -> String {
        let text = Timestamp.string(from: date)
        return text.prefix(19) + "Z"
    }
}

/// `token --format json`.
private struct TokenJSON: Encodable {
    var token: String
    var header: String
    var scheme: String?
    var expiry: String?
    var server: String
    var account: String?
    var dpopThumbprint: String?

    init(_ usable: UsableToken) {
        token = usable.value
        header = usable.use.header
        scheme = usable.use.scheme
        expiry = usable.expiresAt.map(TokenFormat.rfc3339)
        server = usable.server.description
        account = usable.account
        dpopThumbprint = usable.boundTo
    }

    // Unknowns are written as null rather than left out: a script reads the same keys from every session.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(token, forKey: .token)
        try container.encode(header, forKey: .header)
        try container.encode(scheme, forKey: .scheme)
        try container.encode(expiry, forKey: .expiry)
        try container.encode(server, forKey: .server)
        try container.encode(account, forKey: .account)
        try container.encode(dpopThumbprint, forKey: .dpopThumbprint)
    }

    private enum CodingKeys: String, CodingKey {
        case token, header, scheme, expiry, server, account
        /// The JWK thumbprint (RFC 7638) of the key the token is bound to, for a program that signs its own proofs.
        case dpopThumbprint = "dpop_jkt"
    }
}

/// `client.authentication.k8s.io`'s `ExecCredential`, as a credential plugin answers kubectl.
private struct ExecCredential: Encodable {
    var apiVersion: String
    var kind = "ExecCredential"
    var status: Status

    struct Status: Encodable {
        var token: String
        var expirationTimestamp: String?
    }

    /// The versions whose `status` has `token` and `expirationTimestamp` as written here.
    static let versions = [
        "client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1",
        "client.authentication.k8s.io/v1alpha1",
    ]

    /// The version kubectl asks for in `KUBERNETES_EXEC_INFO` (the kubeconfig's `exec.apiVersion`), else v1.
    static func version(asked execInfo: String?) throws(SwaggerError) -> String {
        guard let execInfo, !execInfo.isEmpty else { return versions[0] }
        struct Asked: Decodable { var apiVersion: String }
        guard let asked = try? JSONDecoder().decode(Asked.self, from: Data(execInfo.utf8)).apiVersion else {
            throw SwaggerError(.usage, "KUBERNETES_EXEC_INFO is not an ExecCredential; it is kubectl's to set.")
        }
        guard versions.contains(asked) else {
            throw SwaggerError(
                .usage,
                "kubectl asks for \(TerminalText.escaped(String(asked.prefix(80)))); use apiVersion "
                    + "client.authentication.k8s.io/v1 or v1beta1 in the kubeconfig's exec entry.")
        }
        return asked
    }
}

extension UsableToken {
    /// The variables `exec` sets for its command: the token under `tokenVariable`, the server, and the header's
    /// value (`Bearer …`), which a nested swaggerctl, curl or a script reads.
    package func environment(tokenVariable: String) -> [(name: String, value: String)] {
        [
            (tokenVariable, value), ("SWAGGERCTL_SERVER", server.description),
            ("SWAGGERCTL_AUTHORIZATION", headerValue),
        ]
    }

    /// The names `--env` may give: a shell's variable names, and none that `exec` sets for itself.
    package static func isTokenVariable(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || isLetter(first),
            name.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || isLetter($0) || (0x30...0x39).contains($0) })
        else { return false }
        return !["SWAGGERCTL_SERVER", "SWAGGERCTL_AUTHORIZATION"].contains(name)
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }

    /// Whether the dynamic loader or the C library reads `name` as a setting as the command starts: a token there
    /// would be a library to load (`LD_PRELOAD`), a file to write (`LD_DEBUG_OUTPUT`, `MALLOC_TRACE`) or a folder
    /// to read, and the loader's complaint about it shows the token. These are glibc's `unsecvars.h`, which it
    /// removes for a set-user-ID program, and every `LD_` and `MALLOC_` name.
    package static func isReadByLoader(_ name: String) -> Bool {
        name.hasPrefix("LD_") || name.hasPrefix("MALLOC_") || loaderVariables.contains(name)
    }

    private static let loaderVariables: Set<String> = [
        "GCONV_PATH", "GETCONF_DIR", "GLIBC_TUNABLES", "HOSTALIASES", "LOCALDOMAIN", "LOCPATH", "NIS_PATH", "NLSPATH",
        "RESOLV_HOST_CONF", "RES_OPTIONS", "TMPDIR", "TZDIR",
    ]
}

extension SwaggerError {
    /// `token` found something that cannot be a token, so it prints nothing.
    static let notAToken = SwaggerError(
        .server,
        "The stored access token has characters that no token has, so it is not printed. Log in again to replace it.")
}
