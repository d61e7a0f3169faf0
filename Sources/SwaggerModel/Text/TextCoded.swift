/// A value that files keep as its text, and that is checked again as it is read, as where it first entered.
package protocol TextCoded: Codable {
    /// The value that `text` spells.
    /// - Throws: ``SwaggerError`` for text that spells none.
    init(_ text: String) throws(SwaggerError)
    /// The text files keep.
    var string: String { get }
}

extension TextCoded {
    package init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(string)
    }
}
