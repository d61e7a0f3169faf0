import Foundation

/// A running `swagger-demo-server` on a free loopback port, whose clock the test moves.
struct DemoServerProcess: Sendable {
    /// The API's base URL, such as `http://127.0.0.1:41234/api`.
    let apiURL: String
    /// Where the server's log (standard error) goes: one line per login, refresh and revocation.
    let logFile: URL

    /// The address and port it listens on, to start a server there again.
    var hostAndPort: [String] {
        guard let url = URL(string: apiURL), let host = url.host, let port = url.port else { return [] }
        return ["--host", host, "--port", String(port)]
    }

    /// The server's log so far.
    var log: String {
        (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
    }

    /// How many log lines contain `text`.
    func logLines(containing text: String) -> Int {
        log.split(separator: "\n").count { $0.contains(text) }
    }

    /// Moves the server's clock forward by `interval`, through its `--test-clock` endpoint, so that its tokens
    /// expire without anyone waiting for them.
    func advanceClock(by interval: Duration) async throws {
        let origin = apiURL.dropLast(DemoServerProcess.basePath.count)
        // The test's own control of the server, over loopback: for an HTTPS server, not a check of its certificate.
        let result = try await curl(
            ["--fail", "--insecure", "-X", "POST", "\(origin)/_test/clock?advance=\(interval.seconds)"])
        guard result.status == 0 else { throw SupportFailure("the clock did not move: \(result)") }
    }

    static let basePath = "/api"

    /// Past the demo server's default access-token lifetime (900 s), for a clock moved to make tokens expire.
    static let pastExpiry: Duration = .seconds(1000)
}

/// Runs `body` with a fresh demo server, and stops it afterwards. With `alone`, the server listens on a
/// loopback address of its own, for a test that stops it and needs it to stay gone, or starts it again on the
/// same port: the whole of 127.0.0.0/8 is this machine, and the servers of other tests listen on 127.0.0.1, so
/// none of them can take the freed address and port meanwhile.
func withDemoServer<Result: Sendable>(
    _ arguments: [String] = [], alone: Bool = false, _ body: (DemoServerProcess) async throws -> Result
) async throws -> Result {
    let host = alone ? ["--host", privateLoopbackHost()] : []
    let logFile = FileManager.default.temporaryDirectory.appending(path: "demo-server-\(UUID().uuidString).log")
    defer { try? FileManager.default.removeItem(at: logFile) }
    return try await withChildProcess(
        Binaries.demoServer, ["--port", "0", "--bcrypt-cost", "4", "--test-clock"] + host + arguments, log: logFile
    ) { lines in
        let line = lines[0]
        guard line.hasPrefix("listening on http://") || line.hasPrefix("listening on https://") else {
            throw StartFailure(description: "swagger-demo-server's first line: \(line)")
        }
        let server = DemoServerProcess(
            apiURL: line.dropFirst("listening on ".count) + DemoServerProcess.basePath, logFile: logFile)
        return try await body(server)
    }
}

/// Two demo servers at once, for what tells servers apart: their names, the default one, the sessions on each.
func withDemoServers<Result: Sendable>(
    _ body: (DemoServerProcess, DemoServerProcess) async throws -> Result
) async throws -> Result {
    try await withDemoServer { first in try await withDemoServer { second in try await body(first, second) } }
}

extension Duration {
    /// Whole seconds, rounded up, as a command-line argument.
    var seconds: String {
        let (seconds, attoseconds) = components
        return String(seconds + (attoseconds > 0 ? 1 : 0))
    }
}
