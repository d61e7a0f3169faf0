import FoundationEssentials
import SwaggerModel

/// The server registry, `servers.json` in the configuration folder: what swaggerctl knows about each server
/// (``ServerEntry``), apart from the sessions, and the current server, which commands use when no `-s` names one.
///
/// An entry outlives every session on its server: logging out, or a session the server ended, forgets only the
/// session. An entry that no longer decodes affects only its own server, and is kept as it is in the file until
/// that server's entry is replaced or forgotten.
package struct ServerRegistry: Sendable {
    /// The file's name inside the configuration folder.
    package static let fileName = "servers.json"

    /// What the file holds.
    struct Contents: Codable, Sendable {
        /// The server last logged in to or switched to.
        var current: ServerURL?
        var servers: [Lossy<ServerEntry>] = []

        init() {}

        /// Reads the file's content as `Decodable` would, each entry by ``ServerEntry/init(json:)``.
        init(json: JSONValue) throws(JSONFields.Mismatch) {
            let fields = try JSONFields(json, of: "the server registry")
            current = try fields.text("current", as: ServerURL.self)
            servers =
                try fields.array("servers") { (entry) throws(JSONFields.Mismatch) in
                    Lossy(json: entry, ServerEntry.init(json:))
                } ?? []
        }
    }

    private let file: PrivateJSONFile<Contents>

    /// The server registry in the configuration folder `directory`.
    package init(directory: URL) {
        file = PrivateJSONFile(
            directory: PrivateDirectory(directory), name: Self.fileName, kind: "server registry",
            loss: "swaggerctl describes each server again at its next login", empty: { Contents() },
            reader: Contents.init(json:))
    }

    package var path: String { file.path }

    /// The current server, and every entry that decodes, in the order they were first saved.
    package func contents() throws(SwaggerError) -> (current: ServerURL?, entries: [ServerEntry]) {
        let contents = try file.read()
        return (contents.current, contents.servers.compactMap(\.element))
    }

    /// The servers whose entries cannot be read.
    package func damaged() throws(SwaggerError) -> [ServerURL?] {
        try file.read().servers.filter { $0.element == nil }.map(\.key)
    }

    /// The entry for `server`, if there is one that can be read.
    package func entry(for server: ServerURL) throws(SwaggerError) -> ServerEntry? {
        try contents().entries.first { $0.server == server }
    }

    /// Saves `entry` in place of any for its server, damaged or not; with `current`, its server becomes the current
    /// one. Its name is the one the file has for the server, whatever `entry` says, unless `request` asks for another.
    /// - Returns: The server's name before and after.
    /// - Throws: `SwaggerError` with code `usage` when the request needs `--rename` and has not got it: nothing is
    ///   saved.
    @discardableResult
    package func save(_ entry: ServerEntry, current: Bool = false, naming request: NameRequest? = nil)
        throws(SwaggerError) -> ServerNaming
    {
        try file.update { (contents) throws(SwaggerError) in
            // Decided under the file's lock, from the names the file has now: two commands cannot both take a name,
            // and an entry read before another command renamed its server does not give the old name back.
            let naming = try ServerNaming(entry.server, request, among: contents.servers.compactMap(\.element))
            var entry = entry
            entry.name = naming.after
            Self.apply(naming, to: &contents)
            if let index = contents.servers.firstIndex(where: { $0.key == entry.server }) {
                contents.servers[index] = .decoded(entry)
            } else {
                contents.servers.append(.decoded(entry))
            }
            if current { contents.current = entry.server }
            return naming
        }
    }

    /// Takes the name from the server that gave it up for another.
    private static func apply(_ naming: ServerNaming, to contents: inout Contents) {
        guard let taken = naming.takenFrom, let index = contents.servers.firstIndex(where: { $0.key == taken }),
            var holder = contents.servers[index].element
        else { return }
        holder.name = nil
        contents.servers[index] = .decoded(holder)
    }

    /// Takes the origins that `server`'s entry holds to announce, leaving none: each is said once, by whichever
    /// command takes it. An entry changed since it was read keeps everything else it now says.
    package func takeAnnouncement(of server: ServerURL) throws(SwaggerError) -> [ServerURL] {
        try file.update { (contents) throws(SwaggerError) in
            guard let index = contents.servers.firstIndex(where: { $0.key == server }),
                var entry = contents.servers[index].element, !entry.announce.isEmpty
            else { return [] }
            let announced = entry.announce
            entry.announce = []
            contents.servers[index] = .decoded(entry)
            return announced
        }
    }

    /// Gives `server`'s entry the name `request` asks for.
    /// - Returns: The server's name before and after; `nil` when the registry has no entry for `server` that can be
    ///   read, which is left as it is.
    /// - Throws: `SwaggerError` with code `usage` when the request needs `--rename` and has not got it: nothing is
    ///   changed.
    @discardableResult
    package func name(_ server: ServerURL, _ request: NameRequest) throws(SwaggerError) -> ServerNaming? {
        try file.update { (contents) throws(SwaggerError) in
            let naming = try ServerNaming(server, request, among: contents.servers.compactMap(\.element))
            guard let index = contents.servers.firstIndex(where: { $0.key == server }),
                var entry = contents.servers[index].element
            else { return nil }
            entry.name = naming.after
            contents.servers[index] = .decoded(entry)
            Self.apply(naming, to: &contents)
            return naming
        }
    }

    /// Makes `server` the current one.
    package func makeCurrent(_ server: ServerURL) throws(SwaggerError) {
        try file.update { (contents) throws(SwaggerError) in contents.current = server }
    }

    /// Takes in what the registry does not have yet: `entries` for servers it has no entry for, and `current` when it
    /// names none. It is how descriptions that sessions kept before the registry move into it.
    /// - Returns: Whether anything was written.
    @discardableResult
    package func adopt(_ entries: [ServerEntry], current: ServerURL?) throws(SwaggerError) -> Bool {
        // A read first: nearly always there is nothing to take in, and a read takes no exclusive lock.
        let known = try file.read()
        guard
            entries.contains(where: { entry in !known.servers.contains(where: { $0.key == entry.server }) })
                || (known.current == nil && current != nil)
        else { return false }
        return try file.update { (contents) throws(SwaggerError) in
            var changed = false
            for entry in entries where !contents.servers.contains(where: { $0.key == entry.server }) {
                contents.servers.append(.decoded(entry))
                changed = true
            }
            if contents.current == nil, let current {
                contents.current = current
                changed = true
            }
            return changed
        }
    }

    /// Removes `server`'s entry, damaged or not, and says whether there was one. The current server stays what it
    /// was: commands without `-s` then say there is nothing there, rather than move elsewhere.
    @discardableResult
    package func forget(_ server: ServerURL) throws(SwaggerError) -> Bool {
        guard try file.read().servers.contains(where: { $0.key == server }) else { return false }
        return try file.update { (contents) throws(SwaggerError) in
            let before = contents.servers.count
            contents.servers.removeAll { $0.key == server }
            return contents.servers.count != before
        }
    }
}

extension ServerEntry: Keyed {
    var key: ServerURL { server }

    static func key(ofDamaged members: [String: JSONValue]) -> ServerURL? {
        guard case .string(let server) = members["server"] else { return nil }
        return try? ServerURL(server)
    }
}
