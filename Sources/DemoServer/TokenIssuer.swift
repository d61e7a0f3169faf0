import Foundation
import JWTKit

/// Issues and checks the demo server's access tokens: HS256 JWTs with `sub`, `iat` and `exp`, signed with a
/// key made fresh at every start. Refresh tokens are 32 random bytes.
struct TokenIssuer: Sendable {
    struct Claims: JWTPayload {
        var sub: SubjectClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim

        func verify(using algorithm: some JWTAlgorithm) async throws {
            try exp.verifyNotExpired()
        }
    }

    private let keys: JWTKeyCollection
    let lifetime: Duration

    init(lifetime: Duration) async {
        var secret = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &secret) }
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: bytes), digestAlgorithm: .sha256)
        self.lifetime = lifetime
    }

    func accessToken(for email: String, now: Date = Date()) async throws -> String {
        // NumericDate claims in whole seconds, which is what most JWT readers expect: `iat` rounded down and
        // `exp` rounded up, so that a token always lives at least its full lifetime.
        let issued = now.timeIntervalSince1970
        let expires = issued + TimeInterval(lifetime.components.seconds)
        let claims = Claims(
            sub: SubjectClaim(value: email),
            iat: IssuedAtClaim(value: Date(timeIntervalSince1970: issued.rounded(.down))),
            exp: ExpirationClaim(value: Date(timeIntervalSince1970: expires.rounded(.up))))
        return try await keys.sign(claims)
    }

    /// The e-mail a valid, unexpired token was issued to, or `nil`.
    func subject(of token: String) async -> String? {
        try? await keys.verify(token, as: Claims.self).sub.value
    }

    static func refreshToken() -> String {
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
