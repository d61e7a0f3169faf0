import FoundationEssentials
import SessionStorage
import SwaggerModel
import SwaggerServers

/// What the person says about a server on `login` or `server set`: a `--server-file`, the description's flags and
/// `--allow-origin`, as the layers of its description.
package struct GivenDescription: Sendable {
    /// `--server-file`: a description, as `server export` writes it.
    package var file: String?
    /// The description's flags by the names ``ServerFlags`` knows, the OAuth 2 client's among them.
    package var flags: ServerFlags
    /// `--allow-origin`: the other hosts the server's secrets may go to.
    package var allowOrigin: [String]

    package init(file: String? = nil, flags: ServerFlags = ServerFlags(), allowOrigin: [String] = []) {
        self.file = file
        self.flags = flags
        self.allowOrigin = allowOrigin
    }

    /// The layers: the file's, then the flags', and the server the file names.
    package func layers() throws(SwaggerError) -> (server: ServerURL?, layers: [DescriptionLayer]) {
        let fromFile = try file.map { (path) throws(SwaggerError) in try Self.read(path) }
        var flags = flags
        for origin in allowOrigin { try flags.set("allow-origin", origin) }
        var layers = fromFile.map { [$0.layer] } ?? []
        if !flags.isEmpty { layers.append(DescriptionLayer(json: flags.json, source: "given")) }
        return (fromFile?.server, layers)
    }

    /// The layer of the description in the file at `path`, and the server it names and its name, if any.
    package static func read(_ path: String) throws(SwaggerError) -> (
        server: ServerURL?, name: ServerName?, layer: DescriptionLayer
    ) {
        // A description is a few lines; a file far larger is not one, and is refused rather than read in part.
        let limit = 1 << 16
        guard let data = try smallFile(path, limit: limit) else {
            throw SwaggerError(
                .usage, "\(path) holds more than \(limit >> 10) KiB; a server's description is a few lines.")
        }
        return try DescriptionFile.read(data, named: path)
    }
}

/// The file at `path` (standard input for `-`), read whole; `nil` when it holds more than `limit` bytes, which is
/// refused rather than read in part.
/// - Parameter secret: Whether it holds a private key, which is refused when anyone but its owner may read or
///   change it, as ssh refuses one: the key would already be known to them.
func smallFile(_ path: String, limit: Int, secret: Bool = false) throws(SwaggerError) -> Data? {
    let read: (data: Data, permissions: UInt32?)
    do throws(DescriptorIO.Failure) {
        read = try DescriptorIO.readFileAndPermissions(path, limit: limit + 1)
    } catch {
        throw SwaggerError(.usage, "\(path) cannot be read: \(error).")
    }
    if secret, let permissions = read.permissions, permissions & 0o077 != 0 {
        throw SwaggerError(
            .usage,
            "\(path) is open to others (0\(String(permissions, radix: 8))), and a private key must not be: "
                + "chmod 600 \(path).")
    }
    return read.data.count <= limit ? read.data : nil
}
