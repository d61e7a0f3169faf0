import Foundation
import SessionMachine
import SessionStorage
import SwaggerHTTP
import SwaggerModel
import TestSupport
import Testing

@testable import SwaggerClient

@Suite(
    "Configuration: settings from the environment, and flag > environment > saved > default", .timeLimit(.minutes(5)))
struct ConfigurationTests {
    let temporary: TemporaryDirectory

    init() throws {
        temporary = try TemporaryDirectory()
    }

    static let home = ["HOME": "/home/ana"]

    @Test(
        "the configuration folder: SWAGGERCTL_CONFIG_DIR, else XDG_CONFIG_HOME/swaggerctl, else HOME/.config/swaggerctl",
        arguments: [
            (["SWAGGERCTL_CONFIG_DIR": "/etc/sc", "XDG_CONFIG_HOME": "/xdg", "HOME": "/home/ana"], "/etc/sc"),
            (["SWAGGERCTL_CONFIG_DIR": "/etc/sc"], "/etc/sc"),
            (["XDG_CONFIG_HOME": "/xdg", "HOME": "/home/ana"], "/xdg/swaggerctl"),
            (["XDG_CONFIG_HOME": "/xdg"], "/xdg/swaggerctl"),
            (["HOME": "/home/ana"], "/home/ana/.config/swaggerctl"),
            // A relative XDG_CONFIG_HOME is invalid by the XDG spec and is ignored.
            (["XDG_CONFIG_HOME": "relative/config", "HOME": "/home/ana"], "/home/ana/.config/swaggerctl"),
            // Empty values count as unset.
            (
                ["SWAGGERCTL_CONFIG_DIR": "", "XDG_CONFIG_HOME": "", "HOME": "/home/ana"],
                "/home/ana/.config/swaggerctl"
            ),
        ])
    func directory(environment: [String: String], path: String) throws {
        #expect(try Configuration(environment: environment).directory.path == path)
    }

    @Test(
        "no HOME and no SWAGGERCTL_CONFIG_DIR is a usage error",
        arguments: [
            [:], ["XDG_CONFIG_HOME": "relative"], ["HOME": ""], ["SWAGGERCTL_CONFIG_DIR": "", "HOME": ""],
            ["SWAGGERCTL_SERVER": "http://h/api"],
        ])
    func noDirectory(environment: [String: String]) {
        #expect(throws: SwaggerError.self) { try Configuration(environment: environment) }
        #expect(Self.code { try Configuration(environment: environment) } == .usage)
    }

    @Test(
        "SWAGGERCTL_KEYRING names the keystore, in any case; unset is auto",
        arguments: [
            ("file", BackendChoice.file), ("auto", .auto), ("FILE", .file), ("Auto", .auto), ("", .auto),
            ("secret-service", .keyring), ("Secret-Service", .keyring), ("kernel", .kernel), ("KERNEL", .kernel),
        ])
    func keyring(value: String, choice: BackendChoice) throws {
        let environment = Self.home.merging(["SWAGGERCTL_KEYRING": value]) { $1 }
        #expect(try Configuration(environment: environment).backendChoice == choice)
        #expect(try Configuration(environment: Self.home).backendChoice == .auto)
    }

    @Test(
        "an unknown SWAGGERCTL_KEYRING is a usage error that lists the choices",
        arguments: ["nonsense", "secretservice", "keyring", " file", "keyctl"])
    func unknownKeyring(value: String) {
        let environment = Self.home.merging(["SWAGGERCTL_KEYRING": value]) { $1 }
        let error = #expect(throws: SwaggerError.self) { try Configuration(environment: environment) }
        #expect(error?.code == .usage)
        #expect(error?.message.contains("auto, secret-service, file, kernel") == true)
    }

    @Test("--keyring wins over SWAGGERCTL_KEYRING, even over a value that would not parse")
    func keyringFlag() throws {
        let environment = Self.home.merging(["SWAGGERCTL_KEYRING": "file"]) { $1 }
        #expect(try Configuration(environment: environment, keyring: .keyring).backendChoice == .keyring)
        let broken = Self.home.merging(["SWAGGERCTL_KEYRING": "nonsense"]) { $1 }
        #expect(try Configuration(environment: broken, keyring: .file).backendChoice == .file)
    }

    @Test(
        "SWAGGERCTL_KEYRING_TIMEOUT is seconds, fractions allowed; unset is 3 s; nonsense is a usage error",
        arguments: [
            ("0.5", Duration?.some(.milliseconds(500))), ("10", .seconds(10)), ("", .seconds(3)), ("0", nil),
            ("-2", nil), ("3s", nil), ("nan", nil),
        ])
    func keyringTimeout(value: String, expected: Duration?) throws {
        let environment = Self.home.merging(["SWAGGERCTL_KEYRING_TIMEOUT": value]) { $1 }
        if let expected {
            #expect(try Configuration(environment: environment).keyringTimeout == expected)
        } else {
            #expect(Self.code { try Configuration(environment: environment) } == .usage)
        }
    }

    @Test("the session bus: DBUS_SESSION_BUS_ADDRESS, else a socket at $XDG_RUNTIME_DIR/bus, else none")
    func sessionBus() throws {
        let runtime = temporary.url.appending(path: "runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let environment = Self.home.merging(["XDG_RUNTIME_DIR": runtime.path]) { $1 }
        #expect(SessionBus.address(in: environment) == nil)
        #expect(SessionBus.address(in: Self.home) == nil)

        // A plain file named bus is not a bus.
        try Data().write(to: runtime.appending(path: "bus"))
        #expect(SessionBus.address(in: environment) == nil)
        try FileManager.default.removeItem(at: runtime.appending(path: "bus"))

        let socket = try UnixListeningSocket(path: runtime.appending(path: "bus").path)
        defer { socket.close() }
        #expect(SessionBus.address(in: environment) == "unix:path=\(runtime.path)/bus")
        #expect(try Configuration(environment: environment).sessionBusAddress == "unix:path=\(runtime.path)/bus")

        let explicit = environment.merging(["DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/elsewhere"]) { $1 }
        #expect(SessionBus.address(in: explicit) == "unix:path=/run/elsewhere")
        let empty = Self.home.merging(["DBUS_SESSION_BUS_ADDRESS": ""]) { $1 }
        #expect(SessionBus.address(in: empty) == nil)
    }

    @Test(
        "SWAGGERCTL_TIMEOUT is seconds, fractions allowed; unset is 10 s",
        arguments: [
            ("2.5", Duration.milliseconds(2500)), ("10", .seconds(10)), ("0.25", .milliseconds(250)),
            ("3600", .seconds(3600)), ("", .seconds(10)),
        ])
    func timeout(value: String, duration: Duration) throws {
        let environment = Self.home.merging(["SWAGGERCTL_TIMEOUT": value]) { $1 }
        #expect(try Configuration(environment: environment).timeout == duration)
        #expect(try Configuration(environment: Self.home).timeout == .seconds(10))
    }

    @Test(
        "a SWAGGERCTL_TIMEOUT that is not a positive number of seconds is a usage error",
        arguments: [
            "0", "abc", "-1", "3601", "nan", "inf", "10s", " 5",
        ])
    func badTimeout(value: String) {
        let environment = Self.home.merging(["SWAGGERCTL_TIMEOUT": value]) { $1 }
        #expect(Self.code { try Configuration(environment: environment) } == .usage)
    }

    @Test(
        "a SWAGGERCTL_LOCK_TIMEOUT that is not a positive number of seconds is a usage error that names it",
        arguments: ["0", "-1", "nan", "inf", "1e300", "abc", "3601"])
    func badLockTimeout(value: String) {
        let environment = Self.home.merging(["SWAGGERCTL_LOCK_TIMEOUT": value]) { $1 }
        do {
            _ = try Configuration(environment: environment)
            Issue.record("SWAGGERCTL_LOCK_TIMEOUT=\(value) was taken")
        } catch {
            #expect(error.code == .usage)
            #expect(
                error.message == "SWAGGERCTL_LOCK_TIMEOUT must be a number of seconds, such as 60; got \"\(value)\".")
        }
        for good in ["0.5", "60", "3600", ""] {
            #expect(throws: Never.self) {
                try Configuration(environment: Self.home.merging(["SWAGGERCTL_LOCK_TIMEOUT": good]) { $1 })
            }
        }
    }

    @Test("a tiny positive SWAGGERCTL_TIMEOUT is rejected or kept, never truncated to a zero timeout")
    func tinyTimeout() throws {
        let environment = Self.home.merging(["SWAGGERCTL_TIMEOUT": "0.0001"]) { $1 }
        do {
            #expect(try Configuration(environment: environment).timeout > .zero)
        } catch {
            #expect(error.code == .usage)
        }
    }

    @Test("SWAGGERCTL_SERVER and SWAGGERCTL_APP_ID are read as given; empty counts as unset")
    func serverAndAppIDFromEnvironment() throws {
        let set = try Configuration(
            environment: Self.home.merging([
                "SWAGGERCTL_SERVER": "https://env.example/api", "SWAGGERCTL_APP_ID": "env-app",
            ]) { $1 })
        #expect(try set.serverFromEnvironment?.get() == .url(Fixtures.serverURL("https://env.example/api")))
        #expect(set.appIDFromEnvironment == "env-app")

        let empty = try Configuration(
            environment: Self.home.merging(["SWAGGERCTL_SERVER": "", "SWAGGERCTL_APP_ID": ""]) { $1 })
        #expect(empty.serverFromEnvironment == nil)
        #expect(empty.appIDFromEnvironment == nil)
    }

    // MARK: - Server precedence

    /// An index holding sessions on two servers; the newest is on `https://newest.example/api`.
    func index() throws -> SessionList {
        let index = SessionList(directory: temporary.url)
        let older = Account(server: "https://older.example/api", name: "ana@example.com")
        let newest = Account(server: "https://newest.example/api", name: "ana@example.com")
        let oldest = Account(server: "https://oldest.example/api", name: "ivo@example.com")
        try index.save(Fixtures.record(older, savedAt: Fixtures.savedAt.addingTimeInterval(-60)))
        try index.save(Fixtures.record(newest, savedAt: Fixtures.savedAt))
        try index.save(Fixtures.record(oldest, savedAt: Fixtures.savedAt.addingTimeInterval(-3600)))
        return index
    }

    @Test("--server wins over the environment and the saved sessions, and is normalised")
    func serverFlag() throws {
        let configuration = try Configuration(environment: [
            "HOME": "/h", "SWAGGERCTL_SERVER": "https://env.example/api",
        ])
        #expect(
            try configuration.server(
                flag: ServerReference("HTTPS://Flag.Example:443/api/"), current: index().records().first?.server,
                entries: []
            )?
            .string == "https://flag.example/api")
    }

    @Test("SWAGGERCTL_SERVER wins over the saved sessions, and is normalised")
    func serverEnvironment() throws {
        let configuration = try Configuration(environment: [
            "HOME": "/h", "SWAGGERCTL_SERVER": "https://Env.example/api/",
        ])
        #expect(
            try configuration.server(flag: nil, current: index().records().first?.server, entries: [])?.string
                == "https://env.example/api")
    }

    @Test("with no flag and no environment, the current server is used")
    func serverSaved() throws {
        let configuration = try Configuration(environment: ["HOME": "/h"])
        #expect(
            try configuration.server(flag: nil, current: index().records().first?.server, entries: [])?.string
                == "https://newest.example/api")
    }

    @Test("with nothing saved and nothing named, there is no server: no address of last resort")
    func serverNone() throws {
        let configuration = try Configuration(environment: ["HOME": "/h"])
        let empty = SessionList(directory: temporary.appending("never-created"))
        #expect(try configuration.server(flag: nil, current: empty.records().first?.server, entries: []) == nil)
    }

    @Test("-s and SWAGGERCTL_SERVER take a server's name, resolved by the registry's names")
    func serverNamed() throws {
        var entry = ServerEntry(
            server: Fixtures.otherServer, description: Fixtures.original(Fixtures.otherServer),
            updatedAt: Fixtures.savedAt)
        entry.name = try ServerName("prod")
        let configuration = try Configuration(environment: ["HOME": "/h", "SWAGGERCTL_SERVER": "prod"])
        #expect(try configuration.serverFromEnvironment?.get() == .name(ServerName("prod")))
        #expect(try configuration.server(flag: nil, current: Fixtures.server, entries: [entry]) == Fixtures.otherServer)
        #expect(
            try configuration.server(flag: ServerReference("prod"), current: nil, entries: [entry])
                == Fixtures.otherServer)
        #expect(Self.code { try configuration.server(flag: nil, current: nil, entries: []) } == .usage)
    }

    @Test("a malformed SWAGGERCTL_SERVER is a usage error for a command that needs a server, and only then")
    func serverMalformed() throws {
        let configuration = try Configuration(environment: ["HOME": "/h", "SWAGGERCTL_SERVER": "ftp://env"])
        let empty = SessionList(directory: temporary.appending("never-created"))
        #expect(
            Self.code { try configuration.server(flag: nil, current: empty.records().first?.server, entries: []) }
                == .usage)
        #expect(
            try configuration.server(flag: .url(Fixtures.server), current: empty.records().first?.server, entries: [])
                == Fixtures.server,
            "--server wins, so the environment's value is never used")
    }

    // MARK: - App id precedence

    /// The code of the `SwaggerError` that `body` throws, or `nil` when it throws nothing or something else.
    static func code<R>(_ body: () throws -> R) -> SwaggerError.Code? {
        do {
            _ = try body()
            return nil
        } catch let error as SwaggerError {
            return error.code
        } catch {
            return nil
        }
    }
}
