import Foundation

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

    /// The profile as pretty-printed JSON with sorted keys, ending in a newline. Controls and invisible
    /// characters in keys and values are written as `\u` escapes (``TerminalText/escapedJSON(_:)``).
    public var prettyJSON: String {
        JSONOutput.render(fields, fallback: "{}")
    }
}
