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
    let result = try await runProgram(
        URL(filePath: "/usr/bin/dbus-send"),
        [
            "--session", "--print-reply", "--dest=org.freedesktop.secrets", "/org/freedesktop/secrets",
            "org.freedesktop.Secret.Service.Lock", "array:objpath:/org/freedesktop/secrets/collection/login",
        ],
        environment: ["DBUS_SESSION_BUS_ADDRESS": address])
    guard result.status == 0 else { throw SupportFailure("Lock failed: \(result)") }
}
