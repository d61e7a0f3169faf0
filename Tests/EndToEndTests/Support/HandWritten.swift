import Foundation
import Testing

/// The descriptions Docs/servers.md writes by hand with `server set --set` ("Five servers by hand"), run as written
/// against the real server: the documentation's example is what a test describes the server with.
enum HandWritten {
    /// The `server set` command the documentation gives for `host`, its continuation lines joined.
    static func command(for host: String) throws -> String {
        let text = try String(contentsOf: Project.root.appending(path: "Docs/servers.md"), encoding: .utf8)
        let section = try #require(text.firstMatch(of: /### Five servers by hand\n(?:.|\n)*?```\n((?:.|\n)*?)```/))
        let joined = section.1.replacing(/\\\n\s*/, with: "")
        let line = joined.split(separator: "\n").first { $0.hasPrefix("swaggerctl server set https://\(host)") }
        return String(try #require(line, "Docs/servers.md describes no \(host) by hand"))
    }

    /// Describes the server at `origin` in `sandbox` as the documentation does `host` (`keystone.example.com/v3`),
    /// by running its command with `https://host` in place of the server's address.
    static func describe(_ host: String, as origin: String, in sandbox: Sandbox) async throws {
        let command = try command(for: host).replacing("https://\(host)", with: origin)
        let environment = sandbox.environment.merging(["PATH": Binaries.directory.path + ":/usr/bin:/bin"]) { $1 }
        let result = try await runProgram(URL(filePath: "/bin/bash"), ["-c", command], environment: environment)
        try #require(result.status == 0, "\(command): \(result)")
    }
}
