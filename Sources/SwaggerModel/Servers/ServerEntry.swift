import FoundationEssentials

/// What swaggerctl knows about one server, apart from any session: the element of the server registry
/// (`servers.json`). It outlives logouts and ended sessions, so a later login needs nothing but the address.
package struct ServerEntry: Sendable, Hashable {
    package var server: ServerURL
    /// The short name `-s` takes for it (`server set --name`), unique among the registry's entries.
    package var name: ServerName?
    package var description: ServerDescription
    /// Where each part of the description came from, by the description language's member (`login`, `token`,
    /// `profile`, …): a document's address, `preset NAME`, `given`, or a file's path.
    package var sources: [String: String]
    /// The server's OpenAPI document, as last read: its address, validators and where its copy is kept.
    package var document: DocumentCopy?
    /// The app id a login sends, when `server set --app-id` named one.
    package var appID: String?
    /// Certificate authorities to trust for this server too (`server set --ca-cert`), as an absolute path.
    package var caCertificate: String?
    /// The origins a change of description moved its sessions' tokens to, with the person's consent, which the
    /// next use of a session says once.
    package var announce: [ServerURL] = []
    package var updatedAt: Date

    package init(
        server: ServerURL, description: ServerDescription, sources: [String: String] = [:],
        document: DocumentCopy? = nil, updatedAt: Date
    ) {
        self.server = server
        self.description = description
        self.sources = sources
        self.document = document
        self.updatedAt = updatedAt
    }
}

/// A copy of a server's OpenAPI document, kept in the cache folder.
package struct DocumentCopy: Sendable, Hashable, Codable {
    package var url: URL
    /// The answer's `ETag` and `Last-Modified`, to ask whether it changed.
    package var etag: String?
    package var lastModified: String?
    package var fetchedAt: Date
    /// The copy's file name in the cache folder's `documents` folder.
    package var file: String

    package init(url: URL, etag: String? = nil, lastModified: String? = nil, fetchedAt: Date, file: String) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.fetchedAt = fetchedAt
        self.file = file
    }
}

extension ServerEntry: Codable {
    private enum CodingKeys: String, CodingKey {
        case server, name, description, sources, document, appID = "appId", caCertificate = "caCert", announce,
            updatedAt
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        server = try container.decode(ServerURL.self, forKey: .server)
        name = try container.decodeIfPresent(ServerName.self, forKey: .name)
        // As the object a description is: read as a JSON value, it would first be tried as a string, a miss that
        // costs more than reading the rest of the registry.
        let json = JSONValue.object(try container.decode([String: JSONValue].self, forKey: .description))
        do throws(ServerDescription.Invalid) {
            description = try ServerDescription(json: json, under: server)
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: .description, in: container, debugDescription: error.reason)
        }
        sources = try container.decodeIfPresent([String: String].self, forKey: .sources) ?? [:]
        document = try container.decodeIfPresent(DocumentCopy.self, forKey: .document)
        appID = try container.decodeIfPresent(String.self, forKey: .appID)
        caCertificate = try container.decodeIfPresent(String.self, forKey: .caCertificate)
        announce = try container.decodeIfPresent([ServerURL].self, forKey: .announce) ?? []
        updatedAt = try container.decode(Date.self, forKey: .updatedAt)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(server, forKey: .server)
        try container.encodeIfPresent(name, forKey: .name)
        // What its preset says goes without saying, and a URL under the server is written as its path: the file is
        // read at every command, and read back under the same server.
        try container.encode(description.json(relativeTo: server), forKey: .description)
        if !sources.isEmpty { try container.encode(sources, forKey: .sources) }
        try container.encodeIfPresent(document, forKey: .document)
        try container.encodeIfPresent(appID, forKey: .appID)
        try container.encodeIfPresent(caCertificate, forKey: .caCertificate)
        if !announce.isEmpty { try container.encode(announce, forKey: .announce) }
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}
