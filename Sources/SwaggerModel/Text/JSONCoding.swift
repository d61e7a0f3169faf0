import FoundationEssentials

extension JSONEncoder {
    /// Pretty, key-sorted JSON with ISO 8601 dates to the millisecond: stable, diffable files in which
    /// two sessions saved within one second still sort in the order they were saved.
    package static var swaggerctl: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.string(from: date))
        }
        return encoder
    }
}

extension JSONDecoder {
    /// The decoder that matches ``Foundation/JSONEncoder/swaggerctl``.
    /// Reads ISO 8601 dates with or without fractional seconds.
    package static var swaggerctl: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            guard let date = Timestamp.date(from: try container.decode(String.self)) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 date")
            }
            return date
        }
        return decoder
    }
}
