import FoundationEssentials
import SwaggerModel

/// Copies of servers' OpenAPI documents, in the cache folder's `documents` folder: one file for each server, 0600 in
/// a 0700 folder, replaced atomically. A copy can always be fetched again, so it is whole, not durable.
package struct DocumentCache: Sendable {
    private let directory: PrivateDirectory

    /// The copies under the cache folder `cacheDirectory`.
    package init(cacheDirectory: URL) {
        directory = PrivateDirectory(cacheDirectory.appending(path: "documents", directoryHint: .isDirectory))
    }

    /// Keeps `data` as `server`'s document, in place of any copy before.
    /// - Returns: The copy's file name.
    package func save(_ data: Data, for server: ServerURL) throws(SwaggerError) -> String {
        try directory.create()
        let name = Self.fileName(for: server)
        try directory.write(data, to: name, durable: false)
        return name
    }

    /// The copy called `name`; `nil` when there is none.
    package func read(_ name: String) throws(SwaggerError) -> Data? {
        try directory.read(name)
    }

    /// The file name of `server`'s copy: the FNV-1a hash of its URL, so that no URL can name a path.
    static func fileName(for server: ServerURL) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in server.string.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + ".openapi"
    }
}
