/// What a step's answer yields, by name: a runtime expression over the answer (`$response.header.X-Subject-Token`,
/// `$response.body#/token/expires_at`), or a template over the step's inputs (`{basic}`, for a login that sends
/// nothing).
///
/// Some names mean something to every step: ``access``, ``refresh``, ``expiresIn`` (seconds), ``expiresInMs``,
/// ``expiresAt`` (an RFC 3339 time or seconds since 1970), ``account`` (who signed in), ``tokenType`` and
/// ``idToken``. Any other name is kept with the session, for a later step's template: the login's `user_id` in the
/// profile's URL.
package enum Yield: Sendable, Hashable, CustomStringConvertible {
    case expression(RuntimeExpression)
    case template(Template)

    package static let access = "access"
    package static let refresh = "refresh"
    package static let expiresIn = "expiresIn"
    package static let expiresInMs = "expiresInMs"
    package static let expiresAt = "expiresAt"
    package static let account = "account"
    package static let tokenType = "tokenType"
    package static let idToken = "idToken"
    /// The names that are the session's tokens and times, which are never kept among its outputs.
    package static let standard: Set<String> = [
        access, refresh, expiresIn, expiresInMs, expiresAt, account, tokenType, idToken,
    ]

    /// Reads a yield: an expression, which starts with `$`, or a template.
    /// - Throws: ``JSONPointer/Invalid`` for one that is neither.
    package init(_ text: String) throws(JSONPointer.Invalid) {
        self = text.hasPrefix("$") ? .expression(try RuntimeExpression(text)) : .template(try Template(text))
    }

    /// The member of the answer's body that `path` names with dots, as the description language named it before
    /// expressions: `data.token` is `$response.body#/data/token`.
    package static func member(_ path: String) -> Yield {
        .expression(.responseBody(JSONPointer(dotted: path)))
    }

    package var description: String {
        switch self {
        case .expression(let expression): expression.description
        case .template(let template): template.description
        }
    }

    /// Whether the yield reads the answer's body.
    package var readsResponseBody: Bool {
        if case .expression(let expression) = self { expression.readsResponseBody } else { false }
    }

    /// The value in `exchange`, or from `inputs`: a string, a number or whatever the body holds there.
    package func value(in exchange: Exchange?, inputs: (String) -> String?) -> JSONValue? {
        switch self {
        case .expression(let expression): exchange.flatMap(expression.value)
        case .template(let template):
            if case .text(let text) = template.expanded(inputs) { .string(text) } else { nil }
        }
    }
}

extension [String: Yield] {
    /// RFC 6749 §5.1's members: `access_token`, `refresh_token`, `expires_in`.
    package static let oauth2: Self = [
        Yield.access: .member("access_token"), Yield.refresh: .member("refresh_token"),
        Yield.expiresIn: .member("expires_in"),
    ]

    /// Whether any yield reads the answer's body.
    package var readBody: Bool { values.contains(where: \.readsResponseBody) }
}
