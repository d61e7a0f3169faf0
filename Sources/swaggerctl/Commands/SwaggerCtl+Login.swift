import ArgumentParser
import FoundationEssentials
import SwaggerClient
import SwaggerModel
import SwaggerServers

extension SwaggerCtl {
    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "login",
            abstract: "Log in, store the token, and show your profile.",
            usage: """
                swaggerctl login -s <url> -e <email> [--password-stdin] [<options>]
                swaggerctl login -s <url> --with-token | --web | --device
                swaggerctl login --client-credentials --client-id <id> <its proof>
                """,
            discussion: """
                swaggerctl learns how to log in from what the server publishes, and keeps it for the server. A \
                missing account and the password are asked for on a terminal; a script gives the password with \
                --password-stdin, never as an option's value.

                Examples:
                  swaggerctl login -s https://api.example.com -e me@example.com
                  swaggerctl login -e me@example.com --password-stdin -q < password.txt
                  swaggerctl login --web -s https://auth.example.com
                """)

        @OptionGroup(title: "Signing in") var basics: LoginBasics
        @OptionGroup(title: "Signing in in the browser") var browserSignIn: BrowserSignIn
        @OptionGroup(title: "Signing in as a machine") var machineSignIn: MachineSignIn
        @OptionGroup(title: "The OAuth 2 client, for both") var client: ClientOptions

        @Flag(
            help: ArgumentHelp(
                "Bind the session's tokens to a key made now and kept with them (DPoP, RFC 9449): every request "
                    + "carries a proof signed with it, so a copied token is of no use alone."))
        var dpop = false

        @OptionGroup var serverFile: ServerFileOption
        @OptionGroup var output: FormatOptions

        @Flag(
            name: .shortAndLong,
            help: "Print no profile and no \"Logged in\" line; warnings, such as the keyring's, still go to stderr.")
        var quiet = false

        @Flag(
            help: ArgumentHelp(
                "Allow the password and tokens over plain http:// to a host that is not this machine, where anyone "
                    + "on the network between can read them. The choice is saved with the session. Default: "
                    + "SWAGGERCTL_ALLOW_HTTP=1."))
        var allowHttp = false

        @OptionGroup var origins: OriginOptions
        @OptionGroup var yes: YesOption

        @OptionGroup var verbose: VerboseOption
        @OptionGroup var caCert: CACertOption
        // Hidden, to keep the help to what a login is: where tokens go, which has its variable (SWAGGERCTL_KEYRING);
        // and, for a release, what describes a server, which is `server set`'s now.
        @OptionGroup(visibility: .hidden) var keyring: KeyringOption
        @OptionGroup(visibility: .hidden) var serverDescription: ServerDescriptionOptions

        @Option(
            name: .customLong("app-id"),
            help: ArgumentHelp("The original API's app id, kept for the server.", valueName: "id", visibility: .hidden))
        var appID: String?

        // The groups' values by their flags' names, for the checks across them.
        private var email: String? { basics.email }
        private var username: String? { basics.username }
        private var passwordStdin: Bool { basics.passwordStdin }
        private var withToken: Bool { basics.withToken }
        private var web: Bool { browserSignIn.web }
        private var device: Bool { browserSignIn.device }
        private var browserTimeout: Int? { browserSignIn.browserTimeout }
        private var clientCredentials: Bool { machineSignIn.clientCredentials }
        private var clientKey: String? { machineSignIn.clientKey }
        private var clientKeyId: String? { machineSignIn.clientKeyId }
        private var clientCert: String? { machineSignIn.clientCert }
        private var clientSecretStdin: Bool { machineSignIn.clientSecretStdin }

        func validate() throws {
            if email != nil, username != nil {
                throw ValidationError("--email and --username both name the account; give one of them.")
            }
            if device, web {
                throw ValidationError("--device and --web are two ways to sign in in a browser; give one of them.")
            }
            if browserTimeout != nil, !web {
                throw ValidationError("--browser-timeout is for --web.")
            }
            if let browserTimeout, browserTimeout < 1 || browserTimeout > 86_400 {
                throw ValidationError("--browser-timeout must be from 1 to 86400 seconds.")
            }
            if device || web, passwordStdin {
                throw ValidationError(
                    "\(device ? "--device" : "--web") signs in in the browser, where the password is typed; it takes "
                        + "none. A confidential client's secret comes on standard input.")
            }
            if clientCredentials {
                let other = [
                    (email != nil, "--email"), (username != nil, "--username"), (passwordStdin, "--password-stdin"),
                    (web, "--web"), (device, "--device"),
                ].first { $0.0 }
                if let other {
                    throw ValidationError(
                        "--client-credentials signs in as the client, not as a person; \(other.1) does not go with it.")
                }
                guard clientSecretStdin != (clientKey != nil) else {
                    throw ValidationError(
                        "--client-credentials needs the client's proof: give --client-secret-stdin or --client-key.")
                }
            } else if clientKey != nil || clientKeyId != nil || clientCert != nil {
                throw ValidationError("--client-key, --client-key-id and --client-cert are for --client-credentials.")
            }
            if clientCert != nil, clientKey == nil {
                throw ValidationError("--client-cert needs its private key: give --client-key too.")
            }
            if clientKeyId != nil, clientKey == nil {
                throw ValidationError("--client-key-id names the key of --client-key; give that too.")
            }
            if withToken {
                let other = [
                    (passwordStdin, "--password-stdin"), (web, "--web"), (device, "--device"),
                    (clientCredentials, "--client-credentials"), (clientSecretStdin, "--client-secret-stdin"),
                    (dpop, "--dpop"),
                ].first { $0.0 }
                if let other {
                    throw ValidationError(
                        "--with-token logs in with a token the server made before; \(other.1) does not go with it.")
                }
            }
            if passwordStdin, email == nil, username == nil {
                throw ValidationError(
                    "Give the account with --email or --username when the password comes from standard input.")
            }
        }

        func run() async throws {
            var command = LoginCommand()
            command.server = try basics.serverOption.reference()
            command.name = try basics.serverName.request()
            command.description = GivenDescription(
                file: serverFile.serverFile, flags: try serverDescription.flags(client: client),
                allowOrigin: origins.allowOrigin)
            command.account = (email ?? username).map { AccountName($0, isEmail: email != nil) }
            command.passwordStdin = passwordStdin
            command.withToken = withToken
            command.browser = web ? .web : device ? .device : nil
            command.browserTimeout = browserTimeout ?? 300
            command.machine =
                clientCredentials
                ? LoginCommand.MachineSignIn(key: clientKey, keyID: clientKeyId, certificate: clientCert) : nil
            command.clientSecretStdin = clientSecretStdin
            command.dpop = dpop
            command.appID = appID
            command.allowHTTP = allowHttp
            command.quiet = quiet
            command.yes = yes.yes
            command.format = output.format
            command.connection = ConnectionChoice(
                keyring: keyring.keyring, verbose: verbose.verbose, caCertificate: caCert.caCert)
            try await command.run(.terminal)
        }
    }
}

/// What every login names: the server, the account, and how the secret comes, first in `login --help`.
struct LoginBasics: ParsableArguments {
    @OptionGroup var serverOption: ServerOption

    @Option(name: .shortAndLong, help: ArgumentHelp("The account's e-mail.", valueName: "email"))
    var email: String?

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("The account's user name, where there is no e-mail.", valueName: "name"))
    var username: String?

    @Flag(help: "Read the password from standard input.")
    var passwordStdin = false

    @Flag(
        help: ArgumentHelp(
            "Log in with a token you have (a personal access token, an API key), read from standard input."))
    var withToken = false

    @OptionGroup var serverName: ServerNameOption
}

/// `login --web` and `--device`: the sign-in is made on the provider's own pages.
struct BrowserSignIn: ParsableArguments {
    @Flag(
        help: ArgumentHelp(
            "Sign in in a browser, here or elsewhere, with a one-time code (RFC 8628) instead of a password. It "
                + "needs an OAuth 2 server with a device authorization endpoint, and its client id."))
    var device = false

    @Flag(
        help: ArgumentHelp(
            "Sign in in the browser instead of with a password (the authorization code grant with PKCE), answered "
                + "on a port of this machine. $BROWSER, else xdg-open, opens the address, which is printed too."))
    var web = false

    @Option(
        help: ArgumentHelp(
            "With --web, how long to wait for the browser, in seconds. Default: 300.", valueName: "seconds",
            visibility: .hidden))
    var browserTimeout: Int?

}

/// `login --client-credentials`: the client signs in as itself, with its secret, its key or its certificate.
struct MachineSignIn: ParsableArguments {
    @Flag(
        help: ArgumentHelp(
            "Sign in as the OAuth 2 client itself (the client credentials grant), for a machine: the client named "
                + "by --client-id, proven by --client-secret-stdin, --client-key, or --client-cert with --client-key. "
                + "Renewed by asking again."))
    var clientCredentials = false

    @Option(
        help: ArgumentHelp(
            "The client's private key (PEM: EC P-256 or P-384, RSA, Ed25519), which signs its assertions "
                + "(private_key_jwt) in place of a secret. Kept with the session in the token store.",
            valueName: "file"))
    var clientKey: String?

    @Option(
        help: ArgumentHelp(
            "The key id (kid) the server knows --client-key by, where it holds several.", valueName: "kid"))
    var clientKeyId: String?

    @Option(
        help: ArgumentHelp(
            "The client's certificate (PEM), for --client-key's key: the client proves itself in TLS "
                + "(tls_client_auth), and every request of the session presents it.",
            valueName: "file"))
    var clientCert: String?

    @Flag(
        help: ArgumentHelp(
            "Read a confidential client's secret from standard input: its only line, or, with --password-stdin, "
                + "its second. Kept with the session in the token store."))
    var clientSecretStdin = false
}
