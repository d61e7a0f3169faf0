import FoundationEssentials

/// An OpenAPI runtime expression (OpenAPI 3.1 §4.8.20.4, as Arazzo's workflows use it): a value of a request or
/// of its answer, such as `$statusCode`, `$response.header.X-Subject-Token` or `$response.body#/token/expires_at`.
package enum RuntimeExpression: Sendable, Hashable, CustomStringConvertible {
    case url
    case method
    case statusCode
    case requestHeader(String)
    case requestQuery(String)
    case requestBody(JSONPointer)
    case responseHeader(String)
    case responseBody(JSONPointer)

    /// Reads an expression as OpenAPI writes it.
    /// - Throws: ``JSONPointer/Invalid`` naming what is not an expression.
    package init(_ text: String) throws(JSONPointer.Invalid) {
        guard text.utf8.count <= 512 else { throw JSONPointer.Invalid("an expression has at most 512 characters") }
        switch text {
        case "$url": self = .url
        case "$method": self = .method
        case "$statusCode": self = .statusCode
        default:
            if let name = Self.after("$request.header.", in: text) {
                self = .requestHeader(try Self.headerName(name))
            } else if let name = Self.after("$request.query.", in: text) {
                self = .requestQuery(try Self.plainName(name))
            } else if let rest = Self.after("$request.body", in: text) {
                self = .requestBody(try Self.pointer(rest))
            } else if let name = Self.after("$response.header.", in: text) {
                self = .responseHeader(try Self.headerName(name))
            } else if let rest = Self.after("$response.body", in: text) {
                self = .responseBody(try Self.pointer(rest))
            } else {
                throw JSONPointer.Invalid(
                    "\(text.prefix(60)) is not a runtime expression, such as $statusCode or $response.body#/token")
            }
        }
    }

    /// What follows `prefix` in `text`, when `text` starts with it.
    private static func after(_ prefix: String, in text: String) -> String? {
        text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : nil
    }

    private static func headerName(_ name: String) throws(JSONPointer.Invalid) -> String {
        guard !name.isEmpty, name.utf8.allSatisfy(isTokenCharacter) else {
            throw JSONPointer.Invalid("\(name.prefix(60)) is not a header's name")
        }
        return name
    }

    private static func plainName(_ name: String) throws(JSONPointer.Invalid) -> String {
        guard !name.isEmpty else { throw JSONPointer.Invalid("an expression's name is missing") }
        return name
    }

    /// The body's pointer: nothing for the whole body, else `#` and a JSON pointer.
    private static func pointer(_ rest: String) throws(JSONPointer.Invalid) -> JSONPointer {
        if rest.isEmpty { return try JSONPointer("") }
        guard rest.hasPrefix("#") else { throw JSONPointer.Invalid("a body expression is $response.body#/pointer") }
        return try JSONPointer(String(rest.dropFirst()))
    }

    /// RFC 9110's `tchar`.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    package var description: String {
        switch self {
        case .url: "$url"
        case .method: "$method"
        case .statusCode: "$statusCode"
        case .requestHeader(let name): "$request.header." + name
        case .requestQuery(let name): "$request.query." + name
        case .requestBody(let pointer): "$request.body" + (pointer.tokens.isEmpty ? "" : "#\(pointer)")
        case .responseHeader(let name): "$response.header." + name
        case .responseBody(let pointer): "$response.body" + (pointer.tokens.isEmpty ? "" : "#\(pointer)")
        }
    }

    /// The value in `exchange`: a header or the URL as a string, the status as a number, a body's member as it is;
    /// `nil` where there is none.
    package func value(in exchange: Exchange) -> JSONValue? {
        switch self {
        case .url: .string(exchange.url.absoluteString)
        case .method: .string(exchange.method)
        case .statusCode: exchange.status.map { .integer(Int64($0)) }
        case .requestHeader(let name): Exchange.header(name, in: exchange.requestHeaders).map(JSONValue.string)
        case .requestQuery(let name): exchange.query(name).map(JSONValue.string)
        case .requestBody(let pointer): exchange.requestBody.flatMap(pointer.value)
        case .responseHeader(let name): Exchange.header(name, in: exchange.responseHeaders).map(JSONValue.string)
        case .responseBody(let pointer): exchange.responseBody.flatMap(pointer.value)
        }
    }

    /// Whether the expression reads the answer's body.
    package var readsResponseBody: Bool {
        if case .responseBody = self { true } else { false }
    }
}

/// A request and its answer, as runtime expressions read them: the answer's body is read as JSON once, by whoever
/// makes the exchange.
package struct Exchange: Sendable, Hashable {
    package var method: String
    package var url: URL
    var requestHeaders: [HeaderField]
    package var requestBody: JSONValue?
    /// `nil` before an answer came: a request's own template, checked before it is sent.
    package var status: Int?
    package var responseHeaders: [HeaderField]
    /// The answer's body, where it is JSON.
    package var responseBody: JSONValue?

    package init(
        method: String, url: URL, requestHeaders: [HeaderField] = [], requestBody: JSONValue? = nil,
        status: Int? = nil, responseHeaders: [HeaderField] = [], responseBody: JSONValue? = nil
    ) {
        self.method = method
        self.url = url
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.status = status
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
    }

    /// The values of every header named `name`, in any case, joined by commas (RFC 9110 §5.3).
    static func header(_ name: String, in headers: [HeaderField]) -> String? {
        let wanted = name.lowercased()
        let values = headers.filter { $0.name.lowercased() == wanted }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// The first value of the query parameter `name`, percent-decoded.
    func query(_ name: String) -> String? {
        guard let query = url.query(percentEncoded: true) else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard PercentEncoding.decode(String(parts[0])) == name else { continue }
            return parts.count == 2 ? PercentEncoding.decode(String(parts[1])) : ""
        }
        return nil
    }
}
