/// A JSON Pointer (RFC 6901): `/token/user/id`, `/items/0`; the empty pointer is the whole document.
package struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The reference tokens, unescaped (`~1` is `/`, `~0` is `~`).
    package let tokens: [String]

    /// The most reference tokens a pointer may have: a description's pointers are a few deep, and the bound keeps
    /// evaluation cheap whatever a description says.
    static let depthLimit = 32

    /// Reads a pointer as RFC 6901 writes it.
    /// - Throws: ``Invalid`` for text that does not start with `/` (other than the empty pointer), an escape other
    ///   than `~0` and `~1`, or more than 32 tokens.
    package init(_ text: String) throws(Invalid) {
        guard !text.isEmpty else {
            tokens = []
            return
        }
        guard text.hasPrefix("/") else { throw Invalid("a JSON pointer starts with /: \(text.prefix(60))") }
        let parts = text.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= Self.depthLimit else { throw Invalid("a JSON pointer has at most 32 parts") }
        var tokens: [String] = []
        for part in parts {
            var token = ""
            var escaped = false
            for character in part {
                if escaped {
                    switch character {
                    case "0": token.append("~")
                    case "1": token.append("/")
                    default: throw Invalid("~ in a JSON pointer is ~0 or ~1: \(text.prefix(60))")
                    }
                    escaped = false
                } else if character == "~" {
                    escaped = true
                } else {
                    token.append(character)
                }
            }
            if escaped { throw Invalid("~ in a JSON pointer is ~0 or ~1: \(text.prefix(60))") }
            tokens.append(token)
        }
        self.tokens = tokens
    }

    /// The pointer to a member named with dots, as the description language wrote paths before pointers: `data.token`
    /// is `/data/token`.
    package init(dotted path: String) {
        tokens = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    package var description: String {
        tokens.map { "/" + $0.replacing("~", with: "~0").replacing("/", with: "~1") }.joined()
    }

    /// The value `document` holds here; `nil` where a member or an index is missing.
    package func value(in document: JSONValue) -> JSONValue? {
        var value = document
        for token in tokens {
            switch value {
            case .object(let members):
                guard let next = members[token] else { return nil }
                value = next
            case .array(let items):
                // RFC 6901 §4: an index is digits, without a leading zero.
                guard let index = Int(token), index >= 0, index < items.count, String(index) == token else {
                    return nil
                }
                value = items[index]
            default:
                return nil
            }
        }
        return value
    }

    /// Why a pointer, an expression, a template or a condition cannot be read.
    package struct Invalid: Error, Sendable, Hashable {
        package var reason: String

        package init(_ reason: String) { self.reason = reason }
    }
}
