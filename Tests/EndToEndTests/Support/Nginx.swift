import Foundation

/// Debian's nginx on a loopback address of its own, serving static files as its documentation sets a site up:
/// `root`, `try_files`, `map` and `add_header`, and nothing in front of it.
enum Nginx {
    /// Runs `body` with the base URL of an nginx that serves `files` (paths under the root, and their text) with the
    /// `http` block's extra `settings` and the `server` block's extra `locations`, and stops it afterwards.
    static func serve<Result: Sendable>(
        _ files: [String: String], settings: String = "", locations: String = "",
        _ body: (String) async throws -> Result
    ) async throws -> Result {
        let host = privateLoopbackHost()
        let port = try freeLoopbackPort(on: host)
        let folder = FileManager.default.temporaryDirectory.appending(path: "nginx-\(UUID().uuidString)")
        let root = folder.appending(path: "site")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (path, text) in files {
            let file = root.appending(path: path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        // Started as root, nginx's workers run as nobody, who must be able to reach the files.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        for case let url as URL in FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) ?? .init()
        {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: root.path)
        let configuration = """
            daemon off;
            worker_processes 1;
            pid \(folder.path)/nginx.pid;
            error_log \(folder.path)/error.log;
            events { worker_connections 64; }
            http {
                access_log off;
                default_type application/json;
                client_body_temp_path \(folder.path);
                \(settings)
                server {
                    listen \(host):\(port);
                    root \(root.path);
                    \(locations)
                }
            }

            """
        let file = folder.appending(path: "nginx.conf")
        try Data(configuration.utf8).write(to: file)
        let script = #"""
            "$0" -c "$1" -p "$4" >/dev/null 2>&1 &
            until (exec 3<>"/dev/tcp/$3/$2") 2>/dev/null; do kill -0 $! 2>/dev/null || exit 1; sleep 0.05; done
            echo ready
            wait
            """#
        return try await withChildProcess(
            URL(filePath: "/bin/bash"), ["-c", script, "/usr/sbin/nginx", file.path, String(port), host, folder.path]
        ) { _ in try await body("http://\(host):\(port)") }
    }
}
