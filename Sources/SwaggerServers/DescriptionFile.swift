import FoundationEssentials
import SwaggerModel

/// A server's description in a file: what `server export` writes, and `server import` and `login --server-file`
/// read.
package enum DescriptionFile {
    /// Reads a file that describes a server: a description in the description language, with the server's URL
    /// under `server` when the file says whose it is; or, as files were written before, the flags that describe a
    /// server, by name (`{"kind": "simplejwt", "profile-path": "/me"}`).
    /// - Returns: The server the file names, if any, and the file's layer of the description.
    /// - Throws: `SwaggerError` with code `usage` naming what the file holds that is neither.
    package static func read(_ data: Data, named path: String) throws(SwaggerError) -> (
        server: ServerURL?, layer: DescriptionLayer
    ) {
        guard case .object(var members)? = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            throw SwaggerError(.usage, "\(path) is not a JSON object that describes a server.")
        }
        var server: ServerURL?
        if case .string(let text)? = members.removeValue(forKey: "server") {
            do throws(SwaggerError) {
                server = try ServerURL(text)
            } catch {
                throw SwaggerError(.usage, "\(path): \(error.message)")
            }
        }
        if members.keys.allSatisfy(ServerDescription.members.contains) {
            return (server, DescriptionLayer(json: .object(members), source: path))
        }
        let flags = try ServerFlags(file: members, named: path)
        return (server, DescriptionLayer(json: flags.json, source: path))
    }

    /// `entry` as a file: its description, paths relative to its server, and the server's URL.
    package static func export(_ entry: ServerEntry) -> String {
        let json = entry.description.presetJSON(under: entry.server).merging(
            .object(["server": .string(entry.server.string)]))
        return JSONOutput.render(json, fallback: "{}")
    }
}
