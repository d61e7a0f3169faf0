import FoundationEssentials
import HTTPTypes
import NIOHTTP1
import OpenAPIRuntime

/// Describes each request and response for `--verbose` (and `SWAGGERCTL_DEBUG=1`), as `curl -v` does: method,
/// URL and proxy, status and time, headers, and bodies cut to ``bodyLimit`` bytes. Every secret is shown as
/// `[redacted]` by the ``Redactor``, and each line is sanitised where it is printed.
///
/// It sits inside the retries, so every attempt is described, and outside the ``ResponseRecorder``, so it
/// sees the whole body of the attempt, already read.
struct VerboseLogMiddleware: ClientMiddleware {
    /// How much of a body is shown.
    static let bodyLimit = 400

    var log: @Sendable (String) -> Void
    var redactor: Redactor
    var proxy: ProxySettings.Proxy?

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let target = baseURL.absoluteString + (request.path ?? "")
        log("> \(request.method.rawValue) \(target)" + (proxy.map { " (through the proxy \($0))" } ?? ""))
        for field in request.headerFields { log("> \(field.name): \(redactor.header(field))") }
        var sent: Data?
        if let body { sent = try await Data(collecting: body, upTo: ResponseRecorder.defaultLimit) }
        if let sent, !sent.isEmpty {
            log("> " + redactor.body(sent, contentType: request.headerFields[.contentType], limit: Self.bodyLimit))
        }

        let start = ContinuousClock.now
        let (response, responseBody) = try await next(request, sent.map { HTTPBody($0) } ?? body, baseURL)
        let elapsed = (ContinuousClock.now - start).timeInterval * 1000
        // The transport keeps the code only; the reason phrase comes from the code's standard one.
        let phrase = HTTPResponseStatus(statusCode: response.status.code).reasonPhrase
        log("< HTTP \(response.status.code)\(phrase.isEmpty ? "" : " " + phrase) (\(Int(elapsed.rounded())) ms)")
        for field in response.headerFields { log("< \(field.name): \(redactor.header(field))") }
        guard let responseBody else { return (response, nil) }
        let received = try await Data(collecting: responseBody, upTo: ResponseRecorder.defaultLimit)
        if !received.isEmpty {
            log(
                "< "
                    + redactor.body(received, contentType: response.headerFields[.contentType], limit: Self.bodyLimit))
        }
        return (response, HTTPBody(received))
    }
}

/// Hides secrets in what `--verbose` shows: the values of credential headers, of credential members in JSON
/// and form bodies, and every occurrence of a known secret (the password, the tokens in use, a proxy's
/// password) wherever a server may echo it.
struct Redactor: Sendable {
    static let mask = "[redacted]"

    /// Headers that carry credentials or sessions.
    static let headers: Set<HTTPField.Name> = [.authorization, .proxyAuthorization, .cookie, .setCookie]

    /// JSON members and form fields that carry credentials, compared without case, `_` or `-`.
    static let members: Set<String> = [
        "password", "accesstoken", "refreshtoken", "idtoken", "token", "clientsecret", "secret", "apikey",
    ]

    /// The secrets of this request. Short ones are left to the key-based rules: hiding every `pw` in a log
    /// would hide the log.
    private let secrets: [String]

    init(secrets: [String?]) {
        self.secrets = secrets.compactMap { $0 }.filter { $0.count >= 4 }.sorted { $0.count > $1.count }
    }

    func header(_ field: HTTPField) -> String {
        Self.headers.contains(field.name) ? Self.mask : scrub(field.value)
    }

    /// A body as text on one line: JSON with its credential members hidden, form fields likewise, anything
    /// else as UTF-8; then every known secret hidden, and the text cut to `limit` bytes.
    func body(_ data: Data, contentType: String?, limit: Int) -> String {
        var text: String
        if let json = try? JSONDecoder().decode(JSONValue.self, from: data) {
            text = Self.redacted(json).compactJSON
        } else if contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true {
            text = Self.redactedForm(String(decoding: data, as: UTF8.self))
        } else {
            text = String(decoding: data, as: UTF8.self)
        }
        text = scrub(text)
        guard text.utf8.count > limit else { return text }
        let cut = String(decoding: text.utf8.prefix(limit), as: UTF8.self)
        return "\(cut)… (\(data.count) bytes)"
    }

    /// `text` with every known secret, as it is and as JSON or a form would escape it, hidden.
    func scrub(_ text: String) -> String {
        var text = text
        for secret in secrets {
            for form in Self.spellings(of: secret) where text.contains(form) {
                text = text.replacing(form, with: Self.mask)
            }
        }
        return text
    }

    private static func spellings(of secret: String) -> Set<String> {
        var forms: Set<String> = [secret]
        if let encoded = try? JSONEncoder().encode(secret) {
            forms.insert(String(decoding: encoded.dropFirst().dropLast(), as: UTF8.self))
        }
        // Percent-encoded as a URL with all but letters and digits escaped, and as a form writes it.
        forms.insert(PercentEncoding.encode(secret) { $0 < 0x80 && Character(Unicode.Scalar($0)).isLetterOrDigit })
        forms.insert(FormEncoding.escape(secret))
        return forms
    }

    private static func isSecret(_ name: String) -> Bool {
        members.contains(name.lowercased().filter { $0 != "_" && $0 != "-" })
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
}

extension Data {
    /// The bytes of `body`, up to `limit`.
    init(collecting body: HTTPBody, upTo limit: Int) async throws {
        self.init()
        for try await chunk in body {
            append(contentsOf: chunk.prefix(Swift.max(0, limit - count)))
            if count >= limit { break }
        }
    }
}

extension Character {
    fileprivate var isLetterOrDigit: Bool { isLetter || isNumber }
}
