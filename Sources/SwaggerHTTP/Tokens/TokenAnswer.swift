import FoundationEssentials
import SwaggerModel

/// A login or refresh answer, read with the server description's member names.
enum TokenAnswer {
    /// `bound` says the request carried a DPoP proof, so that the token must be bound to its key.
    static func grant(from body: Data?, contentType: String?, fields: TokenFields, operation: String, bound: Bool)
        throws(APIServiceError) -> TokenGrant
    {
        if let named = MediaType.other(than: "json", contentType) {
            throw .contractViolation("the \(operation) response's Content-Type is \"\(named)\", not JSON")
        }
        guard let body, let answer = try? JSONDecoder().decode(JSONValue.self, from: body) else {
            let sent = contentType.map { "it sent \"\($0)\" instead of JSON" } ?? "it sent no JSON body"
            throw .contractViolation("the \(operation) response is not JSON: \(sent)")
        }
        guard case .string(let access)? = answer[path: fields.accessToken], !access.isEmpty else {
            throw .contractViolation("the \(operation) response has no access token in \"\(fields.accessToken)\"")
        }
        let refresh: String? =
            switch answer[path: fields.refreshToken] {
            case .string(let value) where !value.isEmpty: value
            default: nil
            }
        guard Credentials.isToken(access), refresh.map(Credentials.isToken) ?? true else {
            throw .contractViolation("the \(operation) response's token has characters that no token has")
        }
        // RFC 6749 §7.1: a client must understand the token type; a Bearer client cannot use a MAC token. A token
        // asked for with a proof must be bound to its key (RFC 9449 §5): a Bearer one would work for anyone.
        let type: String? = if case .string(let type)? = answer[path: "token_type"] { type.lowercased() } else { nil }
        if bound, type != "dpop" { throw .tokenNotBound(type ?? "none") }
        if !bound, let type, type != "bearer" {
            throw .contractViolation("the \(operation) response's token type is \"\(type)\", not Bearer")
        }
        let lifetime: Int64? =
            switch answer[path: fields.expiresIn] {
            case .integer(let seconds): seconds
            case .number(let seconds): Int64(exactly: seconds.rounded())
            case .string(let text): Int64(text)
            default: nil
            }
        let idToken: String? = if case .string(let token)? = answer[path: "id_token"] { token } else { nil }
        let username: String? =
            if let member = fields.username, case .string(let name)? = answer[path: member], !name.isEmpty { name } else
            { nil }
        return TokenGrant(
            accessToken: access, refreshToken: refresh, username: username,
            expiresIn: lifetime.flatMap(fields.unit.duration), idToken: idToken)
    }
}
