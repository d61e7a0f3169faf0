import FoundationEssentials
import SwaggerModel

/// When access tokens are due: the rules that decide whether a token is refreshed before use.
package enum Expiry {
    /// How close to its expiry an access token is refreshed before use, to allow for clock skew and for the
    /// time the request takes. A token that lives less than twice as long is refreshed halfway through its life
    /// instead, or every use would refresh it.
    static let margin: TimeInterval = 30

    /// Whether an access token must be refreshed before use: it has expired, or will within ``margin``, or
    /// within half its lifetime when that is shorter. A token with no known expiry is used until the server
    /// rejects it.
    static func needsRefresh(expiresAt: Date?, issuedAt: Date?, now: Date) -> Bool {
        guard let expiresAt else { return false }
        let lifetime = issuedAt.map { expiresAt.timeIntervalSince($0) } ?? .infinity
        return expiresAt.timeIntervalSince(now) <= min(margin, max(0, lifetime) / 2)
    }

    /// Whether an access token has run out: the server will refuse it.
    package static func hasExpired(_ expiresAt: Date?, now: Date) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt <= now
    }

    /// When the granted access token was issued and expires: its JWT's `iat` and `exp` when it is a JWT that
    /// says, else `now` and the grant's lifetime later, else unknown.
    package static func times(of grant: TokenGrant, now: Date) -> (issuedAt: Date?, expiresAt: Date?) {
        let claims = JWTClaims.times(of: grant.accessToken)
        if claims.expiresAt != nil { return claims }
        guard let expiresAt = grant.expiresAt ?? grant.expiresIn.map({ now.addingTimeInterval($0.timeInterval) })
        else { return claims }
        // A lifetime that ends past year 9999 says nothing usable; such a date never reaches the session list.
        guard JWTClaims.sensible.contains(expiresAt.timeIntervalSince1970) else { return claims }
        return (now, expiresAt)
    }
}
