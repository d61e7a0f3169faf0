import FoundationEssentials

/// The members of a JSON object, read as the types a file keeps them as, for a file read at every command: through
/// `Decodable`, `JSONDecoder` asks the runtime for each member's type and builds a container for each object,
/// which cost more than the rest of reading the server registry. It reads what the types' `Codable` forms write: a
/// member that is absent or `null` is `nil`, one of another type is an error.
package struct JSONFields: Sendable {
    /// Why a value is not what it is read as: the member, and what it is not.
    package struct Mismatch: Error, Sendable, Hashable {
        package var reason: String

        package init(_ reason: String) {
            self.reason = reason
        }
    }

    package let members: [String: JSONValue]

    /// The object `value`.
    /// - Throws: ``Mismatch`` when it is not an object.
    package init(_ value: JSONValue, of kind: String) throws(Mismatch) {
        guard case .object(let members) = value else { throw Mismatch("\(kind) is not a JSON object") }
        self.members = members
    }

    package subscript(key: String) -> JSONValue? {
        if case .null? = members[key] { nil } else { members[key] }
    }

    /// The string `key`, if present.
    package func string(_ key: String) throws(Mismatch) -> String? {
        switch self[key] {
        case nil: return nil
        case .string(let text)?: return text
        default: throw Mismatch("\(key) is not a string")
        }
    }

    /// The value that the string `key` spells, as its type's `Codable` form keeps it.
    package func text<Value: TextCoded>(_ key: String, as type: Value.Type) throws(Mismatch) -> Value? {
        guard let text = try string(key) else { return nil }
        do {
            return try Value(text)
        } catch {
            throw Mismatch("\(key): \(error.message)")
        }
    }

    /// The date `key`, as RFC 3339 text (``Timestamp``).
    package func date(_ key: String) throws(Mismatch) -> Date? {
        guard let text = try string(key) else { return nil }
        guard let date = Timestamp.date(from: text) else { throw Mismatch("\(key) is not an ISO 8601 date") }
        return date
    }

    /// The object of strings `key`.
    package func strings(_ key: String) throws(Mismatch) -> [String: String]? {
        guard let value = self[key] else { return nil }
        guard case .object(let members) = value else { throw Mismatch("\(key) is not a JSON object") }
        var strings: [String: String] = [:]
        for (name, member) in members {
            guard case .string(let text) = member else { throw Mismatch("\(key).\(name) is not a string") }
            strings[name] = text
        }
        return strings
    }

    /// The array `key`, each element read by `read`.
    package func array<Element>(_ key: String, _ read: (JSONValue) throws(Mismatch) -> Element) throws(Mismatch)
        -> [Element]?
    {
        guard let value = self[key] else { return nil }
        guard case .array(let elements) = value else { throw Mismatch("\(key) is not an array") }
        return try elements.map(read)
    }

    /// What `read` makes of the value in `decoder`: for a `Decodable` conformance that reads as its `init(json:)`.
    package static func decode<Value>(_ decoder: any Decoder, _ read: (JSONValue) throws(Mismatch) -> Value) throws
        -> Value
    {
        let json = try JSONValue(from: decoder)
        do throws(Mismatch) {
            return try read(json)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.reason))
        }
    }
}
