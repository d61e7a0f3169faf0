import FoundationEssentials
import NIOHTTP1
import SwaggerModel
import Synchronization

/// Hides secrets in whatever leaves swaggerctl from an exchange: each line of `--verbose`, and each server
/// message quoted in an error line.
///
/// Two rules work together. By value: every secret of the exchange (the password, the client secret, the
/// tokens sent, a proxy's password, and the tokens a login or refresh answer brings) is hidden wherever it
/// appears, as it is and as JSON, a form or a URL would escape it; that holds whatever a server echoes, and
/// wherever. By name: credential headers, and JSON members, form fields and URL query parameters whose names
/// say they carry a credential, are hidden even when their values are not known.
struct Redactor: Sendable {
    static let mask = "[redacted]"

    /// Headers that carry credentials or sessions, whatever their names say, in lower case.
    static let headers: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// Names that carry credentials, compared without case, `_` or `-`: the usual ones, SimpleJWT's `access`
    /// and `refresh`, and session ids.
    static let names: Set<String> = [
        "password", "token", "secret", "apikey", "jwt", "bearer", "session", "sessionid", "access", "refresh",
        "credential", "credentials",
        // RFC 8628's device code, which polls for tokens, and PKCE's verifier, which redeems a code.
        "devicecode", "codeverifier",
    ]

    /// Endings of names that carry credentials: `access_token`, `X-Auth-Token`, `client_secret`, `x-api-key`,
    /// `X-Session`, `X-JWT`.
    static let nameEndings = ["token", "secret", "password", "apikey", "sessionid", "session", "jwt"]

    /// The shortest secret hidden by value. Shorter ones are left to the rules by name: hiding every `pw` in
    /// a log would hide the log.
    static let shortest = 4

    private var secrets: [String]

    init(secrets: [String?]) {
        self.secrets = []
        learn(secrets)
    }

    /// Adds `secrets`, such as the tokens of an answer, to those hidden by value.
    mutating func learn(_ more: [String?]) {
        // Every page of `api --paginate` brings the token again, known since the first.
        guard more.contains(where: { $0.map { !secrets.contains($0) } ?? false }) else { return }
        let known = Set(secrets)
        let new = more.compactMap { $0 }.filter { $0.count >= Self.shortest && !known.contains($0) }
        // Longest first, so that a secret that holds another is hidden whole.
        secrets = (secrets + Set(new)).sorted { $0.count > $1.count }
    }

    /// Learns the tokens of a login or refresh answer before it is shown: the members that the server's
    /// description names (`fields`), every string anywhere in it that could be a token, and the values of
    /// credential headers.
    mutating func learnTokens(in body: Data, headers fields: HTTPHeaders, described: [String: Yield]?) {
        var found: [String?] = fields.filter { Self.isSecret(header: $0.name) }.map(\.value)
        let answer = JSONValue(parsing: body)
        if let described {
            // The tokens where the description says they are, a header's as well as a member's.
            let exchange = Exchange(
                method: "", url: URL(filePath: "/"),
                responseHeaders: fields.map { HeaderField(name: $0.name, value: $0.value) },
                responseBody: answer)
            for name in [Yield.access, Yield.refresh] {
                if case .string(let token)? = described[name]?.value(in: exchange, inputs: { _ in nil }) {
                    found.append(token)
                }
            }
        }
        if let answer {
            // An e-mail address or a URL is not a token, and hiding it would hide what the log is for.
            found += Self.strings(in: answer).filter { text in
                text.count >= 16 && Credentials.isToken(text) && !text.contains("@") && !text.contains("://")
            }
        }
        learn(found)
    }

    /// Whether a header's value is hidden whole.
    static func isSecret(header name: String) -> Bool {
        headers.contains(name.lowercased()) || isSecret(name)
    }

    /// A header's value as `--verbose` shows it.
    func header(_ name: String, _ value: String) -> String {
        Self.isSecret(header: name) ? Self.mask : scrub(value)
    }

    /// A body as text, as received: JSON with its credential members hidden, form fields likewise, anything
    /// else as UTF-8; then every known secret and credential URL parameter hidden, and the text cut to `limit`
    /// bytes.
    func body(_ data: Data, contentType: String?, limit: Int) -> String {
        var text: String
        if let json = JSONValue(parsing: data) {
            // A credential member's string is hidden where it stands, so that the rest keeps the server's own
            // bytes. What is shown must read as the same JSON as that written again with those members hidden;
            // otherwise (a number hidden by name, a string too short to hide by value or escaped another way) the
            // JSON is written again.
            let redacted = Self.redacted(json).compactJSON
            if let hidden = Self.hiddenStrings(in: json), hidden.allSatisfy({ $0.count >= Self.shortest }) {
                var byName = self
                byName.learn(hidden)
                let shown = byName.scrub(String(decoding: data, as: UTF8.self))
                let read = { (text: String) in JSONValue(parsing: text) }
                if let value = read(shown), value == read(scrub(redacted)) {
                    return Self.cut(shown, of: data, to: limit)
                }
            }
            text = redacted
        } else if contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true {
            text = Self.redactedForm(String(decoding: data, as: UTF8.self))
        } else {
            text = String(decoding: data, as: UTF8.self)
        }
        return Self.cut(scrub(text), of: data, to: limit)
    }

    private static func cut(_ text: String, of data: Data, to limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        let cut = String(decoding: text.utf8.prefix(limit), as: UTF8.self)
        return "\(cut)… (\(data.count) bytes)"
    }

    /// The non-empty values of the credential members in `value`, which must all be strings: `nil` when one is not.
    private static func hiddenStrings(in value: JSONValue) -> [String]? {
        var found: [String] = []
        switch value {
        case .object(let members):
            for (name, member) in members {
                if isSecret(name) {
                    guard case .string(let text) = member else { return nil }
                    if !text.isEmpty { found.append(text) }
                } else {
                    guard let inner = hiddenStrings(in: member) else { return nil }
                    found += inner
                }
            }
        case .array(let elements):
            for element in elements {
                guard let inner = hiddenStrings(in: element) else { return nil }
                found += inner
            }
        default:
            break
        }
        return found
    }

    /// `text` with every known secret hidden, as it is and as JSON, a form or a URL would escape it, and with
    /// the values of URL parameters that carry credentials (`?access_token=…`, `#id_token=…`) hidden.
    func scrub(_ text: String) -> String {
        var text = text
        for secret in secrets {
            for form in Self.spellings(of: secret) where text.contains(form) {
                text = text.replacing(form, with: Self.mask)
            }
        }
        return Self.redactedParameters(text)
    }

    /// `value` with every known secret hidden in its strings: a profile, which is shown, kept for when the server
    /// cannot be reached, and read by scripts. Unlike a log line, nothing is hidden by its name alone: a profile's
    /// URLs and members are the person's data.
    func scrub(_ value: JSONValue) -> JSONValue {
        guard !secrets.isEmpty else { return value }
        // A profile's strings are decoded JSON, so a secret stands in them as it is, not escaped as a log's raw body or
        // a URL would have it.
        let forms = secrets.map { ($0, $0.utf8.count) }
        // Most of a profile is shorter than any token: its length rules it out without a search, and a profile that
        // holds no secret, as almost every one, is handed back as it is rather than built again.
        func holds(_ text: String) -> Bool {
            let length = text.utf8.count
            return forms.contains { form, count in length >= count && text.contains(form) }
        }
        func found(_ value: JSONValue) -> Bool {
            switch value {
            case .string(let text): holds(text)
            case .array(let elements): elements.contains(where: found)
            case .object(let members): members.values.contains(where: found)
            default: false
            }
        }
        func hidden(_ value: JSONValue) -> JSONValue {
            switch value {
            case .string(var text) where holds(text):
                for (form, _) in forms where text.contains(form) { text = text.replacing(form, with: Self.mask) }
                return .string(text)
            case .array(let elements): return .array(elements.map(hidden))
            case .object(let members): return .object(members.mapValues(hidden))
            default: return value
            }
        }
        return found(value) ? hidden(value) : value
    }

    /// `error` with every text that a server supplied scrubbed.
    func scrub(_ error: APIServiceError) -> APIServiceError {
        switch error {
        case .badCredentials(let status, let message): .badCredentials(status: status, message: message.map(scrub))
        case .forbidden(let message): .forbidden(message: message.map(scrub))
        case .requestRejected(let status, let message): .requestRejected(status: status, message: message.map(scrub))
        case .redirected(let status, let location): .redirected(status: status, location: location.map(scrub))
        case .contractViolation(let detail): .contractViolation(scrub(detail))
        case .notAProfile(let detail): .notAProfile(scrub(detail))
        case .unreachable(let detail): .unreachable(scrub(detail))
        case .elsewhere(let origin, let failure): .elsewhere(origin, scrub(failure))
        case .tokenNotBound(let type): .tokenNotBound(scrub(type))
        case .tokenRejected, .refreshRejected, .serverFailed, .timedOut, .tls, .requestTooLarge, .proxyFailed, .notHTTP,
            .clientKeyUnusable:
            error
        }
    }

    private static func spellings(of secret: String) -> Set<String> {
        var forms: Set<String> = [secret]
        // JSON writes a token of printable ASCII without `"`, `\` and `/` as it is: the encoder, the costliest step of
        // a command's first redaction, is for the rest.
        let plain = secret.utf8.allSatisfy { (0x20..<0x7F).contains($0) && !"\"\\/".utf8.contains($0) }
        if !plain, let encoded = try? JSONEncoder().encode(secret) {
            forms.insert(String(decoding: encoded.dropFirst().dropLast(), as: UTF8.self))
        }
        // Percent-encoded as a URL with all but letters and digits escaped, and as a form writes it.
        forms.insert(PercentEncoding.encode(secret) { $0 < 0x80 && Character(Unicode.Scalar($0)).isLetterOrDigit })
        forms.insert(FormEncoding.escape(secret))
        return forms
    }

    static func isSecret(_ name: String) -> Bool {
        let normalized = name.lowercased().filter { $0 != "_" && $0 != "-" }
        return names.contains(normalized) || nameEndings.contains { normalized.hasSuffix($0) }
    }

    private static func strings(in value: JSONValue) -> [String] {
        switch value {
        case .string(let text): [text]
        case .array(let elements): elements.flatMap(strings)
        case .object(let members): members.values.flatMap(strings)
        default: []
        }
    }

    private static func redacted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            .object(members.reduce(into: [:]) { $0[$1.key] = isSecret($1.key) ? .string(mask) : redacted($1.value) })
        case .array(let elements):
            .array(elements.map(redacted))
        default:
            value
        }
    }

    private static func redactedForm(_ form: String) -> String {
        form.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentEncoding.decode(String(parts[0])) ?? String(parts[0])
            return isSecret(name) ? "\(parts[0])=\(mask)" : String(pair)
        }.joined(separator: "&")
    }

    /// `name=value` after `?`, `&`, `#` or `;`, as URLs carry parameters in a `Location`, a `Link` or a body's
    /// `next`.
    /// A `Regex` is never changed once made, but is not marked `Sendable`.
    nonisolated(unsafe) private static let parameter =
        /(?<lead>[?&#;])(?<name>[A-Za-z0-9_.%-]+)=(?<value>[^&#;\s"'<>\\]*)/

    private static func redactedParameters(_ text: String) -> String {
        guard text.contains("=") else { return text }
        return text.replacing(parameter) { match in
            let name = String(match.name)
            guard isSecret(PercentEncoding.decode(name) ?? name), !match.value.isEmpty else { return match.0 }
            return Substring("\(match.lead)\(name)=\(mask)")
        }
    }
}

/// Every secret of one command's exchanges, for the ``Redactor`` of each line and error that leaves it.
///
/// A command makes several requests: a login and then the profile, a refresh and then the person's request. A
/// server may echo in a later answer what an earlier one carried (the password, the refresh token it issued),
/// so the secrets are the command's, not a request's: every request adds what it sends, and a login or refresh
/// answer adds its tokens as soon as it is read, before it is shown or turned into an error.
final class SecretBook: Sendable {
    private let known = Mutex(Redactor(secrets: []))

    var redactor: Redactor { known.withLock { $0 } }

    func learn(_ secrets: [String?]) {
        known.withLock { $0.learn(secrets) }
    }

    func learnTokens(in body: Data, headers: HTTPHeaders, described: [String: Yield]?) {
        known.withLock { $0.learnTokens(in: body, headers: headers, described: described) }
    }

    func scrub(_ error: APIServiceError) -> APIServiceError {
        redactor.scrub(error)
    }

    func scrub(_ profile: Profile) -> Profile {
        guard case .object(let fields) = redactor.scrub(.object(profile.fields)) else { return profile }
        return Profile(fields: fields)
    }
}

extension Character {
    fileprivate var isLetterOrDigit: Bool { isLetter || isNumber }
}
