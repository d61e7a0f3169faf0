import Crypto
import Foundation
import SwaggerModel
import Testing
import _CryptoExtras

@testable import SwaggerHTTP

/// What a session proves itself with: DPoP proofs (RFC 9449) and a client's assertions (RFC 7523), checked by
/// decoding and verifying them as a server would, with the public key alone.
@Suite("DPoP proofs and client assertions, as a server reads them", .timeLimit(.minutes(5)))
struct ProofTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A JWS's header and claims, decoded, and its signing input and signature.
    static func parts(_ jwt: String) throws -> (
        header: [String: Any], claims: [String: Any], input: Data, signature: Data
    ) {
        let pieces = jwt.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(pieces.count == 3)
        func bytes(_ text: String) throws -> Data {
            var base64 = text.replacing("-", with: "+").replacing("_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            return try #require(Data(base64Encoded: base64))
        }
        func object(_ text: String) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: bytes(text)) as? [String: Any])
        }
        return (
            try object(pieces[0]), try object(pieces[1]), Data((pieces[0] + "." + pieces[1]).utf8), try bytes(pieces[2])
        )
    }

    static func base64URL(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString().replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
    }

    @Test("a proof names its key, method and URL without query or fragment, hashes the token, and verifies")
    func proof() throws {
        let key = ProofKey()
        let url = try #require(URL(string: "https://api.example.com/v1/items?page=2#top"))
        let proof = key.proof(method: "GET", url: url, accessToken: "tok.en", nonce: "n-1", now: Self.now)
        let (header, claims, input, signature) = try Self.parts(proof)
        #expect(header["typ"] as? String == "dpop+jwt")
        #expect(header["alg"] as? String == "ES256")
        let jwk = try #require(header["jwk"] as? [String: String])
        #expect(jwk["kty"] == "EC" && jwk["crv"] == "P-256" && jwk["d"] == nil, "the public half only")
        #expect(claims["htm"] as? String == "GET")
        #expect(claims["htu"] as? String == "https://api.example.com/v1/items")
        #expect(claims["iat"] as? Int == 1_800_000_000)
        #expect(claims["nonce"] as? String == "n-1")
        #expect(claims["ath"] as? String == Self.base64URL(SHA256.hash(data: Data("tok.en".utf8))))
        #expect((claims["jti"] as? String)?.isEmpty == false)

        // Verified with the key the header carries, as the server does.
        let point = try [jwk["x"], jwk["y"]].map { coordinate in
            let text = (coordinate ?? "").replacing("-", with: "+").replacing("_", with: "/") + "="
            return try #require(Data(base64Encoded: text))
        }
        let publicKey = try P256.Signing.PublicKey(x963Representation: [0x04] + point[0] + point[1])
        #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: input))

        // RFC 7638: the SHA-256 of the required members, in lexicographic order, without spaces.
        let canonical = #"{"crv":"P-256","kty":"EC","x":"\#(jwk["x"] ?? "")","y":"\#(jwk["y"] ?? "")"}"#
        #expect(key.thumbprint == Self.base64URL(SHA256.hash(data: Data(canonical.utf8))))
    }

    @Test("two proofs never share a jti; a token request's proof carries no ath")
    func freshProofs() throws {
        let key = ProofKey()
        let url = try #require(URL(string: "https://auth.example.com/token"))
        let first = try Self.parts(key.proof(method: "POST", url: url, accessToken: nil, nonce: nil, now: Self.now))
        let second = try Self.parts(key.proof(method: "POST", url: url, accessToken: nil, nonce: nil, now: Self.now))
        #expect(first.claims["jti"] as? String != second.claims["jti"] as? String)
        #expect(first.claims["ath"] == nil && first.claims["nonce"] == nil)
    }

    @Test("the key a session keeps comes back as the same key; text that is not a P-256 key is refused")
    func keptKey() throws {
        let key = ProofKey()
        #expect(try ProofKey(pem: key.pem).thumbprint == key.thumbprint)
        #expect(throws: APIServiceError.clientKeyUnusable) { try ProofKey(pem: "-----BEGIN PRIVATE KEY-----\nAA==\n") }
    }

    @Test("a client assertion: the client as issuer and subject, the endpoint as audience, a minute, a fresh jti")
    func assertion() throws {
        let signing = P256.Signing.PrivateKey()
        let key = ClientKey(privateKey: signing.pemRepresentation, keyID: "k-7")
        let endpoint = try #require(URL(string: "https://auth.example.com//api/oidc/token"))
        let jwt = try ClientAssertion.make(key, clientID: "ci-bot", endpoint: endpoint, now: Self.now)
        let (header, claims, input, signature) = try Self.parts(jwt)
        #expect(header["alg"] as? String == "ES256" && header["kid"] as? String == "k-7")
        #expect(claims["iss"] as? String == "ci-bot" && claims["sub"] as? String == "ci-bot")
        #expect(claims["aud"] as? String == endpoint.absoluteString)
        #expect(claims["iat"] as? Int == 1_800_000_000 && claims["exp"] as? Int == 1_800_000_060)
        // A server that holds the client's public key verifies it.
        #expect(
            signing.publicKey.isValidSignature(
                try P256.Signing.ECDSASignature(rawRepresentation: signature), for: input))
        let again = try ClientAssertion.make(key, clientID: "ci-bot", endpoint: endpoint, now: Self.now)
        #expect(try Self.parts(again).claims["jti"] as? String != claims["jti"] as? String)
    }

    @Test("an RSA key signs RS256, and an Ed25519 key as openssl writes it EdDSA, each verified by its public key")
    func otherKeys() throws {
        let endpoint = try #require(URL(string: "https://auth.example.com/token"))
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let signedRSA = try Self.parts(
            ClientAssertion.make(
                ClientKey(privateKey: rsa.pemRepresentation), clientID: "c", endpoint: endpoint, now: Self.now))
        #expect(signedRSA.header["alg"] as? String == "RS256")
        #expect(
            rsa.publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signedRSA.signature), for: signedRSA.input,
                padding: .insecurePKCS1v1_5))

        // `openssl genpkey -algorithm ED25519`: PKCS #8, whose last 32 bytes are the key.
        let pem =
            "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIClfJLxatmw5EGc21ZlCri/Ts8Z28zmi2nFW2il7pj+h\n-----END PRIVATE KEY-----\n"
        let der = try #require(Data(base64Encoded: "MC4CAQAwBQYDK2VwBCIEIClfJLxatmw5EGc21ZlCri/Ts8Z28zmi2nFW2il7pj+h"))
        let ed = try Curve25519.Signing.PrivateKey(rawRepresentation: der.suffix(32))
        let signedEd = try Self.parts(
            ClientAssertion.make(ClientKey(privateKey: pem), clientID: "c", endpoint: endpoint, now: Self.now))
        #expect(signedEd.header["alg"] as? String == "EdDSA")
        #expect(ed.publicKey.isValidSignature(signedEd.signature, for: signedEd.input))
    }

    @Test("a key that cannot sign is refused, and nothing is made")
    func unusableKey() throws {
        let endpoint = try #require(URL(string: "https://auth.example.com/token"))
        #expect(throws: APIServiceError.clientKeyUnusable) {
            try ClientAssertion.make(
                ClientKey(privateKey: "-----BEGIN PRIVATE KEY-----\nAA==\n-----END PRIVATE KEY-----\n"), clientID: "c",
                endpoint: endpoint, now: Self.now)
        }
    }
}
