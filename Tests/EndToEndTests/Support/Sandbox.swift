import Foundation
import SessionStorage
import SwaggerClient
import SwaggerModel
import Synchronization
import Testing

/// A private configuration folder and a clean environment for running `swaggerctl`, so tests never see the
/// developer's own sessions or settings.
final class Sandbox: Sendable {
    let root: URL
    var configDirectory: URL { root.appending(path: "config") }
    var cacheDirectory: URL { root.appending(path: "cache") }
    let extraEnvironment: [String: String]
    /// How far ahead of the system's clock the clock that swaggerctl sees is.
    private let clockOffset = Mutex<Duration>(.zero)

    init(environment: [String: String] = [:]) throws {
        extraEnvironment = environment
        root = FileManager.default.temporaryDirectory.appending(path: "swaggerctl-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    var environment: [String: String] {
        var environment = [
            "HOME": root.path,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "SWAGGERCTL_CONFIG_DIR": configDirectory.path,
            "SWAGGERCTL_CACHE_DIR": cacheDirectory.path,
            "SWAGGERCTL_KEYRING": "file",
            "SWAGGERCTL_KEYRING_TIMEOUT": TestKeyring.patientTimeout,
            // A bound for a hung server, not the 10 s a person gets: twenty processes started at once on two
            // busy cores can take longer than that to be answered. Tests of the timeout set their own.
            "SWAGGERCTL_TIMEOUT": "120",
        ]
        environment.merge(extraEnvironment) { $1 }
        return environment
    }

    /// Moves the clock that later `swaggerctl` runs see forward by `interval`, so that what they stored expires
    /// without anyone waiting for it.
    func advanceClock(by interval: Duration) {
        clockOffset.withLock { $0 += interval }
    }

    /// Moves both clocks forward by `interval`: the one `swaggerctl` sees, and the demo server's.
    func advanceClock(by interval: Duration, with server: DemoServerProcess) async throws {
        try await server.advanceClock(by: interval)
        advanceClock(by: interval)
    }

    /// Runs `swaggerctl` with `arguments`.
    func swaggerctl(_ arguments: String..., stdin: String? = nil) async throws -> CommandResult {
        try await swaggerctl(arguments, stdin: stdin)
    }

    /// Runs `swaggerctl` with `arguments`, with `environment` overriding the sandbox's own for this run.
    func swaggerctl(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:])
        async throws -> CommandResult
    {
        try await run(Binaries.swaggerctl, arguments, stdin: stdin, environment: environment)
    }

    /// Runs `program` as `swaggerctl` runs: in the sandbox's environment, and on its clock. A swaggerctl that the
    /// program starts (as git's credential helper, or kubectl's plugin) inherits both.
    func run(_ program: URL, _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:])
        async throws -> CommandResult
    {
        let environment = self.environment.merging(environment) { $1 }
        let offset = clockOffset.withLock { $0 }
        guard offset > .zero else {
            return try await runProgram(program, arguments, environment: environment, stdin: stdin)
        }
        // Debian's faketime moves the wall clock that swaggerctl reads, which expiry is measured by, and leaves the
        // monotonic clock that its timeouts run on alone. It prepares libfaketime's environment before it starts
        // the program: the library would otherwise change `environ` as it loads, and Swift finds the arguments
        // through `environ`. Its variables pass to the program's children with the rest of the environment.
        return try await runProgram(
            URL(filePath: "/usr/bin/faketime"),
            ["-m", "--exclude-monotonic", "-f", "+\(offset.seconds)", program.path] + arguments,
            environment: environment, stdin: stdin)
    }

    /// The demo server's built-in account.
    static let demo = (email: "demo@example.com", password: "demo-password")

    /// Logs in to `server` as the demo server's built-in account.
    func loginAsDemo(_ server: String, extra: [String] = [], environment: [String: String] = [:])
        async throws -> CommandResult
    {
        try await login(
            server, email: Self.demo.email, password: Self.demo.password, extra: extra, environment: environment)
    }

    /// Logs in with the password on standard input.
    func login(
        _ server: String, email: String, password: String, extra: [String] = [], environment: [String: String] = [:]
    ) async throws -> CommandResult {
        try await swaggerctl(
            ["login", "-s", server, "-e", email, "--password-stdin"] + extra, stdin: password + "\n",
            environment: environment)
    }

    var file: FileBackend { FileBackend(directory: configDirectory) }

    /// Expects `api PATH --paginate --slurp` to give every item of a paged list, whose ids are 1 to `count`, with
    /// nothing on stderr.
    func expectEveryItem(of path: String, count: Int = 25, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        let result = try await swaggerctl("api", path, "--paginate", "--slurp")
        #expect(result.status == 0 && result.stderr.isEmpty, "\(path): \(result)", sourceLocation: sourceLocation)
        let items = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        #expect(
            items?.compactMap { $0["id"] as? Int } == Array(1...count), "\(path): \(result)",
            sourceLocation: sourceLocation)
    }
    var profiles: ProfileCache { ProfileCache(directory: cacheDirectory) }
    var sessions: SessionList { SessionList(directory: configDirectory) }
    var credentialsFile: URL { configDirectory.appending(path: FileBackend.fileName) }
    var sessionsFile: URL { configDirectory.appending(path: SessionList.fileName) }

    /// The stored session's expiry as `status` and `refresh` print it ("2026-11-25 10:00:52 UTC"), once checked to
    /// lie `lifetime` after a moment between `start` and now: what a login or refresh that began at `start` records,
    /// however long a busy machine took over it. A second either way allows for whole-second rounding.
    func storedExpiry(lifetime: Duration, since start: Date, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> String
    {
        let expiresAt = try #require(try sessions.records().first?.expiresAt, sourceLocation: sourceLocation)
        let earliest = start.addingTimeInterval(lifetime.timeInterval - 1)
        let latest = Date().addingTimeInterval(lifetime.timeInterval + 1)
        #expect(earliest <= expiresAt && expiresAt <= latest, sourceLocation: sourceLocation)
        // "2026-11-25 10:00:52 UTC (now)", without its relative part.
        return String(RelativeTime.stamp(expiresAt, now: expiresAt).prefix { $0 != "(" }.dropLast())
    }

    /// Every file in the configuration folder, read as text, joined: for checking what was written.
    func allFileContents() throws -> String {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: configDirectory.path)) ?? []
        return try names.map { try String(contentsOf: configDirectory.appending(path: $0), encoding: .utf8) }
            .joined(separator: "\n")
    }
}
