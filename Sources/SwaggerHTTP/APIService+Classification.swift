import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import SwaggerModel

extension APIService {
    /// The operations, which read 401 and 403 differently.
    enum Operation {
        /// A login, or an OAuth 2 grant's token request: 401 and 403 mean refused credentials, and so does a 400
        /// that says so (RFC 6749's `invalid_grant`, or words about the credentials) or that the document declares.
        case login
        /// `POST /User/RefreshToken`, Identity's `/refresh`: 401 means the session has ended.
        case refresh
        /// An OAuth 2 refresh (RFC 6749 §6): only `invalid_grant` means the session has ended.
        case oauth2Refresh
        /// An RFC 7009 revocation, which needs no bearer token.
        case revocation
        /// `POST /User/Logout`, `swaggerctl api`: 401 means the bearer token was rejected.
        case bearer
        /// A profile request: as ``bearer``, and an answer that is not a JSON object is not a profile.
        case profile
    }

    /// Whether a login's failing answer refuses the credentials, rather than the request: 401 and 403, and
    /// another 4xx that the description's criteria (from the server's document) say refuse them, that RFC 6749 calls
    /// `invalid_grant`, or whose message speaks of the credentials.
    static func refusesCredentials(status: Int, code: String?, message: String?, refused: Bool) -> Bool {
        switch status {
        case 401, 403: return true
        case 400..<500:
            if refused || code == "invalid_grant" { return true }
            // A code that names another cause (invalid_client, invalid_scope) is not the password's fault.
            guard code == nil, let message else { return false }
            return APIServiceError.speaksOfCredentials(message)
        default: return false
        }
    }

    /// Throws the error for a response that is not a success, nor one that `outcomes` count as one (a revocation's
    /// "revoked" and "gone"), with the command's secrets hidden in whatever it quotes.
    func requireSuccess(_ response: APIResponse, _ operation: Operation, outcomes: DescribedAPI.Outcomes = .init())
        throws(APIServiceError)
    {
        guard !response.isSuccess else { return }
        let exchange = Self.exchange(response)
        guard !outcomes.success.anyHolds(in: exchange) else { return }
        if outcomes.ended.anyHolds(in: exchange) { throw .refreshRejected }
        throw secretBook.scrub(
            Self.failure(response, operation: operation, refused: outcomes.refused.anyHolds(in: exchange)))
    }

    /// An answer as criteria read it: its status, headers and, where it is JSON, its body.
    static func exchange(_ response: APIResponse) -> Exchange {
        Exchange(
            method: "", url: response.url, status: response.status, responseHeaders: response.headers,
            responseBody: JSONValue(parsing: response.body))
    }

    /// The error for a response whose status is not a success, with the server's own words where its body has
    /// them. `refused` says the description's criteria hold the answer to refuse the credentials.
    static func failure(_ response: APIResponse, operation: Operation, refused: Bool = false) -> APIServiceError {
        let (status, body) = (response.status, response.body)
        let code = oauth2Error(json: body)
        switch (status, operation) {
        // A refused DPoP proof (RFC 9449 §5, §8) is the request's fault, a clock or a nonce, never the credentials':
        // it ends no session.
        case (400..<500, _) where code == "invalid_dpop_proof" || code == "use_dpop_nonce":
            return .requestRejected(status: status, message: serverMessage(json: body))
        case (_, .login)
        where refusesCredentials(status: status, code: code, message: serverMessage(json: body), refused: refused):
            return .badCredentials(status: status, message: serverMessage(json: body))
        // A session ends only on a definite answer, since ending it deletes it: the original API's and Identity's
        // 401, or RFC 6749's invalid_grant. A token endpoint's other refusals (a field it wanted, a client it
        // does not know, a bare 401) say the request was not what it takes, not that the session is over.
        case (401, .refresh),
            (400, .oauth2Refresh) where code == "invalid_grant",
            (401, .oauth2Refresh) where code == "invalid_grant":
            return .refreshRejected
        case (401, .bearer), (401, .profile): return .tokenRejected(challenge: challengeScheme(response))
        case (403, .bearer), (403, .profile): return .forbidden(message: serverMessage(json: body))
        // Retried first where that is safe; still busy after that is the server's trouble, not the request's.
        case (429, _): return .serverFailed(status: status)
        default: return failure(status: status, location: response.header("Location"), body: body)
        }
    }

    /// The authentication scheme of the first challenge in `WWW-Authenticate` (RFC 9110 §11.6.1), lowercased:
    /// `token` for Django REST framework's TokenAuthentication.
    static func challengeScheme(_ response: APIResponse) -> String? {
        guard let value = response.header("WWW-Authenticate")?.trimmingWhitespace(), !value.isEmpty else {
            return nil
        }
        let scheme = value.prefix { $0 != " " && $0 != "," }
        guard !scheme.isEmpty, scheme.count <= 64 else { return nil }
        return scheme.lowercased()
    }

    /// The `error` member of an OAuth 2 error answer (RFC 6749 §5.2).
    static func oauth2Error(json body: Data?) -> String? {
        guard let body,
            case .string(let code)? = try? JSONDecoder().decode([String: JSONValue].self, from: body)["error"]
        else { return nil }
        return code
    }

    private static func failure(status: Int, location: String?, body: Data?) -> APIServiceError {
        switch status {
        case 300..<400: .redirected(status: status, location: location)
        case 400..<500: .requestRejected(status: status, message: serverMessage(json: body))
        case 500..<600: .serverFailed(status: status)
        default: .contractViolation("an unexpected status (HTTP \(status))")
        }
    }

    /// The members that carry an error body's sentence for people, best first: this API's `message`, OAuth 2's
    /// `error_description` (RFC 6749 §5.2), RFC 9457's `detail` and `title`, the bare `error` code, and Django
    /// REST framework's `non_field_errors`, a list of sentences.
    static let messageMembers = ["message", "error_description", "detail", "title", "error", "non_field_errors"]

    /// The sentence a JSON error body carries for people, when it has one, or else the body's object as compact
    /// JSON. It is the server's text: whoever shows it quotes it, cuts it and sanitises it, after the ``Redactor``
    /// has hidden the secrets in it whole.
    package static func serverMessage(json body: Data?) -> String? {
        guard let body, let object = try? JSONDecoder().decode([String: JSONValue].self, from: body) else {
            return nil
        }
        for key in messageMembers {
            var value = object[key]
            if case .array(let sentences)? = value { value = sentences.first }
            if let text = sentence(in: value) { return text }
        }
        // A list of error objects, as allauth and JSON:API send: the first one's sentence.
        if case .array(let errors)? = object["errors"], let text = sentence(in: errors.first) { return text }
        // Without a sentence, the object itself says what was wrong, as Django REST framework's field errors do:
        // {"refresh":["This field is required."]}.
        return object.isEmpty ? nil : JSONValue.object(object).compactJSON
    }

    /// A sentence: text, or the first of ``messageMembers`` of an object that is text.
    private static func sentence(in value: JSONValue?) -> String? {
        switch value {
        case .string(let text)? where !text.trimmingWhitespace().isEmpty: return text
        case .object(let members)?:
            for key in messageMembers {
                if case .string(let text)? = members[key], !text.trimmingWhitespace().isEmpty { return text }
            }
            return nil
        default: return nil
        }
    }
}
