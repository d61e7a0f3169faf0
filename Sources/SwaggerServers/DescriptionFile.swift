import FoundationEssentials
import SwaggerModel

/// A server's description in a file: what `server export` writes, and `server import` and `login --server-file`
/// read.
package enum DescriptionFile {
    /// Reads a file that describes a server: a description in the description language, with the server's URL
    /// under `server` when the file says whose it is, and the server's name under `name`; or, as files were written
    /// before, the flags that describe a server, by name (`{"kind": "simplejwt", "profile-path": "/me"}`).
    /// - Returns: The server the file names, if any, its name, if any, and the file's layer of the description.
    /// - Throws: `SwaggerError` with code `usage` naming what the file holds that is neither, or a name that is not
    ///   one.
    package static func read(_ data: Data, named path: String) throws(SwaggerError) -> (
        server: ServerURL?, name: ServerName?, layer: DescriptionLayer
    ) {
        guard case .object(var members)? = JSONValue(parsing: data) else {
            throw SwaggerError(.usage, "\(path) is not a JSON object that describes a server.")
        }
        var server: ServerURL?
        // The server's name is the registry's, not the description's.
        let name = members.removeValue(forKey: "name")
        if case .string(let text)? = members.removeValue(forKey: "server") {
            do throws(SwaggerError) {
                server = try ServerURL(text)
            } catch {
                throw SwaggerError(.usage, "\(path): \(error.message)")
            }
        }
        let layer =
            if members.keys.allSatisfy(ServerDescription.members.contains) {
                DescriptionLayer(json: .object(members), source: path)
            } else {
                DescriptionLayer(json: try ServerFlags(file: members, named: path).json, source: path)
            }
        return (server, try name.map { (value) throws(SwaggerError) in try serverName(value, in: path) }, layer)
    }

    /// The server's name that a file holds under `name`.
    /// - Throws: `SwaggerError` with code `usage` for a name that is not one.
    private static func serverName(_ value: JSONValue, in path: String) throws(SwaggerError) -> ServerName {
        do throws(SwaggerError) {
            guard case .string(let text) = value else { throw SwaggerError(.usage, "the name is not a string.") }
            return try ServerName(text)
        } catch {
            throw SwaggerError(.usage, "\(path): \(error.message)")
        }
    }

    /// `entry` as a file: its description, paths relative to its server, and the server's URL and name.
    package static func export(_ entry: ServerEntry) -> String {
        var members: [String: JSONValue] = ["server": .string(entry.server.string)]
        if let name = entry.name { members["name"] = .string(name.string) }
        let json = entry.serverDescription.json(relativeTo: entry.server).merging(.object(members))
        return JSONOutput.render(json, fallback: "{}")
    }
}
