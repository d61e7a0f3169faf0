import FoundationEssentials

/// The signed-in user's profile, exactly as the server sent it: every field, including `null`s and fields
/// the API does not name.
package struct Profile: Sendable, Hashable {
    package var fields: [String: JSONValue]

    package init(fields: [String: JSONValue]) {
        self.fields = fields
    }

    /// Decodes a profile from the body of `GET /User/User`.
    package init(json: Data) throws {
        fields = try JSONDecoder().decode([String: JSONValue].self, from: json)
    }

    /// Reads a profile from a server's answer: a JSON object, or one whose only member, `data`, is an object,
    /// as APIs that wrap every answer send it, or the object at `unwrapping`, a dotted path, when given.
    /// - Parameter contentType: The response's `Content-Type`, for the message when it is not JSON.
    /// - Throws: ``APIServiceError/notAProfile(_:)`` when the answer is not JSON, or not an object.
    package init(answer: Data, contentType: String?, unwrapping path: String? = nil) throws(APIServiceError) {
        guard let value = JSONValue(parsing: answer) else {
            let sent = contentType.map { "it sent \"\($0)\" instead of JSON" } ?? "it sent no JSON body"
            throw .notAProfile("the profile is not JSON: \(sent)")
        }
        if let named = MediaType.other(than: "json", contentType) {
            throw .contractViolation("the profile's Content-Type is \"\(named)\", not JSON")
        }
        if let path {
            guard case .object(let members)? = value[path: path] else {
                throw .notAProfile("the profile answer has no object in \"\(path)\"")
            }
            self.init(fields: members)
            return
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
}

/// A profile as it last arrived from the server, kept for when the server cannot be reached.
package struct SavedProfile: Sendable, Hashable, Codable {
    package var server: ServerURL
    /// The account's name (``Account/name``).
    package var name: String
    package var receivedAt: Date
    /// The profile's members, exactly as received.
    package var fields: [String: JSONValue]

    package var profile: Profile { Profile(fields: fields) }
    package var account: Account { Account(server: server, name: name) }

    // The cache has always called the name "email".
    private enum CodingKeys: String, CodingKey {
        case server, receivedAt, fields
        case name = "email"
    }

    package init(account: Account, profile: Profile, receivedAt: Date) {
        server = account.server
        name = account.name
        self.receivedAt = receivedAt
        fields = profile.fields
    }
}
