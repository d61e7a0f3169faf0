import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// A loopback HTTP server that serves one file, for documents that a test writes itself.
enum FileServer {
    /// Runs `body` with the URL of `file`, served as `application/yaml` or `application/json` by its extension.
    static func serve(_ file: URL, _ body: @Sendable (String) async throws -> Void) async throws {
        let data = try Data(contentsOf: file)
        let type = file.pathExtension == "json" ? "application/json" : "application/yaml"
        let router = Router()
        router.get("/docs/\(file.lastPathComponent)") { _, _ in
            Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            try await body("http://127.0.0.1:\(port)/docs/\(file.lastPathComponent)")
        }
    }
}
