import FoundationEssentials

/// A confidential client's private key, kept with its session in the token store: it signs RFC 7523's assertions
/// (`private_key_jwt`), or, with its certificate, proves the client in TLS (RFC 8705's `tls_client_auth`).
package struct ClientKey: Sendable, Hashable, Codable, Redacting {
    /// The private key, as PEM.
    package var privateKey: String
    /// The `kid` the assertion's header names, for a server that holds several of the client's keys.
    package var keyID: String?
    /// The certificate, as PEM, for a client that proves itself in TLS; `nil` for one that signs assertions.
    package var certificate: String?

    package init(privateKey: String, keyID: String? = nil, certificate: String? = nil) {
        self.privateKey = privateKey
        self.keyID = keyID
        self.certificate = certificate
    }
}

/// What a client proves itself with to the token endpoint, and to the revocation endpoint beside it: its secret
/// (RFC 6749 §2.3.1), its private key, or nothing (a public client, which sends its `client_id`).
package struct ClientProof: Sendable, Hashable, Redacting {
    package var secret: String?
    package var key: ClientKey?

    package init(secret: String? = nil, key: ClientKey? = nil) {
        self.secret = secret
        self.key = key
    }

    /// Whether the client can prove itself, and so ask for tokens as itself (RFC 6749 §4.4).
    package var isConfidential: Bool { secret != nil || key != nil }

    /// The secret text that must never be shown: the secret, and the private key.
    package var secrets: [String?] { [secret, key?.privateKey] }
}

/// A DPoP key made for a login (RFC 9449): its private half, kept only with the session's tokens, and its public
/// half's thumbprint, which the record keeps to say that the tokens are bound.
package struct ProofBinding: Sendable, Hashable, Redacting {
    package var privateKey: String
    package var thumbprint: String

    package init(privateKey: String, thumbprint: String) {
        self.privateKey = privateKey
        self.thumbprint = thumbprint
    }
}

extension Credentials {
    /// What the session's client proves itself with.
    package var client: ClientProof { ClientProof(secret: clientSecret, key: clientKey) }
}

extension ProofBinding {
    /// `token`, `exec` or `git-credential` of a session whose token is bound to a DPoP key.
    package static let tokenNotice =
        "the token is bound to this session's DPoP key: a request that carries it needs a proof signed with the key "
        + "(`swaggerctl api` makes them)."
}
