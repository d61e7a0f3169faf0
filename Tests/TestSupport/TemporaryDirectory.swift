import Foundation

/// A fresh, empty folder under the system's temporary directory, removed when the last reference goes away.
///
/// Swift Testing makes a new suite instance for every test, so a suite that stores one gets a folder per test.
package final class TemporaryDirectory: Sendable {
    package let url: URL

    package init() throws {
        url = FileManager.default.temporaryDirectory.appending(
            path: "SwaggerClientTests-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A path inside the folder; nothing is created.
    package func appending(_ path: String) -> URL {
        url.appending(path: path)
    }
}

extension Data {
    /// Writes the bytes to `url` as swaggerctl writes its files: readable by the owner alone.
    package func writePrivately(to url: URL) throws {
        try write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }
}

extension FileManager {
    /// The permission bits of the item at `url`, such as `0o700`.
    package func posixPermissions(_ url: URL) throws -> Int {
        let attributes = try attributesOfItem(atPath: url.path)
        if let mode = attributes[.posixPermissions] as? Int { return mode & 0o777 }
        if let mode = attributes[.posixPermissions] as? NSNumber { return mode.intValue & 0o777 }
        throw CocoaError(.fileReadUnknown)
    }

    /// The names in the folder at `url`, hidden ones included.
    package func names(in url: URL) throws -> Set<String> {
        Set(try contentsOfDirectory(atPath: url.path))
    }
}
