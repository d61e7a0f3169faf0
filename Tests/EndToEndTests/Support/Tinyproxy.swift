import Foundation

/// Debian's tinyproxy on a loopback address of its own, logging every request it carries, for the proxy tests.
struct Tinyproxy: Sendable {
    let host: String
    let port: Int
    let folder: URL
    /// `http://HOST:PORT`, or with `user:password@` when the proxy asks for them.
    let url: String

    /// What tinyproxy logged so far.
    var log: String {
        (try? String(contentsOf: folder.appending(path: "tinyproxy.log"), encoding: .utf8)) ?? ""
    }

    /// The log lines of the requests it carried, `…: Request (file descriptor 5): CONNECT host:port HTTP/1.1`,
    /// one for every tunnel. (tinyproxy's log level for them is also called CONNECT.)
    var connects: [String] {
        log.split(separator: "\n").filter { $0.contains(": Request (") && $0.contains(": CONNECT ") }.map(String.init)
    }
}

/// Runs `body` with a tinyproxy in the foreground, and stops it afterwards; with `credentials`, it demands
/// them (`BasicAuth`).
func withTinyproxy<Result: Sendable>(
    credentials: (user: String, password: String)? = nil, _ body: (Tinyproxy) async throws -> Result
) async throws -> Result {
    let host = privateLoopbackHost()
    let port = try freeLoopbackPort(on: host)
    let folder = FileManager.default.temporaryDirectory.appending(path: "tinyproxy-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var configuration = """
        Port \(port)
        Listen \(host)
        Timeout 30
        LogFile "\(folder.appending(path: "tinyproxy.log").path)"
        LogLevel Info
        MaxClients 100
        Allow 127.0.0.1

        """
    if let credentials { configuration += "BasicAuth \(credentials.user) \(credentials.password)\n" }
    let file = folder.appending(path: "tinyproxy.conf")
    try Data(configuration.utf8).write(to: file)
    let credentialPart = credentials.map { "\($0.user):\($0.password)@" } ?? ""
    let proxy = Tinyproxy(host: host, port: port, folder: folder, url: "http://\(credentialPart)\(host):\(port)")
    // tinyproxy says nothing when it is ready; a shell waits until the port accepts connections, then says so.
    let script = #"""
        "$0" -d -c "$1" >/dev/null 2>&1 &
        until (exec 3<>"/dev/tcp/$3/$2") 2>/dev/null; do kill -0 $! 2>/dev/null || exit 1; sleep 0.05; done
        echo ready
        wait
        """#
    return try await withChildProcess(
        URL(filePath: "/bin/bash"), ["-c", script, "/usr/bin/tinyproxy", file.path, String(port), host]
    ) { _ in try await body(proxy) }
}
