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
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
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
