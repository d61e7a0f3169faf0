import FoundationEssentials
import SwaggerHTTP
import SwaggerModel
import SwaggerOutput

/// What `swaggerctl api` sends, built from its arguments: the method, the URL under the session's server, the
/// extra headers and the body. The session's token is added when it is sent, and nowhere else.
package struct APIRequest: Sendable, Hashable {
    /// The method, upper-cased: `GET` unless given, or `POST` when there is a body.
    package var method: String
    /// The absolute URL, on the session's server.
    package var url: URL
    /// The headers given with `-H`, in order.
    package var headers: [HeaderField]
    /// The body: the `-f` fields as a JSON object, or `--input`; `nil` for none.
    package var body: Data?

    /// The methods whose fields go into the query rather than a body.
    static let queryMethods: Set<String> = ["GET", "HEAD"]

    /// Headers that `-H` may not set: the token is the session's, and the host is the server's.
    static let reservedHeaders: Set<String> = ["authorization", "host", "content-length", "transfer-encoding"]

    /// Builds a request from `swaggerctl api`'s arguments.
    ///
    /// `target` is a path under `server` (`/users/me`, or `users/me`), or an absolute URL on the same origin.
    /// `method` is the `-X` value, if given; `headers` are the `-H` values, each `Name: value`; `fields` are the
    /// `-f` fields, with any `@file` already read. `input` is the `--input` bytes, if given; the fields then go
    /// into the query, whatever the method.
    /// - Throws: `SwaggerError` with code `usage` for anything that cannot be sent.
    package init(
        _ target: String, on server: ServerURL, method: String? = nil, headers: [String] = [],
        fields: [RequestField] = [], input: Data? = nil
    ) throws(SwaggerError) {
        let hasBody = input != nil || !fields.isEmpty
        let method = method?.uppercased() ?? (hasBody ? "POST" : "GET")
        guard !method.isEmpty, method.utf8.allSatisfy(HeaderField.isTokenCharacter) else {
            throw SwaggerError(.usage, "\"\(TerminalText.escaped(method))\" is not an HTTP method.")
        }
        let fieldsInQuery = input != nil || Self.queryMethods.contains(method)
        var url = try Self.url(target, on: server)
        if fieldsInQuery, !fields.isEmpty {
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            // Percent-encoded here: URLComponents leaves `+` as it is, which servers read as a space.
            let items = (components?.percentEncodedQueryItems ?? []) + fields.map(\.queryItem)
            components?.percentEncodedQueryItems = items
            guard let withQuery = components?.url else {
                throw SwaggerError(.usage, "The -f fields cannot be put in the URL's query.")
            }
            url = withQuery
        }
        var body = input
        if input == nil, !fields.isEmpty, !fieldsInQuery {
            body = Data(try RequestField.object(fields).utf8)
        }
        try self.init(
            method: method, url: url,
            headers: headers.map { (text) throws(SwaggerError) in try HeaderField(argument: text) }, body: body)
    }

    /// A request whose parts are made: `contentType` goes with a body unless `headers` name one, and is
    /// `application/json` for JSON otherwise.
    /// - Throws: `SwaggerError` with code `usage` for a body larger than the most a request may send.
    package init(
        method: String, url: URL, headers: [HeaderField], body: Data?, contentType: String? = nil
    ) throws(SwaggerError) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        if let body, body.count > APIService.requestBodyLimit {
            throw SwaggerError(
                .usage,
                "The -f fields make a body larger than \(APIService.requestBodyLimit >> 20) MiB, the most a request "
                    + "body can be.")
        }
        if let body, !self.headers.contains(where: { $0.name.lowercased() == "content-type" }) {
            let type = contentType ?? (JSONText.isJSON(body) ? "application/json" : "application/octet-stream")
            self.headers.append(HeaderField(name: "Content-Type", value: type))
        }
    }

    /// The URL that `target` names on `server`. The session's token goes only to the session's server, so an
    /// absolute URL anywhere else is refused here, before anything is read or sent.
    static func url(_ target: String, on server: ServerURL) throws(SwaggerError) -> URL {
        let trimmed = target.trimmingWhitespace()
        let lowered = trimmed.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            guard let url = URL(string: trimmed), url.host != nil else {
                throw SwaggerError(.usage, "\"\(TerminalText.escaped(trimmed))\" is not a URL.")
            }
            guard server.isSameOrigin(url) else { throw offOrigin(url, server: server) }
            return url
        }
        guard let url = URL(string: server.joining(trimmed)), url.host != nil else {
            throw SwaggerError(
                .usage,
                "\"\(TerminalText.escaped(trimmed))\" is not a path; percent-encode spaces and other characters.")
        }
        guard server.isSameOrigin(url) else { throw offOrigin(url, server: server) }
        return url
    }

    /// A request to `url`, off `server`'s origin, which would take its token elsewhere.
    static func offOrigin(_ url: URL, server: ServerURL) -> SwaggerError {
        SwaggerError(
            .usage,
            "Refusing to send the token for \(server) to \(ServerURL.origin(of: url)?.absoluteString ?? "another host"), "
                + "which did not issue it. Give a path, such as /users/me.")
    }
}

extension HeaderField {
    /// Parses `-H`'s `Name: value`.
    init(argument: String) throws(SwaggerError) {
        let parts = argument.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts[0].trimmingWhitespace()
        guard parts.count == 2, !name.isEmpty, name.utf8.allSatisfy(Self.isTokenCharacter) else {
            throw SwaggerError(
                .usage, "-H \"\(TerminalText.escaped(argument))\" is not a header; write it as -H 'Name: value'.")
        }
        let value = parts[1].trimmingWhitespace()
        // A line break would start a second header, or the body, of the server's choosing.
        guard !value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }) else {
            throw SwaggerError(.usage, "-H \(name): the value has a control character, which no header may hold.")
        }
        guard !APIRequest.reservedHeaders.contains(name.lowercased()) else {
            let reason =
                name.lowercased() == "authorization"
                ? "the session's token goes there" : "it follows from the URL and the body"
            throw SwaggerError(.usage, "-H \(name) cannot be set: \(reason).")
        }
        self.init(name: name, value: value)
    }
}
