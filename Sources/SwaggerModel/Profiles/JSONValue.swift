import FoundationEssentials

/// Any JSON value, kept as received so that nothing a server sends is lost.
package enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The most levels of values read, from JSON or YAML: the top value is at level 1. A value is released recursively, one level at a time, so a
    /// hostile document nested without bound would overflow the stack when it is let go; no document that
    /// swaggerctl reads nests more than a few dozen levels.
    package static let depthLimit = 128

    package init(from decoder: any Decoder) throws {
        guard decoder.codingPath.count < Self.depthLimit else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "nested deeper than \(Self.depthLimit) levels"))
        }
        // Each type is tried in turn, and each miss throws, which costs tens of thousands of instructions: the
        // commonest in the files and answers read, strings and objects, come first. A type never takes another's
        // value, so the order changes nothing else. JSON text is read cheaper still by `init(parsing:)`.
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else {
            self = .number(try container.decode(Double.self))
        }
    }

    /// Encodes the value as it was received.
    /// - Throws: `EncodingError` for a number JSON cannot hold.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Compact JSON text for this value, with sorted keys.
    package var compactJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}

extension JSONValue {
    /// The value at a dotted path of object members, such as `data.token`; `nil` when any step is missing.
    package subscript(path path: String) -> JSONValue? {
        var value = self
        for name in path.split(separator: ".", omittingEmptySubsequences: false) {
            guard case .object(let members) = value, let next = members[String(name)] else { return nil }
            value = next
        }
        return value
    }

    /// An object of `members` in which each name with dots is a path into nested objects, as a description names
    /// a request's members: `["identifier.user": "ana", "identifier.type": "m.id.user"]` is
    /// `{"identifier": {"user": "ana", "type": "m.id.user"}}`. A name without dots is a member as it is.
    package static func nesting(_ members: [String: JSONValue]) -> JSONValue {
        var root = JSONValue.object([:])
        // In name order, so that the same members always make the same object.
        for name in members.keys.sorted() {
            guard let value = members[name] else { continue }
            let path = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            root = root.setting(value, at: path[...])
        }
        return root
    }

    /// This value with `value` at `path`, made an object wherever a step needs one.
    private func setting(_ value: JSONValue, at path: ArraySlice<String>) -> JSONValue {
        guard let name = path.first else { return value }
        var members: [String: JSONValue] = if case .object(let existing) = self { existing } else { [:] }
        members[name] = (members[name] ?? .object([:])).setting(value, at: path.dropFirst())
        return .object(members)
    }
}

// JSON written in Swift: the presets, and the tests' documents.
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int64) { self = .integer(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
