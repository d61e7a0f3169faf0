/// What a session's tokens are bound to, and so what every request made for it carries beside the token: the DPoP key
/// whose proofs go with it (RFC 9449), and the client certificate presented in TLS (RFC 8705). It is read with the
/// tokens, and is empty for a bearer session.
package struct SessionBinding: Sendable, Hashable, Redacting {
    /// The DPoP key, as PEM.
    package var proofKey: String?
    /// The client's key and certificate, presented in every TLS handshake.
    package var certificate: ClientKey?

    /// A bearer session's: bound to nothing.
    package init() {}

    /// What `credentials`, read for `record`, bind the session's requests to: only what the record says they are
    /// bound to.
    package init(_ credentials: Credentials?, of record: SessionRecord) {
        proofKey = record.proofKey == nil ? nil : credentials?.proofKey
        certificate = record.presentsCertificate == true ? credentials?.clientKey : nil
    }
}
