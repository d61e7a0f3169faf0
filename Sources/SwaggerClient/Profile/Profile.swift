import FoundationEssentials

/// The signed-in user's profile, exactly as the server sent it: every field, including `null`s and fields
/// the API does not name.
public struct Profile: Sendable, Hashable {
    /// The profile object's members.
    public var fields: [String: JSONValue]

    /// Creates a profile from an object's members.
    /// - Parameter fields: The members of the profile object.
    public init(fields: [String: JSONValue]) {
        self.fields = fields
    }

    /// Decodes a profile from the body of `GET /User/User`.
    /// - Parameter json: The response body.
    /// - Throws: `DecodingError` when the body is not a JSON object.
    public init(json: Data) throws {
        fields = try JSONDecoder().decode([String: JSONValue].self, from: json)
    }

    /// Reads a profile from a server's answer: a JSON object, or one whose only member, `data`, is an object,
    /// as APIs that wrap every answer send it.
    /// - Parameters:
    ///   - answer: The response body.
    ///   - contentType: The response's `Content-Type`, for the message when it is not JSON.
    /// - Throws: ``APIServiceError/notAProfile(_:)`` when the answer is not JSON, or not an object.
    public init(answer: Data, contentType: String?) throws(APIServiceError) {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: answer) else {
            let sent = contentType.map { "it sent \"\($0.prefix(60))\" instead of JSON" } ?? "it sent no JSON body"
            throw .notAProfile("the profile is not JSON: \(sent)")
        }
        guard case .object(let members) = value else {
            throw .notAProfile("the profile is not a JSON object")
        }
        if members.count == 1, case .object(let inner)? = members["data"] {
            self.init(fields: inner)
        } else {
            self.init(fields: members)
        }
    }

    /// The profile as pretty-printed JSON with sorted keys, ending in a newline. Controls and invisible
    /// characters in keys and values are written as `\u` escapes (``TerminalText/escapedJSON(_:)``).
    public var prettyJSON: String {
        JSONOutput.render(fields, fallback: "{}")
    }
}
