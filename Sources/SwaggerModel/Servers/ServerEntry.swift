import FoundationEssentials

/// What swaggerctl knows about one server, apart from any session: the element of the server registry
/// (`servers.json`). It outlives logouts and ended sessions, so a later login needs nothing but the address.
package struct ServerEntry: Sendable, Hashable {
    package var server: ServerURL
    /// The short name `-s` takes for it (`server set --name`), unique among the registry's entries.
    package var name: ServerName?
    package var serverDescription: ServerDescription
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
        self.serverDescription = description
        self.sources = sources
        self.document = document
        self.updatedAt = updatedAt
    }
}

/// A copy of a server's OpenAPI document, kept in the cache folder.
package struct DocumentCopy: Sendable, Hashable, Encodable {
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

    /// Reads an entry as ``init(json:)`` does.
    package init(from decoder: any Decoder) throws {
        self = try JSONFields.decode(decoder, Self.init(json:))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(server, forKey: .server)
        try container.encodeIfPresent(name, forKey: .name)
        // What its preset says goes without saying, and a URL under the server is written as its path: the file is
        // read at every command, and read back under the same server.
        try container.encode(serverDescription.json(relativeTo: server), forKey: .description)
        if !sources.isEmpty { try container.encode(sources, forKey: .sources) }
        try container.encodeIfPresent(document, forKey: .document)
        try container.encodeIfPresent(appID, forKey: .appID)
        try container.encodeIfPresent(caCertificate, forKey: .caCertificate)
        if !announce.isEmpty { try container.encode(announce, forKey: .announce) }
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}

extension ServerEntry {
    /// Reads an entry as it is kept in `servers.json`: the registry is read at every command, and this reads it
    /// without `Decodable`'s cost (``JSONFields``).
    /// - Throws: ``JSONFields/Mismatch`` naming the member that is missing or not what an entry keeps there.
    package init(json: JSONValue) throws(JSONFields.Mismatch) {
        let fields = try JSONFields(json, of: "a server entry")
        guard let server = try fields.text("server", as: ServerURL.self) else {
            throw JSONFields.Mismatch("server is missing")
        }
        guard let description = fields["description"] else { throw JSONFields.Mismatch("description is missing") }
        guard let updatedAt = try fields.date("updatedAt") else { throw JSONFields.Mismatch("updatedAt is missing") }
        let read: ServerDescription
        do throws(ServerDescription.Invalid) {
            read = try ServerDescription(json: description, under: server)
        } catch {
            throw JSONFields.Mismatch("description: \(error.reason)")
        }
        self.init(
            server: server, description: read, sources: try fields.strings("sources") ?? [:],
            document: try fields["document"].map { (copy) throws(JSONFields.Mismatch) in try DocumentCopy(json: copy) },
            updatedAt: updatedAt)
        name = try fields.text("name", as: ServerName.self)
        appID = try fields.string("appId")
        caCertificate = try fields.string("caCert")
        announce =
            try fields.array("announce") { (origin) throws(JSONFields.Mismatch) in
                guard case .string(let text) = origin, let origin = try? ServerURL(text) else {
                    throw JSONFields.Mismatch("announce holds what is not a server's URL")
                }
                return origin
            } ?? []
    }
}

extension DocumentCopy: Decodable {
    /// Reads a copy's record as ``init(json:)`` does.
    package init(from decoder: any Decoder) throws {
        self = try JSONFields.decode(decoder, Self.init(json:))
    }

    /// Reads a copy's record as its `Encodable` form writes it.
    package init(json: JSONValue) throws(JSONFields.Mismatch) {
        let fields = try JSONFields(json, of: "document")
        guard let text = try fields.string("url"), let url = URL(string: text) else {
            throw JSONFields.Mismatch("document.url is not a URL")
        }
        guard let fetchedAt = try fields.date("fetchedAt"), let file = try fields.string("file") else {
            throw JSONFields.Mismatch("document.fetchedAt and document.file are needed")
        }
        self.init(
            url: url, etag: try fields.string("etag"), lastModified: try fields.string("lastModified"),
            fetchedAt: fetchedAt, file: file)
    }
}

/// What the server registry takes in from session records written before it existed: those records kept their
/// server's description themselves, and the most recent of them named the default server.
package struct RegistryAdoption: Sendable, Hashable {
    /// An entry for each server that only such records describe, the first record's description for each.
    package var entries: [ServerEntry] = []
    /// The server the registry makes current, when it names none.
    package var current: ServerURL?

    /// What to adopt from `records`, most recent first, into a registry of `entries` whose current server is
    /// `current`; each adopted entry's source is `file`, the session list's name.
    package init(_ records: [SessionRecord], into entries: [ServerEntry], current: ServerURL?, file: String) {
        for record in records {
            guard let description = record.legacyDescription,
                !entries.contains(where: { $0.server == record.server }),
                !self.entries.contains(where: { $0.server == record.server })
            else { continue }
            self.entries.append(
                ServerEntry(
                    server: record.server, description: description, sources: ["login": file],
                    updatedAt: record.savedAt))
        }
        self.current = current == nil ? records.first?.server : nil
    }

    /// Whether there is anything to adopt.
    package var isEmpty: Bool { entries.isEmpty && current == nil }
}
