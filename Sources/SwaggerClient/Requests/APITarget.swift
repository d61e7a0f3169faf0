import SwaggerModel

/// What `swaggerctl api`'s first argument names: an operation of the server's document, by its `operationId` or as
/// `METHOD /path/template`, or a path (or URL) sent as it is.
package enum APITarget: Sendable, Hashable {
    case operation(String)
    case path(String)

    package init(_ argument: String) {
        let text = argument.trimmingWhitespace()
        let words = text.split(separator: " ", maxSplits: 1)
        if words.count == 2, words[0].utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }),
            words[1].hasPrefix("/")
        {
            self = .operation(String(words[0]) + " " + words[1].trimmingWhitespace())
        } else if text.contains("/") || text.isEmpty {
            self = .path(text)
        } else {
            self = .operation(text)
        }
    }
}
