import FoundationEssentials
import SwaggerModel

/// A login or refresh answer, read with the step's yields.
enum TokenAnswer {
    /// The grant `response` holds where `yields` say, a yield that is a template made from `inputs`. `bound` says
    /// the request carried a DPoP proof, so that the token must be bound to its key.
    static func grant(
        from response: APIResponse, yields: [String: Yield], inputs: (String) -> String? = { _ in nil },
        operation: String, bound: Bool
    ) throws(APIServiceError) -> TokenGrant {
        let contentType = response.header("Content-Type")
        var body: JSONValue?
        // An answer whose tokens are in its body must be JSON; one that keeps them in headers (Keystone's) may say
        // the rest however it likes.
        if yields.readBody || yields[Yield.access] == nil {
            if let named = MediaType.other(than: "json", contentType) {
                throw .contractViolation("the \(operation) response's Content-Type is \"\(named)\", not JSON")
            }
            guard let answer = JSONValue(parsing: response.body) else {
                let sent = contentType.map { "it sent \"\($0)\" instead of JSON" } ?? "it sent no JSON body"
                throw .contractViolation("the \(operation) response is not JSON: \(sent)")
            }
            body = answer
        } else {
            body = JSONValue(parsing: response.body)
        }
        let exchange = Exchange(
            method: "POST", url: response.url, status: response.status, responseHeaders: response.headers,
            responseBody: body)
        func value(_ name: String, else fallback: Yield? = nil) -> JSONValue? {
            (yields[name] ?? fallback)?.value(in: exchange, inputs: inputs)
        }
        func text(_ name: String, else fallback: Yield? = nil) -> String? {
            if case .string(let text)? = value(name, else: fallback), !text.isEmpty { text } else { nil }
        }
        guard let access = text(Yield.access) else {
            throw .contractViolation(
                "the \(operation) response has no access token in \(place(of: yields[Yield.access]))")
        }
        let refresh = text(Yield.refresh)
        guard Credentials.isToken(access), refresh.map(Credentials.isToken) ?? true else {
            throw .contractViolation("the \(operation) response's token has characters that no token has")
        }
        // RFC 6749 §7.1: a client must understand the token type; a Bearer client cannot use a MAC token. A token
        // asked for with a proof must be bound to its key (RFC 9449 §5): a Bearer one would work for anyone.
        let type = text(Yield.tokenType, else: .member("token_type"))?.lowercased()
        if bound, type != "dpop" { throw .tokenNotBound(type ?? "none") }
        if !bound, let type, type != "bearer" {
            throw .contractViolation("the \(operation) response's token type is \"\(type)\", not Bearer")
        }
        let lifetime: Duration? =
            if let seconds = integer(value(Yield.expiresIn)) {
                seconds > 0 ? .seconds(seconds) : nil
            } else if let milliseconds = integer(value(Yield.expiresInMs)) {
                milliseconds >= 1000 ? .seconds(milliseconds / 1000) : nil
            } else {
                nil
            }
        var outputs: [String: String] = [:]
        for name in yields.keys where !Yield.standard.contains(name) {
            switch value(name) {
            case .string(let text)?: outputs[name] = text
            case let other? where other != .null: outputs[name] = other.compactJSON
            default: break
            }
        }
        return TokenGrant(
            accessToken: access, refreshToken: refresh, username: text(Yield.account), expiresIn: lifetime,
            idToken: text(Yield.idToken, else: .member("id_token")), expiresAt: date(value(Yield.expiresAt)),
            outputs: outputs)
    }

    /// A lifetime as the server wrote it: a number, or text of one.
    private static func integer(_ value: JSONValue?) -> Int64? {
        switch value {
        case .integer(let number)?: number
        case .number(let number)?: number.isFinite ? Int64(exactly: number.rounded()) : nil
        case .string(let text)?: Int64(text)
        default: nil
        }
    }

    /// An absolute expiry: an RFC 3339 time (Keystone's `2026-12-02T05:06:03.000000Z`, knox's with an offset), or
    /// seconds since 1970.
    static func date(_ value: JSONValue?) -> Date? {
        switch value {
        case .string(let text)?: Timestamp.date(from: text)
        case .integer(let seconds)?: Date(timeIntervalSince1970: TimeInterval(seconds))
        case .number(let seconds)? where seconds.isFinite: Date(timeIntervalSince1970: seconds)
        default: nil
        }
    }

    /// Where a yield looks, for a message: `"access_token"`, `the X-Subject-Token header`.
    private static func place(of yield: Yield?) -> String {
        switch yield {
        case .expression(.responseBody(let pointer))?: "\"\(pointer.tokens.joined(separator: "."))\""
        case .expression(.responseHeader(let name))?: "the \(name) header"
        case let other?: "\"\(other)\""
        case nil: "\"access\""
        }
    }
}
