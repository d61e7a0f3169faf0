import FoundationEssentials
import Glibc
import SwaggerModel

/// Copies of servers' OpenAPI documents, in the cache folder's `documents` folder: one file for each server, 0600 in
/// a 0700 folder, replaced atomically. A copy can always be fetched again, so none is waited onto the disk.
package struct DocumentCache: Sendable {
    private let cache: PrivateDirectory
    private let directory: PrivateDirectory

    /// The copies under the cache folder `cacheDirectory`.
    package init(cacheDirectory: URL) {
        cache = PrivateDirectory(cacheDirectory)
        directory = PrivateDirectory(cacheDirectory.appending(path: "documents", directoryHint: .isDirectory))
    }

    /// Makes the `documents` folder, once the cache folder is made or found to be this user's: `create` refuses
    /// only the folder it is given, and a root who made `documents` inside another user's cache folder would write
    /// there.
    private func create() throws(SwaggerError) {
        try cache.create()
        try directory.create()
    }

    /// Keeps `data` as `server`'s document, in place of any copy before.
    /// - Returns: The copy's file name.
    package func save(_ data: Data, for server: ServerURL) throws(SwaggerError) -> String {
        try create()
        let name = Self.fileName(for: server)
        // What was read from the copy before goes first: a reading never outlives its copy.
        for reading in Reading.allCases where unlink(directory.fileURL(Self.readingName(reading, of: name)).path) != 0 {
            guard errno == ENOENT else {
                throw SwaggerError(
                    .failure,
                    "Could not replace the copy of \(server)'s document: \(String(cString: strerror(errno))).")
            }
        }
        try directory.write(data, to: name, durability: .cache)
        return name
    }

    /// What is read from a copy and kept beside it, each in a file of its own: it is replaced whenever the copy is.
    package enum Reading: String, Sendable, CaseIterable {
        /// The operations, their parameters and the schemas.
        case operations
        /// Only what the shell's completion offers, as lines that it reads fast.
        case names
    }

    /// Keeps `data`, the `reading` of the copy called `copy`, beside it.
    package func saveReading(_ data: Data, _ reading: Reading, of copy: String) throws(SwaggerError) {
        try create()
        try directory.write(data, to: Self.readingName(reading, of: copy), durability: .cache)
    }

    /// The `reading` of the copy called `copy`; `nil` when there is none.
    package func reading(_ reading: Reading, of copy: String) throws(SwaggerError) -> Data? {
        try directory.read(Self.readingName(reading, of: copy))
    }

    static func readingName(_ reading: Reading, of copy: String) -> String {
        (copy.hasSuffix(".openapi") ? String(copy.dropLast(".openapi".count)) : copy) + "." + reading.rawValue
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
