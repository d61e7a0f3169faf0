import FoundationEssentials

/// Reads the expiry of an access token that is a JWT, without verifying it.
///
/// Only the server can verify a token; swaggerctl reads `exp` so that `status` can say when a session
/// ends. A token that is not a JWT simply has no known expiry.
package enum JWTClaims {
    /// When the token was issued (`iat`) and when it expires (`exp`), each `nil` when the token is not a JWT or
    /// does not say.
    package static func times(of token: String) -> (issuedAt: Date?, expiresAt: Date?) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return (nil, nil) }
        var base64 = String(parts[1].replacing("-", with: "+").replacing("_", with: "/"))
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
            let claims = try? JSONDecoder().decode([String: JSONValue].self, from: data)
        else { return (nil, nil) }
        return (date(claims["iat"]), date(claims["exp"]))
    }

    package static func expiry(of token: String) -> Date? {
        times(of: token).expiresAt
    }

    /// The NumericDates swaggerctl believes: from 1970 to the end of 9999. A time outside them (a negative
    /// `exp`, one in year 300000, NaN) says nothing usable, so the token is treated as having none, and no
    /// such date ever reaches the session list.
    package static let sensible: ClosedRange<TimeInterval> = 0...253_402_300_799

    private static func date(_ claim: JSONValue?) -> Date? {
        let seconds: TimeInterval? =
            switch claim {
            case .integer(let seconds): TimeInterval(seconds)
            case .number(let seconds): seconds
            default: nil
            }
        guard let seconds, sensible.contains(seconds) else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }
}
