import FoundationEssentials
import Glibc
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
        // What was read from the copy before goes first: a reading never outlives its copy.
        if unlink(directory.fileURL(Self.readingName(of: name)).path) != 0, errno != ENOENT {
            throw SwaggerError(
                .failure, "Could not replace the copy of \(server)'s document: \(String(cString: strerror(errno))).")
        }
        try directory.write(data, to: name, durable: false)
        return name
    }

    /// Keeps `data`, what was read from the copy called `copy`, beside it: it is replaced whenever the copy is.
    package func saveReading(_ data: Data, of copy: String) throws(SwaggerError) {
        try directory.create()
        try directory.write(data, to: Self.readingName(of: copy), durable: false)
    }

    /// What was read from the copy called `copy`; `nil` when there is nothing.
    package func reading(of copy: String) throws(SwaggerError) -> Data? {
        try directory.read(Self.readingName(of: copy))
    }

    static func readingName(of copy: String) -> String {
        (copy.hasSuffix(".openapi") ? String(copy.dropLast(".openapi".count)) : copy) + ".operations"
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
