import ArgumentParser
import Foundation
import SwaggerClient

/// `-s/--server`: which API a command talks to.
struct ServerOption: ParsableArguments {
    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "The API's base URL. Default: SWAGGERCTL_SERVER, else the server last logged in to, else "
                + "\(Configuration.defaultServer).",
            valueName: "url"))
    var server: String?
}

/// `-s/--server` and `-e/--email`: which stored session a command uses.
struct SessionOptions: ParsableArguments {
    @OptionGroup var serverOption: ServerOption

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "The account to use when several are logged in to the server. Default: the newest.", valueName: "email"))
    var email: String?

    var server: String? { serverOption.server }
}

/// `--keyring`: where tokens are kept.
struct KeyringOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Where tokens are kept: auto (the keyring, else a private file, with a warning), secret-service "
                + "(the keyring only) or file (never D-Bus). Default: SWAGGERCTL_KEYRING, else auto.",
            valueName: "backend"))
    var keyring: KeystoreChoice?
}

extension KeystoreChoice: ExpressibleByArgument {
    /// Parses `--keyring`'s value as ``KeystoreChoice/init(parsing:)`` does.
    public init?(argument: String) {
        guard let choice = try? KeystoreChoice(parsing: argument) else { return nil }
        self = choice
    }
}

/// `--format`: how data is printed.
struct FormatOptions: ParsableArguments {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table
        case json
    }

    @Option(help: "Output format: table or json.")
    var format: Format = .table
}

extension Configuration {
    /// The configuration from this process's environment and the `--keyring` value, if any.
    static func fromEnvironment(keyring: KeyringOption? = nil) throws(SwaggerError) -> Configuration {
        try Configuration(environment: ProcessInfo.processInfo.environment, keyring: keyring?.keyring)
    }
}
