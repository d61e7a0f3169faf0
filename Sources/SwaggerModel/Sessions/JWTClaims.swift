import FoundationEssentials

/// Reads the expiry of an access token that is a JWT, without verifying it.
///
/// Only the server can verify a token; swaggerctl reads `exp` so that `status` can say when a session
/// ends. A token that is not a JWT simply has no known expiry.
package enum JWTClaims {
    /// When the token was issued (`iat`) and when it expires (`exp`), each `nil` when the token is not a JWT or
    /// does not say.
    package static func times(of token: String) -> (issuedAt: Date?, expiresAt: Date?) {
        guard let claims = claims(of: token) else { return (nil, nil) }
        return (date(claims["iat"]), date(claims["exp"]))
    }

    /// The claims of a JWT, unverified; `nil` when `token` is not a JWT.
    static func claims(of token: String) -> [String: JSONValue]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var base64 = String(parts[1].replacing("-", with: "+").replacing("_", with: "/"))
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return nil }
        return try? JSONDecoder().decode([String: JSONValue].self, from: data)
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

/// Who signed in, as OpenID Connect's claims name them: an e-mail, a user name, and the subject.
package struct Identity: Sendable, Hashable {
    package var email: String?
    var preferredUsername: String?
    package var subject: String?

    /// Reads the claims of an ID token or a userinfo answer (OpenID Connect Core §5.1); `nil` when none is there.
    package init?(claims: [String: JSONValue]) {
        func text(_ name: String) -> String? {
            switch claims[name] {
            case .string(let value)? where !value.isEmpty && value.count <= 256: value
            case .integer(let value)?: String(value)
            default: nil
            }
        }
        email = text("email")
        preferredUsername = text("preferred_username") ?? text("username")
        subject = text("sub")
        guard email != nil || preferredUsername != nil || subject != nil else { return nil }
    }

    /// Who a profile answer says it is.
    package init?(profile: Profile) {
        self.init(claims: profile.fields)
    }

    /// The name a session is kept under: the e-mail, else the user name, else the subject.
    package var name: String { email ?? preferredUsername ?? subject ?? "" }

    /// Whether `given` names this account: its e-mail (without regard to case), user name or subject.
    package func matches(_ given: String) -> Bool {
        email?.lowercased() == given.lowercased() || preferredUsername == given || subject == given
    }
}

extension JWTClaims {
    /// Who an ID token says signed in, read without verifying it: it came straight from the token endpoint, over
    /// the connection that was checked (OpenID Connect Core §3.1.3.7).
    package static func identity(of token: String) -> Identity? {
        claims(of: token).flatMap(Identity.init(claims:))
    }
}

extension Profile {
    /// A client's own session described as a profile, from what its token says (unverified, as `status` reads
    /// expiry): the client, the scope it was given, who issued the token, and when it expires. A token that is not
    /// a JWT says only the client.
    package init(client: String, token: String) {
        var fields: [String: JSONValue] = ["client_id": .string(client)]
        let claims = JWTClaims.claims(of: token) ?? [:]
        for name in ["scope", "iss", "sub"] {
            if case .string(let value)? = claims[name], !value.isEmpty { fields[name] = .string(value) }
        }
        if let expiry = JWTClaims.times(of: token).expiresAt {
            fields["expires_at"] = .string(expiry.formatted(.iso8601))
        }
        self.init(fields: fields)
    }
}
