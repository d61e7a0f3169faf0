import Foundation
import SessionMachine
import SessionStorage
import SwaggerClient
import SwaggerHTTP
import SwaggerModel

/// The session bus that `make test` runs the suite on (`scripts/keyring-session`), with its own unlocked
/// gnome-keyring. The Secret Service tests use it freely, so they refuse any other bus: they fail, never
/// skip, when it is missing.
enum TestKeyring {
    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "The Secret Service tests need the private keyring that `make test` starts: run them with "
                + "`scripts/keyring-session swift test --skip-build`. They never use your own keyring."
        }
    }

    /// The private bus's address.
    static func busAddress() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        guard let address = environment["SWAGGERCTL_TEST_KEYRING"], !address.isEmpty,
            environment["DBUS_SESSION_BUS_ADDRESS"] == address
        else { throw Missing() }
        return address
    }

    /// How long the tests let each keyring call take, where the timeout is not what they test: a bound for a
    /// hung daemon. Many tests run at once on two busy cores, and gnome-keyring can then take far longer than
    /// swaggerctl's 3 s default; the tests of the timeout set their own.
    static let patientSeconds = 120

    /// ``patientSeconds`` as `SWAGGERCTL_KEYRING_TIMEOUT` takes it.
    static var patientTimeout: String { "\(patientSeconds)" }

    /// A keyring backend on the private bus, with ``patientSeconds``.
    static func keyring(_ address: String) -> KeyringBackend {
        KeyringBackend(timeout: .seconds(patientSeconds), busAddress: address)
    }
}

/// The project's root folder, for its scripts.
enum Project {
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let keyringSession = root.appending(path: "scripts/keyring-session")
    static let busConfiguration = root.appending(path: "scripts/keyring-session.conf")
}

/// A D-Bus session bus of one test's own, from `dbus-run-session` with the project's bus configuration,
/// which activates no services. What else is on it is up to the test: nothing, a Secret Service that never
/// answers, or a gnome-keyring that the test may lock.
struct PrivateBus: Sendable {
    enum Occupant {
        /// Only the bus: nothing provides org.freedesktop.secrets.
        case nothing
        /// `StalledSecretService`, which owns org.freedesktop.secrets and never answers.
        case stalledSecretService
        /// A gnome-keyring-daemon with an unlocked login keyring, from `scripts/keyring-session`.
        case keyring
    }

    let address: String
}

/// Runs `body` with a private bus, and ends the bus, and everything on it, afterwards.
func withPrivateBus<Result: Sendable>(
    _ occupant: PrivateBus.Occupant, _ body: (PrivateBus) async throws -> Result
) async throws -> Result {
    let printAddress = #"printf '%s\n' "$DBUS_SESSION_BUS_ADDRESS"; "#
    let session = ["--config-file=\(Project.busConfiguration.path)", "--", "sh", "-c"]
    let runSession = URL(filePath: "/usr/bin/dbus-run-session")
    let (executable, arguments, lines): (URL, [String], Int) =
        switch occupant {
        case .nothing: (runSession, session + [printAddress + "exec sleep infinity"], 1)
        case .stalledSecretService:
            (
                runSession,
                session + [
                    printAddress + #"exec "$0""#, Binaries.directory.appending(path: "StalledSecretService").path,
                ],
                2
            )
        case .keyring: (Project.keyringSession, ["sh", "-c", printAddress + "exec sleep infinity"], 1)
        }
    return try await withChildProcess(executable, arguments, readyLines: lines) { printed in
        guard let address = printed.first, address.hasPrefix("unix:") else {
            throw StartFailure(description: "the private bus (\(occupant)) printed \(printed)")
        }
        return try await body(PrivateBus(address: address))
    }
}

/// Runs `secret-tool` against the bus at `address`, in a UTF-8 locale so that it takes non-ASCII arguments.
func secretTool(_ arguments: String..., bus address: String) async throws -> CommandResult {
    try await secretTool(arguments, bus: address)
}

/// `secret-tool store` reads the secret from standard input.
func secretTool(_ arguments: [String], stdin: String? = nil, bus address: String) async throws -> CommandResult {
    try await runProgram(
        URL(filePath: "/usr/bin/secret-tool"), arguments,
        environment: ["DBUS_SESSION_BUS_ADDRESS": address, "LC_ALL": "C.UTF-8"], stdin: stdin)
}

/// Runs python keyring's own command line (`keyring set|get|del SERVICE USER`) against the Secret Service on
/// the bus at `address`; `set` reads the password from standard input.
func pythonKeyring(_ arguments: [String], stdin: String? = nil, bus address: String) async throws -> CommandResult {
    try await runProgram(
        PythonServer.python, ["-m", "keyring", "-b", "keyring.backends.SecretService.Keyring"] + arguments,
        environment: ["DBUS_SESSION_BUS_ADDRESS": address, "LC_ALL": "C.UTF-8"], stdin: stdin)
}

/// Locks every collection of the Secret Service on the bus at `address`, as a screen lock would. This is
/// the Secret Service's own Lock method, sent with `dbus-send`: it needs no prompt.
func lockKeyring(bus address: String) async throws {
    try await dbusSend(
        to: "org.freedesktop.secrets", "/org/freedesktop/secrets", "org.freedesktop.Secret.Service.Lock",
        "array:objpath:/org/freedesktop/secrets/collection/login", bus: address)
}

/// Calls `method` on `object` of `destination` with `dbus-send`, and waits for the reply.
private func dbusSend(
    to destination: String, _ object: String, _ method: String, _ argument: String, bus address: String
)
    async throws
{
    let result = try await runProgram(
        URL(filePath: "/usr/bin/dbus-send"),
        ["--session", "--print-reply", "--dest=\(destination)", object, method, argument],
        environment: ["DBUS_SESSION_BUS_ADDRESS": address])
    guard result.status == 0 else { throw SupportFailure("\(method) failed: \(result)") }
}

/// What `dbus-monitor` printed of the messages on the bus at `address` while `body` ran.
///
/// The monitor's output goes to a file as it comes (`tee`, which does not buffer; dbus-monitor flushes each
/// message). After `body`, a marker call goes through the bus; the bus hands a monitor its messages in order,
/// so once the marker is in the file, so is everything `body` sent.
func monitoringBus(_ address: String, _ body: () async throws -> Void) async throws -> String {
    let folder = FileManager.default.temporaryDirectory.appending(path: "swaggerctl-monitor-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = folder.appending(path: "monitor.log")
    let marker = "swaggerctl-test-marker-\(UUID())"
    // dbus-monitor prints the NameAcquired and NameLost signals, two lines each, once it has become a monitor.
    return try await withChildProcess(
        URL(filePath: "/bin/sh"), ["-c", "/usr/bin/dbus-monitor --session | /usr/bin/tee /dev/stderr"],
        environment: ["DBUS_SESSION_BUS_ADDRESS": address], log: log, readyLines: 4
    ) { _ in
        try await body()
        try await dbusSend(
            to: "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner",
            "string:\(marker)", bus: address)
        let deadline = ContinuousClock.now + Deadline.command
        while true {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let end = text.range(of: marker) { return String(text[..<end.lowerBound]) }
            guard ContinuousClock.now < deadline else { throw SupportFailure("the monitor never saw the marker") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
