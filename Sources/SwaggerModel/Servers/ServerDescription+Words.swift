import FoundationEssentials

// The shorthand's words: the shapes of requests that the description language named before steps were requests
// (``ServerDescription/Shorthand``), in which discovery still says what a document shows.

/// How a login's body is written.
package enum BodyEncoding: String, Sendable, Hashable, Codable {
    case json
    /// `application/x-www-form-urlencoded`, as HTML forms and OAuth 2's token endpoint take it.
    case form
}

/// How a login signs in.
package enum LoginShape: String, Sendable, Hashable, Codable {
    /// The account and the password are posted, and the answer holds the tokens.
    case post
    /// There is no login request: every request carries the account and the password by HTTP Basic (RFC 7617),
    /// so they are what is kept, in place of a token, and the profile request is what checks them.
    case basic
}

/// How a refresh sends the refresh token.
package enum RefreshShape: Sendable, Hashable {
    /// A JSON object with the token under this member.
    case json(field: String)
    /// RFC 6749 §6's form: `grant_type=refresh_token` and `refresh_token`.
    case grant
    /// As the bearer of an empty `POST`, as flask-jwt-extended and Flask-AppBuilder take it.
    case bearer
}

/// How a logout ends the session on the server.
package enum RevocationShape: Sendable, Hashable {
    /// RFC 7009: each token in a form with `token_type_hint`, the refresh token first.
    case rfc7009
    /// A JSON object with the refresh token under this member, with the access token as the bearer.
    case json(field: String)
    /// A request with this method and no body for each token, as the bearer: fastapi-users' `POST`,
    /// flask-jwt-extended's `DELETE`, dj-rest-auth's `POST` with its token.
    case bearer(method: String)
}

/// The names of the members of a login or refresh answer that hold the tokens. A name with dots is a path
/// into nested objects (`data.token`).
package struct TokenFields: Sendable, Hashable, Codable {
    package var accessToken: String
    package var refreshToken: String
    /// The member with the access token's lifetime, in ``unit``s.
    package var expiresIn: String
    /// The unit of the lifetime: seconds (RFC 6749's `expires_in`), or milliseconds (Matrix's `expires_in_ms`).
    package var unit: LifetimeUnit = .seconds
    /// The member that names the user who signed in, where the answer has one (the original API's `username`).
    package var username: String?

    package init(accessToken: String, refreshToken: String, expiresIn: String) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }

    /// ASP.NET Core Identity's `AccessTokenResponse`, which the original API shares.
    static let camelCase = TokenFields(
        accessToken: "accessToken", refreshToken: "refreshToken", expiresIn: "expiresIn")
    /// RFC 6749 §5.1.
    package static let oauth2 = TokenFields(
        accessToken: "access_token", refreshToken: "refresh_token", expiresIn: "expires_in")
}

/// The unit of a token's lifetime, as the description language writes it: `s` or `ms`.
package enum LifetimeUnit: String, Sendable, Hashable, Codable {
    case seconds = "s"
    case milliseconds = "ms"

    /// A lifetime of `count` of this unit, rounded down to whole seconds; `nil` for none that is positive.
    package func duration(_ count: Int64) -> Duration? {
        let seconds = self == .milliseconds ? count / 1000 : count
        return seconds > 0 ? .seconds(seconds) : nil
    }
}

/// The shapes as the description language writes them: `json:NAME`, `grant`, `bearer`, `rfc7009`, `bearer:METHOD`.
/// A text that is none of these is refused, never guessed at.
private func shapeParts(_ text: String) -> (name: String, argument: String?) {
    guard let colon = text.firstIndex(of: ":") else { return (text, nil) }
    let argument = String(text[text.index(after: colon)...])
    return (String(text[..<colon]), argument.isEmpty ? nil : argument)
}

extension RefreshShape {
    package init?(text: String) {
        switch shapeParts(text) {
        case ("grant", nil): self = .grant
        case ("bearer", nil): self = .bearer
        case ("json", let field?): self = .json(field: field)
        default: return nil
        }
    }

    package var text: String {
        switch self {
        case .json(let field): "json:" + field
        case .grant: "grant"
        case .bearer: "bearer"
        }
    }
}

extension RevocationShape {
    package init?(text: String) {
        switch shapeParts(text) {
        case ("rfc7009", nil): self = .rfc7009
        case ("json", let field?): self = .json(field: field)
        case ("bearer", let method?) where ["POST", "DELETE"].contains(method): self = .bearer(method: method)
        default: return nil
        }
    }

    package var text: String {
        switch self {
        case .rfc7009: "rfc7009"
        case .json(let field): "json:" + field
        case .bearer(let method): "bearer:" + method
        }
    }
}
