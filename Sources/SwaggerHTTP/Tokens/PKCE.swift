// SHA-256 from the BoringSSL that NIOSSL already links, rather than swift-crypto, which links a second copy:
// 4.6 MB more binary and 5 MiB more resident memory at every start (measured with make bench).
import CNIOBoringSSL
import FoundationEssentials
import SwaggerModel

/// Proof Key for Code Exchange (RFC 7636): a secret verifier that only this process knows, and the challenge the
/// authorization request carries, from which the verifier cannot be worked out. With it, a code that another
/// program on this machine catches on its way to the loopback listener is of no use to it.
package struct PKCE: Sendable, Redacting {
    package let verifier: String
    /// `BASE64URL(SHA256(verifier))`, the S256 method (§4.2).
    package let challenge: String
    /// A value for the authorization request's `state`, which the redirect must bring back.
    package let state: String

    /// A fresh verifier of 32 random bytes (43 characters, §4.1's advice) and a state of 16.
    package init() {
        var generator = SystemRandomNumberGenerator()
        func random(_ count: Int) -> [UInt8] {
            (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        }
        self.init(verifier: Self.base64URL(random(32)), state: Self.base64URL(random(16)))
    }

    init(verifier: String, state: String) {
        self.verifier = verifier
        self.state = state
        let bytes = Array(verifier.utf8)
        var digest = [UInt8](repeating: 0, count: 32)
        _ = SHA256(bytes, bytes.count, &digest)
        challenge = Self.base64URL(digest)
    }

    /// Base64 with the URL alphabet and no padding (§3, Appendix A).
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacing("+", with: "-").replacing("/", with: "_")
            .replacing("=", with: "")
    }
}
