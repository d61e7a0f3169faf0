import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// A loopback HTTP server that serves one file, for documents that a test writes itself.
enum FileServer {
    /// Runs `body` with the URL of `file`, served as `application/yaml` or `application/json` by its extension.
    static func serve(_ file: URL, _ body: @Sendable (String) async throws -> Void) async throws {
        let type = file.pathExtension == "json" ? "application/json" : "application/yaml"
        let path = "/docs/\(file.lastPathComponent)"
        try await serve(try Data(contentsOf: file), at: path, type: type) { origin in try await body(origin + path) }
    }

    /// Runs `body` with the origin of a server that answers `data` at `path`, as `type`, and 404 elsewhere.
    static func serve(
        _ data: Data, at path: String, type: String = "application/json",
        _ body: @Sendable (String) async throws -> Void
    ) async throws {
        let router = Router()
        router.get(RouterPath(path)) { _, _ in
            Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            try await body("http://127.0.0.1:\(port)")
        }
    }
}
