import ArgumentParser
import Foundation
import SwaggerClient

/// `-s/--server`: which API a command talks to. The shell completes it from the stored sessions.
struct ServerOption: ParsableArguments {
    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "The API's base URL. Default: SWAGGERCTL_SERVER, else the server last logged in to or switched to, else "
                + "\(Configuration.defaultServer).",
            valueName: "url"),
        completion: .custom { _, _, prefix in
            ShellCompletions.servers(prefix: prefix, environment: ProcessInfo.processInfo.environment)
        })
    var server: String?
}

/// `-s/--server` and `-e/--email`: which stored session a command uses. The shell completes the e-mail from
/// the accounts stored for the server on the command line.
struct SessionOptions: ParsableArguments {
    @OptionGroup var serverOption: ServerOption

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "The account to use when several are logged in to the server. Default: the active one (see switch).",
            valueName: "email"),
        completion: .custom { words, _, prefix in
            ShellCompletions.emails(words: words, prefix: prefix, environment: ProcessInfo.processInfo.environment)
        })
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

/// `-v/--verbose` and `--ca-cert`: how a command talks to the network.
struct NetworkOptions: ParsableArguments {
    @Flag(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Describe each request and response on stderr, with every password and token hidden. "
                + "SWAGGERCTL_DEBUG=1 does the same."))
    var verbose = false

    @Option(
        help: ArgumentHelp(
            "Also trust the certificate authorities in this PEM file, for a server with a private CA. "
                + "Default: SWAGGERCTL_CA_CERT.",
            valueName: "file"))
    var caCert: String?
}

extension Configuration {
    /// The configuration from this process's environment, `--keyring` and the network options, if any.
    static func fromEnvironment(keyring: KeyringOption? = nil, network: NetworkOptions? = nil) throws(SwaggerError)
        -> Configuration
    {
        var configuration = try Configuration(
            environment: ProcessInfo.processInfo.environment, keyring: keyring?.keyring,
            caCertificate: network?.caCert)
        if network?.verbose == true { configuration.verbose = true }
        return configuration
    }
}

extension SessionController {
    /// ``withController(configuration:delegate:warn:log:_:)`` with the terminal's warning and verbose lines.
    static func atTerminal<Result: Sendable>(
        _ configuration: Configuration, delegate: (any APIServiceDelegate)? = nil,
        _ body: (SessionController) async throws(SwaggerError) -> Result
    ) async throws(SwaggerError) -> Result {
        try await withController(
            configuration: configuration, delegate: delegate, warn: Terminal.warning, log: Terminal.notice, body)
    }
}
