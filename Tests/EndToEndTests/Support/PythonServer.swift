import Foundation
import Testing

/// A third-party server that the tests log in to, from `Tests/Fixtures/python`, run with the venv that
/// `make test` makes (`scripts/python-env`): the FastAPI app, or Django OAuth Toolkit. Each listens on a
/// loopback address of its own and a free port, and is stopped with SIGTERM.
final class PythonServer: StoppableProcess {
    enum Fixture: String {
        /// FastAPI's OAuth2PasswordRequestForm and OAuth2PasswordBearer, with paged lists.
        case fastapi
        /// Django OAuth Toolkit under `/o`: password grant, rotation, revocation, introspection, OIDC.
        case dot
    }

    /// The venv's interpreter.
    static var python: URL { Project.root.appending(path: ".build-py/venv/bin/python") }

    let process: Process
    /// The server's origin, such as `http://127.4.5.6:41234`.
    let origin: String
    private let folder: URL

    private init(_ fixture: Fixture, environment: [String: String]) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.python.path) else {
            throw Failure("no \(Self.python.path): `make test` makes it with scripts/python-env")
        }
        folder = FileManager.default.temporaryDirectory.appending(path: "swaggerctl-py-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let host = "127.\(Int.random(in: 1...254)).\(Int.random(in: 0...255)).\(Int.random(in: 1...254))"
        let process = Process()
        process.executableURL = Self.python
        process.arguments = [
            Project.root.appending(path: "Tests/Fixtures/python/serve.py").path, fixture.rawValue, host,
        ]
        process.environment = [
            "PATH": "/usr/bin:/bin", "HOME": folder.path, "PYTHONDONTWRITEBYTECODE": "1",
            "DOT_DATABASE": folder.appending(path: "db.sqlite3").path,
        ].merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: Self.log(in: folder))
        try process.runWithDefaultSignalMask()
        guard let line = readLines(1, from: output.fileHandleForReading)?.first, line.hasPrefix("listening on ") else {
            process.waitUntilExit()
            let log = (try? String(contentsOf: folder.appending(path: "server.log"), encoding: .utf8)) ?? ""
            throw Failure("\(fixture) exited with \(process.terminationStatus): \(log.suffix(2000))")
        }
        self.process = process
        origin = String(line.dropFirst("listening on ".count))
    }

    private static func log(in folder: URL) -> URL {
        let log = folder.appending(path: "server.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        return log
    }

    static func start(_ fixture: Fixture, environment: [String: String] = [:]) async throws -> PythonServer {
        try await onDedicatedThread { try PythonServer(fixture, environment: environment) }
    }

    func stop() async {
        guard process.isRunning else { return }
        process.terminate()
        let process = process
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                process.waitUntilExit()
                continuation.resume()
            }
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Sends a request with curl, outside swaggerctl: how a test sees what the server thinks.
    func curl(_ arguments: [String]) async throws -> CommandResult {
        try await runProgram(
            URL(filePath: "/usr/bin/curl"), ["--silent", "--show-error"] + arguments,
            environment: ["PATH": "/usr/bin:/bin"])
    }

    /// The JSON object that `curl` gets.
    func json(_ arguments: [String]) async throws -> [String: Any] {
        let result = try await curl(arguments)
        return try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

/// Runs `body` with a fresh `fixture` server, and stops it afterwards.
func withPythonServer<Result>(
    _ fixture: PythonServer.Fixture, environment: [String: String] = [:],
    _ body: (PythonServer) async throws -> Result
) async throws -> Result {
    try await using(try await PythonServer.start(fixture, environment: environment), body)
}
