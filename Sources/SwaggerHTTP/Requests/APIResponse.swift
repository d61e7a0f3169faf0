import FoundationEssentials
import SwaggerModel

/// A response to `swaggerctl api`, whatever its status.
package struct APIResponse: Sendable, Hashable {
    package var url: URL
    package var status: Int
    package var reason: String
    /// The headers, in order.
    package var headers: [HeaderField]
    package var body: Data

    package init(url: URL, status: Int, reason: String, headers: [HeaderField], body: Data) {
        self.url = url
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
    }

    /// Whether the status is 2xx.
    package var isSuccess: Bool { (200..<300).contains(status) }

    /// The values of every header named `name`, in any case, joined by commas as RFC 9110 §5.3 allows.
    package func header(_ name: String) -> String? {
        let values = headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
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
