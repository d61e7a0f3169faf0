import Crypto
import FoundationEssentials
import SwaggerModel
import _CryptoExtras

/// RFC 7523 §2.2's client assertion: a short-lived JWT that the client signs with its own private key, in place of
/// a secret, for one endpoint.
///
/// Signed with swift-crypto, which DPoP's proofs use too, rather than a JWT library: an assertion is two small JSON
/// objects, and a JWT library with its X.509 stack made the program 2 MB larger and every command's start slower.
enum ClientAssertion {
    /// The form field that says what `client_assertion` is.
    static let type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    /// How long an assertion is good for: long enough to cross a slow network, short enough that one seen in
    /// passing is soon worth nothing.
    static let lifetime: Int64 = 60

    /// A key as a signer: which algorithm it signs with, from what the PEM holds.
    enum Signer {
        case es256(P256.Signing.PrivateKey)
        case es384(P384.Signing.PrivateKey)
        case rs256(_RSA.Signing.PrivateKey)
        case edDSA(Curve25519.Signing.PrivateKey)

        /// The signer of a PEM private key: an EC P-256 or P-384 key (ES256, ES384), an RSA key (RS256), or an
        /// Ed25519 key (EdDSA).
        /// - Throws: ``APIServiceError/clientKeyUnusable`` for anything else.
        init(pem: String) throws(APIServiceError) {
            if let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) {
                self = .es256(key)
            } else if let key = try? P384.Signing.PrivateKey(pemRepresentation: pem) {
                self = .es384(key)
            } else if let key = try? _RSA.Signing.PrivateKey(pemRepresentation: pem) {
                self = .rs256(key)
            } else if let key = Self.ed25519(pem) {
                self = .edDSA(key)
            } else {
                throw .clientKeyUnusable
            }
        }

        /// The algorithm's name, as a JWT header writes it.
        var algorithm: String {
            switch self {
            case .es256: "ES256"
            case .es384: "ES384"
            case .rs256: "RS256"
            case .edDSA: "EdDSA"
            }
        }

        /// The signature of `input`, as JWS writes it: `r || s` for ECDSA (RFC 7518 §3.4).
        func signature(of input: Data) throws(APIServiceError) -> Data {
            do {
                switch self {
                case .es256(let key): return try key.signature(for: input).rawRepresentation
                case .es384(let key): return try key.signature(for: input).rawRepresentation
                case .rs256(let key):
                    return try key.signature(for: input, padding: .insecurePKCS1v1_5).rawRepresentation
                case .edDSA(let key): return try key.signature(for: input)
                }
            } catch {
                throw .clientKeyUnusable
            }
        }

        /// An Ed25519 key in PKCS #8 (RFC 8410 §7): swift-crypto reads only its raw 32 bytes.
        private static func ed25519(_ pem: String) -> Curve25519.Signing.PrivateKey? {
            let prefix: [UInt8] = [
                0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
            ]
            let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            guard let der = Data(base64Encoded: body), der.count == prefix.count + 32, der.starts(with: prefix) else {
                return nil
            }
            return try? Curve25519.Signing.PrivateKey(rawRepresentation: der.dropFirst(prefix.count))
        }
    }

    /// A fresh assertion that `clientID` is who sends a request to `endpoint`, signed with `key`: the client is both
    /// its issuer and its subject, for the endpoint it goes to.
    static func make(_ key: ClientKey, clientID: String, endpoint: URL, now: Date) throws(APIServiceError) -> String {
        let signer = try Signer(pem: key.privateKey)
        var header: [String: JSONValue] = ["alg": .string(signer.algorithm), "typ": .string("JWT")]
        if let keyID = key.keyID { header["kid"] = .string(keyID) }
        let issued = Int64(now.timeIntervalSince1970)
        let claims: [String: JSONValue] = [
            "iss": .string(clientID), "sub": .string(clientID), "aud": .string(endpoint.absoluteString),
            "jti": .string(UUID().uuidString), "iat": .integer(issued), "exp": .integer(issued + lifetime),
        ]
        let input =
            Base64URL.encode(Data(JSONValue.object(header).compactJSON.utf8)) + "."
            + Base64URL.encode(Data(JSONValue.object(claims).compactJSON.utf8))
        return input + "." + Base64URL.encode(try signer.signature(of: Data(input.utf8)))
    }
}
