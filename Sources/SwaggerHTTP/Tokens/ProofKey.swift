import Crypto
import FoundationEssentials
import NIOCore
import NIOHTTP1
import SwaggerModel
import Synchronization

/// A session's DPoP key (RFC 9449): a P-256 key pair made at login, whose private half is kept only in the token
/// store. The server binds the session's tokens to its public half, and every request that presents them carries a
/// proof signed with it, so that a token copied from a log or a file is of no use alone.
///
/// Proofs are signed here, with swift-crypto, and not through a JWT library: a proof is made at every request, and
/// its header and claims are a few fixed members.
package struct ProofKey: Sendable {
    private let key: P256.Signing.PrivateKey
    /// The public half as a JWK, in the member order RFC 7638 hashes: `crv`, `kty`, `x`, `y`.
    private let jwk: String
    /// The JWK SHA-256 thumbprint (RFC 7638), which the server binds the tokens to (`cnf.jkt`).
    package let thumbprint: String

    /// A new key.
    package init() {
        self.init(key: P256.Signing.PrivateKey())
    }

    /// The key a session keeps, as PEM.
    /// - Throws: ``APIServiceError/clientKeyUnusable`` for text that is not a P-256 private key.
    package init(pem: String) throws(APIServiceError) {
        guard
            let key = Self.scalar(pem).flatMap({ try? P256.Signing.PrivateKey(rawRepresentation: $0) })
                ?? (try? P256.Signing.PrivateKey(pemRepresentation: pem))
        else { throw .clientKeyUnusable }
        self.init(key: key)
    }

    /// The private scalar of a P-256 key in the PKCS #8 form that ``pem`` writes (RFC 5915 inside RFC 5208), read
    /// at its fixed place; `nil` for any other form, which the ASN.1 reader takes. Every command of a bound session
    /// reads its key, and the reader's code was most of what a proof cost.
    private static func scalar(_ pem: String) -> Data? {
        let prefix: [UInt8] = [
            0x30, 0x81, 0x87, 0x02, 0x01, 0x00, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01,
            0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0x04, 0x6D, 0x30, 0x6B, 0x02, 0x01, 0x01,
            0x04, 0x20,
        ]
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard let der = Data(base64Encoded: body), der.count == 138, der.starts(with: prefix) else { return nil }
        return der.dropFirst(prefix.count).prefix(32)
    }

    private init(key: P256.Signing.PrivateKey) {
        self.key = key
        let point = key.publicKey.x963Representation.dropFirst()
        let x = Base64URL.encode(point.prefix(32))
        let y = Base64URL.encode(point.suffix(32))
        jwk = #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
        thumbprint = Base64URL.encode(SHA256.hash(data: Data(jwk.utf8)))
    }

    /// The private key as PEM, as the token store keeps it.
    package var pem: String { key.pemRepresentation }

    /// A proof for one request (RFC 9449 §4.2): its method, its URL without query or fragment (§4.3), a fresh `jti`,
    /// the time, the hash of the access token it presents (`ath`), and the server's nonce, where there are any.
    func proof(method: String, url: URL, accessToken: String?, nonce: String?, now: Date) -> String {
        let header = #"{"typ":"dpop+jwt","alg":"ES256","jwk":\#(jwk)}"#
        var claims: [String: JSONValue] = [
            "jti": .string(UUID().uuidString), "htm": .string(method), "htu": .string(Self.target(of: url)),
            "iat": .integer(Int64(now.timeIntervalSince1970)),
        ]
        if let accessToken { claims["ath"] = .string(Base64URL.encode(SHA256.hash(data: Data(accessToken.utf8)))) }
        if let nonce { claims["nonce"] = .string(nonce) }
        let input =
            Base64URL.encode(Data(header.utf8)) + "."
            + Base64URL.encode(Data(JSONValue.object(claims).compactJSON.utf8))
        // A signature over bytes that are always there cannot fail.
        let signature = (try? key.signature(for: Data(input.utf8)).rawRepresentation) ?? Data()
        return input + "." + Base64URL.encode(signature)
    }

    /// `htu`: the URL with neither query nor fragment.
    static func target(of url: URL) -> String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.query = nil
        components?.fragment = nil
        return components?.string ?? url.absoluteString
    }
}

/// base64url without padding (RFC 7515 §2), as JWTs write their parts.
enum Base64URL {
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        // Byte by byte: String's `replacing` searched the text as a collection, a third of a proof's instructions.
        let base64 = Data(bytes).base64EncodedData()
        var text: [UInt8] = []
        text.reserveCapacity(base64.count)
        for byte in base64 {
            switch byte {
            case UInt8(ascii: "+"): text.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): text.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): break
            default: text.append(byte)
            }
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// The nonce each origin asked DPoP proofs to carry (RFC 9449 §8 for the token endpoint, §9 for the API).
final class ProofNonces: Sendable {
    private let nonces = Mutex<[ServerURL: String]>([:])

    func nonce(for origin: ServerURL) -> String? {
        nonces.withLock { $0[origin] }
    }

    /// Keeps the nonce an answer gives, which every later proof to `origin` carries (a server may give a new one with
    /// any answer, §8.2).
    /// - Returns: Whether the answer refused the proof for want of that nonce, and so is worth asking again with it:
    ///   a 400 with `use_dpop_nonce` from a token endpoint, or a 401 whose challenge says so (§9).
    func learn(from answer: TransportAnswer, for origin: ServerURL) -> Bool {
        // A nonce is visible ASCII (RFC 9449 §8.1); one longer than a proof header could carry is not kept.
        guard let nonce = answer.head.headers.first(name: "DPoP-Nonce"), !nonce.isEmpty, nonce.count <= 256,
            nonce.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { return false }
        let isNew = nonces.withLock { known in
            defer { known[origin] = nonce }
            return known[origin] != nonce
        }
        let status = answer.head.status.code
        let challenge = answer.head.headers[canonicalForm: "WWW-Authenticate"].joined(separator: ", ")
        let said =
            answer.body.readableBytesView.count <= 4096
            && String(decoding: answer.body.readableBytesView, as: UTF8.self).contains("use_dpop_nonce")
        return isNew && ((status == 400 && said) || (status == 401 && challenge.contains("use_dpop_nonce")))
    }
}

/// DPoP keys read from their PEM, each once.
final class ProofKeys: Sendable {
    private let keys = Mutex<[String: ProofKey]>([:])

    /// The key `pem` holds, or `nil` when it holds none.
    func key(_ pem: String) -> ProofKey? {
        if let known = keys.withLock({ $0[pem] }) { return known }
        guard let key = try? ProofKey(pem: pem) else { return nil }
        keys.withLock { $0[pem] = key }
        return key
    }
}
