import ArgumentParser
import FoundationEssentials
import SessionMachine
import SessionStorage
import SwaggerClient
import SwaggerHTTP
import SwaggerModel

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
                .map(completionValue)
        })
    var server: String?

    /// `--server`, parsed; `nil` when it is not given.
    func url() throws(SwaggerError) -> ServerURL? {
        try server.map { (text) throws(SwaggerError) in try ServerURL(text) }
    }
}

/// A value as the shell that asked for it reads it. zsh's `_describe` takes the text after an unescaped `:` for
/// the value's description, which would leave `http` of a URL; bash's `:` is handled in the script (see
/// ``SwaggerCtl/Completion``).
func completionValue(_ value: String) -> String {
    CompletionShell.requesting == .zsh ? value.replacing(":", with: "\\:") : value
}

/// `-s/--server` and `-e/--email` or `-u/--username`: which stored session a command uses. The shell completes
/// the account from those stored for the server on the command line.
struct SessionOptions: ParsableArguments {
    @OptionGroup var serverOption: ServerOption

    @Option(
        name: [.customShort("e"), .customLong("email")],
        help: ArgumentHelp(
            "The account to use when several are logged in to the server. Default: the active one (see switch).",
            valueName: "email"),
        completion: .custom(accountCompletions))
    var emailOption: String?

    @Option(
        name: [.customShort("u"), .customLong("username")],
        help: ArgumentHelp("The account, for a server that signs in by user name; as --email.", valueName: "name"),
        completion: .custom(accountCompletions))
    var usernameOption: String?

    /// The account that `--email` or `--username` names; sessions are kept by it whichever names it.
    var email: String? { emailOption ?? usernameOption }

    func validate() throws {
        if emailOption != nil, usernameOption != nil {
            throw ValidationError("--email and --username both name the account; give one of them.")
        }
    }

    var server: String? { serverOption.server }

    /// `--server`, parsed; `nil` when it is not given.
    func serverURL() throws(SwaggerError) -> ServerURL? { try serverOption.url() }
}

/// `--keyring`: where tokens are kept.
struct KeyringOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Where tokens are kept: auto (the keyring, else a private file, with a warning), secret-service "
                + "(the keyring only) or file (never D-Bus). Default: SWAGGERCTL_KEYRING, else auto.",
            valueName: "backend"))
    var keyring: BackendChoice?
}

/// The accounts stored for the server on the command line, for `--email` and `--username`.
@Sendable func accountCompletions(_ words: [String], _: Int, _ prefix: String) -> [String] {
    ShellCompletions.emails(words: words, prefix: prefix, environment: ProcessInfo.processInfo.environment)
        .map(completionValue)
}

extension BackendChoice: ExpressibleByArgument {
    /// Parses `--keyring`'s value as ``BackendChoice/init(parsing:)`` does.
    package init?(argument: String) {
        guard let choice = try? BackendChoice(parsing: argument) else { return nil }
        self = choice
    }
}

/// `--kind` and what describes a server that is not the original API. Each is saved with the session.
struct ServerDescriptionOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "How to log in: original (this tool's own account API), identity (ASP.NET Core Identity's /login, "
                + "/refresh and /manage/info), oauth2 (the OAuth 2 password grant), simplejwt (Django REST "
                + "framework's simplejwt: token/, token/refresh/ and token/blacklist/, with --profile-path), "
                + "flask-jwt-extended (/login, /refresh and DELETE /logout, with --profile-path), fastapi-users "
                + "(auth/jwt/login, auth/jwt/logout and users/me) or custom (what the flags or --server-file say). "
                + "Saved with the session. Default: the kind saved for the server, else the one its published "
                + "documents describe, else original.",
            valueName: "kind"))
    var kind: ServerKind?

    @Option(
        help: ArgumentHelp(
            "Where the credentials go: a path under the server URL, or a URL (OAuth 2's token endpoint).",
            valueName: "path"))
    var loginPath: String?

    @Option(
        help: ArgumentHelp(
            "Where the refresh token goes. Default: Identity's /refresh, OAuth 2's token endpoint.", valueName: "path"))
    var refreshPath: String?

    @Option(help: ArgumentHelp("Where logout revokes the session (RFC 7009 for OAuth 2).", valueName: "path"))
    var revokePath: String?

    @Option(
        help: ArgumentHelp(
            "Where the profile is read: Identity's /manage/info, OAuth 2's userinfo endpoint, or this.",
            valueName: "path"))
    var profilePath: String?

    @Option(
        name: .customLong("openapi"),
        help: ArgumentHelp(
            "The server's OpenAPI document, to find an OAuth 2 password flow's token URL in. Default: the server's "
                + "OpenID configuration, then the usual places (/openapi.json, /swagger/v1/swagger.json, …).",
            valueName: "url"))
    var openAPI: String?

    @Option(name: .customLong("client-id"), help: ArgumentHelp("The OAuth 2 client id.", valueName: "id"))
    var clientID: String?

    @Option(help: ArgumentHelp("The OAuth 2 scope to ask for.", valueName: "scope"))
    var scope: String?

    @Flag(
        help: ArgumentHelp(
            "Read the OAuth 2 client secret from standard input, after the password's line with --password-stdin; "
                + "on a terminal, ask for it. It is kept with the tokens and sent by HTTP Basic."))
    var clientSecretStdin = false

    @Option(help: ArgumentHelp("The login answer's access-token member; dots go into objects.", valueName: "name"))
    var accessTokenField: String?

    @Option(help: ArgumentHelp("The login answer's refresh-token member.", valueName: "name"))
    var refreshTokenField: String?

    @Option(help: ArgumentHelp("The login answer's member with the token's lifetime in seconds.", valueName: "name"))
    var expiresInField: String?

    @Option(
        help: ArgumentHelp(
            "How the login sends the credentials: json:FIELD (a JSON object of FIELD, the user, and password), "
                + "form:FIELD (the same as a form) or password-grant (OAuth 2's form).",
            valueName: "shape"))
    var loginBody: LoginShape?

    @Option(
        help: ArgumentHelp(
            "How the refresh sends the refresh token: json:FIELD, grant (OAuth 2's form) or bearer.",
            valueName: "shape"))
    var refreshWith: RefreshShape?

    @Option(
        help: ArgumentHelp(
            "How logout ends the session: json:FIELD (the refresh token, with the access token as the bearer), "
                + "rfc7009, bearer:POST or bearer:DELETE (each token as the bearer).",
            valueName: "shape"))
    var revokeWith: RevocationShape?

    @Option(
        help: ArgumentHelp(
            "A JSON file of these flags, named without their dashes: {\"kind\": \"custom\", \"login-path\": "
                + "\"/login\", \"refresh-with\": \"bearer\"}. A flag on the command line wins over the file's.",
            valueName: "file"))
    var serverFile: String?

    /// The flags, over those of `--server-file`.
    func flags() throws(SwaggerError) -> ServerFlags {
        let given = ServerFlags(
            kind: kind, loginPath: loginPath, refreshPath: refreshPath, revokePath: revokePath,
            profilePath: profilePath, openAPI: openAPI, clientID: clientID, scope: scope,
            accessTokenField: accessTokenField, refreshTokenField: refreshTokenField, expiresInField: expiresInField,
            loginShape: loginBody, refreshShape: refreshWith, revocationShape: revokeWith)
        guard let serverFile else { return given }
        // A description is a few lines; a file far larger is not one, and is refused rather than read in part.
        let limit = 1 << 16
        let data: Data
        do throws(DescriptorIO.Failure) {
            data = try DescriptorIO.readFile(serverFile, limit: limit + 1)
        } catch {
            throw SwaggerError(.usage, "\(serverFile) cannot be read: \(error).")
        }
        guard data.count <= limit else {
            throw SwaggerError(
                .usage, "\(serverFile) holds more than \(limit >> 10) KiB; a server's description is a few lines.")
        }
        return given.over(try ServerFlags(file: data, named: serverFile))
    }
}

extension ServerKind: ExpressibleByArgument {}

extension LoginShape: ExpressibleByArgument {
    package init?(argument: String) { self.init(text: argument) }
}

extension RefreshShape: ExpressibleByArgument {
    package init?(argument: String) { self.init(text: argument) }
}

extension RevocationShape: ExpressibleByArgument {
    package init?(argument: String) { self.init(text: argument) }
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
