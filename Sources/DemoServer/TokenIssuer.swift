import Foundation
import GRDB
import JWTKit

/// Issues and checks the demo server's access tokens: HS256 JWTs with `sub`, `iat`, `exp`, `fam`, the
/// session family they belong to, and `jti`, which makes two tokens issued in the same second differ. The
/// signing key is made once and kept in the ``DemoDatabase``, so a server restarted on the same database file
/// still accepts the tokens it issued.
struct TokenIssuer: Sendable {
    struct Claims: JWTPayload {
        var sub: SubjectClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        var fam: String
        var jti: IDClaim

        /// Expiry is checked against the ``DemoClock`` in ``TokenIssuer/member(of:)``, not the system's.
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// The same claims with only the signature checked, for logout: an expired token may still end its session.
    struct SignedClaims: JWTPayload {
        var sub: SubjectClaim
        var fam: String

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    private let keys: JWTKeyCollection
    private let families: SessionFamilies
    let lifetime: Duration
    private let clock: DemoClock

    init(database: DemoDatabase, families: SessionFamilies, lifetime: Duration, clock: DemoClock) async throws {
        let secret = try await database.writer.write { db in
            if let secret = try Data.fetchOne(db, sql: "SELECT secret FROM signingKey WHERE id = 1") { return secret }
            var generator = SystemRandomNumberGenerator()
            let secret = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
            try db.execute(sql: "INSERT INTO signingKey (id, secret) VALUES (1, ?)", arguments: [secret])
            return secret
        }
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: [UInt8](secret)), digestAlgorithm: .sha256)
        self.families = families
        self.lifetime = lifetime
        self.clock = clock
    }

    func accessToken(for member: SessionFamilies.Member) async throws -> String {
        try await accessToken(for: member, issuedAt: clock.now)
    }

    func accessToken(for member: SessionFamilies.Member, issuedAt now: Date) async throws -> String {
        // NumericDate claims in whole seconds, which is what most JWT readers expect: `iat` rounded down and
        // `exp` rounded up, so that a token always lives at least its full lifetime.
        let issued = now.timeIntervalSince1970
        let expires = issued + lifetime.timeInterval
        let claims = Claims(
            sub: SubjectClaim(value: member.email),
            iat: IssuedAtClaim(value: Date(timeIntervalSince1970: issued.rounded(.down))),
            exp: ExpirationClaim(value: Date(timeIntervalSince1970: expires.rounded(.up))),
            fam: member.familyID, jti: IDClaim(value: SessionFamilies.randomToken(bytes: 12)))
        return try await keys.sign(claims)
    }

    /// The session member of a valid, unexpired token whose family has not been revoked, or `nil`.
    func member(of token: String) async -> SessionFamilies.Member? {
        guard let claims = try? await keys.verify(token, as: Claims.self),
            (try? claims.exp.verifyNotExpired(currentDate: clock.now)) != nil,
            (try? await families.isLive(claims.fam)) == true
        else { return nil }
        return SessionFamilies.Member(email: claims.sub.value, familyID: claims.fam)
    }

    /// The family of a token signed by this server, expired or not, or `nil`.
    func signedFamily(of token: String) async -> String? {
        try? await keys.verify(token, as: SignedClaims.self).fam
    }
}
