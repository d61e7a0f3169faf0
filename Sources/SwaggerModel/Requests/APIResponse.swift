import FoundationEssentials

/// A response, whatever its status: to `swaggerctl api`, or to any request the service sends.
package struct APIResponse: Sendable, Hashable {
    package var url: URL
    package var status: Int
    package var reason: String
    /// The protocol and version as a status line names it: `HTTP/1.1`, `HTTP/2`.
    package var version: String
    /// The headers, in order.
    package var headers: [HeaderField]
    package var body: Data
    /// Whether the server asked this request to slow down: an attempt was answered 429, or 503 with `Retry-After`,
    /// whether the retries then succeeded or not. Pages fetched several at a time go back to one at a time.
    package var throttled: Bool

    package init(
        url: URL, status: Int, reason: String, headers: [HeaderField], body: Data, throttled: Bool = false,
        version: String = "HTTP/1.1"
    ) {
        self.url = url
        self.status = status
        self.reason = reason
        self.version = version
        self.headers = headers
        self.body = body
        self.throttled = throttled
    }

    /// Whether the status is 2xx.
    package var isSuccess: Bool { (200..<300).contains(status) }

    /// The values of every header named `name`, in any case, joined by commas as RFC 9110 §5.3 allows.
    package func header(_ name: String) -> String? {
        var values: String?
        for header in headers where Self.isSameName(header.name, name) {
            values = values.map { $0 + ", " + header.value } ?? header.value
        }
        return values
    }

    /// Whether two header names are the same, in any case. Names are ASCII tokens (RFC 9110 §5.1): compared byte by
    /// byte, with no lower-cased copy of either, since every page of `api --paginate` asks for two headers.
    private static func isSameName(_ one: String, _ other: String) -> Bool {
        one.utf8.count == other.utf8.count
            && zip(one.utf8, other.utf8).allSatisfy { $0.asciiLowercased == $1.asciiLowercased }
    }
}

/// One header line.
package struct HeaderField: Sendable, Hashable {
    package var name: String
    package var value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
