import FoundationEssentials
import JWTKit
import SwaggerModel

/// RFC 7523 §2.2's client assertion: a short-lived JWT that the client signs with its own private key, in place of
/// a secret, for one endpoint.
enum ClientAssertion {
    /// The form field that says what `client_assertion` is.
    static let type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    /// How long an assertion is good for: long enough to cross a slow network, short enough that one seen in
    /// passing is soon worth nothing.
    static let lifetime: Int = 60

    /// A key as a signer: which algorithm it signs with, from what the PEM holds.
    struct Signer: Sendable {
        fileprivate let keys: JWTKeyCollection
        /// The algorithm's name, as a JWT header writes it.
        let algorithm: String

        /// The signer of a PEM private key: an EC P-256 or P-384 key (ES256, ES384), an RSA key (RS256), or an
        /// Ed25519 key (EdDSA).
        /// - Throws: ``APIServiceError/clientKeyUnusable`` for anything else.
        init(pem: String) async throws(APIServiceError) {
            let keys = JWTKeyCollection()
            if let key = try? ES256PrivateKey(pem: pem) {
                await keys.add(ecdsa: key)
                algorithm = "ES256"
            } else if let key = try? ES384PrivateKey(pem: pem) {
                await keys.add(ecdsa: key)
                algorithm = "ES384"
            } else if let key = try? Insecure.RSA.PrivateKey(pem: pem) {
                await keys.add(rsa: key, digestAlgorithm: .sha256)
                algorithm = "RS256"
            } else if let key = try? EdDSA.PrivateKey(pem: pem) {
                await keys.add(eddsa: key)
                algorithm = "EdDSA"
            } else {
                throw .clientKeyUnusable
            }
            self.keys = keys
        }

        /// `payload`, signed, with `kid` and `typ` in the header where given.
        func sign(_ payload: some JWTPayload, keyID: String?, type: String = "JWT") async throws(APIServiceError)
            -> String
        {
            var header = JWTHeader()
            header.typ = type
            if let keyID { header.kid = keyID }
            do {
                return try await keys.sign(payload, header: header)
            } catch {
                throw .clientKeyUnusable
            }
        }
    }

    /// What the assertion says: the client is both its issuer and its subject, for the endpoint it goes to.
    struct Claims: JWTPayload {
        var iss: String
        var sub: String
        var aud: String
        var jti: String
        var iat: Int
        var exp: Int

        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    /// A fresh assertion that `clientID` is who sends a request to `endpoint`, signed with `key`.
    static func make(_ key: ClientKey, clientID: String, endpoint: URL, now: Date) async throws(APIServiceError)
        -> String
    {
        let signer = try await Signer(pem: key.privateKey)
        let issued = Int(now.timeIntervalSince1970)
        let claims = Claims(
            iss: clientID, sub: clientID, aud: endpoint.absoluteString, jti: UUID().uuidString, iat: issued,
            exp: issued + lifetime)
        return try await signer.sign(claims, keyID: key.keyID)
    }
}
