import ArgumentParser
import FoundationEssentials
import SwaggerClient
import SwaggerModel
import SwaggerServers

/// `-s/--server`: which API a command talks to. The shell completes it from the stored sessions.
struct ServerOption: ParsableArguments {
    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "The API's URL or name. Default: SWAGGERCTL_SERVER, else the server last logged in to or switched to.",
            valueName: "url"),
        completion: .custom(serverCompletions))
    var server: String?

    /// `--server`, parsed: a URL or a name, which the controller resolves; `nil` when it is not given.
    func reference() throws(SwaggerError) -> ServerReference? {
        try server.map { (text) throws(SwaggerError) in try ServerReference.typed(text) }
    }
}

extension ServerReference {
    /// A server as the person typed it on the command line, saying on standard error which scheme an address
    /// without one was taken to have.
    static func typed(_ text: String) throws(SwaggerError) -> ServerReference {
        let reference = try ServerReference(text)
        if let line = reference.assumption(typed: text) { Terminal.notice("swaggerctl: \(line)") }
        return reference
    }
}

/// `--name`: a short name for the server, which `-s` and SWAGGERCTL_SERVER take in place of its URL.
struct ServerNameOption: ParsableArguments {
    @Option(
        name: .customLong("name"),
        help: ArgumentHelp(
            "A short name for the server (one word), which -s and SWAGGERCTL_SERVER take in place of its URL.",
            valueName: "name"))
    var name: String?

    @OptionGroup var rename: RenameOption

    /// `--name` and `--rename`, parsed; `nil` when no name is given.
    func request() throws(SwaggerError) -> NameRequest? {
        try name.map { (text) throws(SwaggerError) in NameRequest(try ServerName(text), rename: rename.rename) }
    }

    func validate() throws {
        do throws(SwaggerError) {
            _ = try request()
        } catch {
            throw ValidationError(error.message)
        }
        if rename.rename, name == nil { throw ValidationError("--rename goes with --name, the name to give.") }
    }
}

/// `--rename`: the only leave a command has to change a server's name, or to move a name from another server.
struct RenameOption: ParsableArguments {
    @Flag(
        help: ArgumentHelp(
            "Let the name given take the place of the name the server has, or move it from the server that has it. "
                + "Without it, neither is done, since -s NAME would then reach another server."))
    var rename = false
}

/// The servers swaggerctl knows, wherever a command takes a server: `--server`, and the URL of `server show`, `set`,
/// `forget` and `export` and of `git-credential --setup`.
@Sendable func serverCompletions(_: [String], _: Int, _ prefix: String) -> [String] {
    ShellCompletions.describedServers(prefix: prefix, environment: ProcessInfo.processInfo.environment)
        .map(completionValue)
}

/// A candidate as the shell that asked for it shows it: fish takes the text after a tab, and zsh after an unescaped
/// `:`, for the value's own description, where they would otherwise repeat the option's help for every value; bash
/// shows none.
func completionValue(_ candidate: ShellCompletions.Candidate) -> String {
    let description = TerminalText.escaped(candidate.description).replacing("\t", with: " ")
    switch CompletionShell.requesting {
    case .fish? where !description.isEmpty: return candidate.value + "\t" + description
    case .zsh? where !description.isEmpty: return completionValue(candidate.value) + ":" + description
    default: return completionValue(candidate.value)
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
        help: ArgumentHelp("As --email, for a server that signs in by user name.", valueName: "name"),
        completion: .custom(accountCompletions))
    var usernameOption: String?

    /// The account that `--email` or `--username` names; sessions are kept by it whichever names it.
    var account: String? { emailOption ?? usernameOption }

    func validate() throws {
        if emailOption != nil, usernameOption != nil {
            throw ValidationError("--email and --username both name the account; give one of them.")
        }
    }

    var server: String? { serverOption.server }

    /// `--server`, parsed; `nil` when it is not given.
    func serverReference() throws(SwaggerError) -> ServerReference? { try serverOption.reference() }

    /// `-s` and `-e` or `-u`, parsed.
    func choice() throws(SwaggerError) -> SessionChoice {
        SessionChoice(server: try serverReference(), account: account)
    }
}

/// `--keyring`: where tokens are kept.
struct KeyringOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Where tokens are kept: auto (the keyring, else a private file, with a warning), secret-service "
                + "(the keyring only), file (never D-Bus) or kernel (the kernel keyring, gone at reboot). Default: "
                + "SWAGGERCTL_KEYRING, else auto.",
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

/// The OAuth 2 client: shown on `login` as on `server set`, since a login to a provider names its own.
struct ClientOptions: ParsableArguments {
    @Option(name: .customLong("client-id"), help: ArgumentHelp("The OAuth 2 client id.", valueName: "id"))
    var clientID: String?

    @Option(help: ArgumentHelp("The OAuth 2 scope to ask for.", valueName: "scope"))
    var scope: String?
}

/// What describes a server: `server set`'s flags, which `login` keeps, hidden, for a release. Each names a part of the
/// server's description (``ServerFlags``), which the server registry keeps.
struct ServerDescriptionOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A server family's routes: \(ServerPresets.names.joined(separator: ", ")). Default: what the server's "
                + "documents describe, else original.",
            valueName: "name"))
    var preset: String?

    /// `--preset`'s name before presets were data.
    @Option(help: ArgumentHelp("The old name of --preset.", valueName: "name", visibility: .hidden))
    var kind: String?

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "A part of the description by its path: PATH=VALUE, or PATH:=JSON (null: the server has no such step). "
                + "Repeatable: every part of the description language has a path.",
            valueName: "path=value"))
    var set: [String] = []

    @Option(help: ArgumentHelp("Where the credentials go: a path under the server URL, or a URL.", valueName: "path"))
    var loginPath: String?

    @Option(help: ArgumentHelp("Where the refresh token goes.", valueName: "path"))
    var refreshPath: String?

    @Option(help: ArgumentHelp("Where logout ends the session on the server.", valueName: "path"))
    var revokePath: String?

    @Option(help: ArgumentHelp("Where the current user's profile is read.", valueName: "path"))
    var profilePath: String?

    @Option(
        name: .customLong("openapi"),
        help: ArgumentHelp("The server's OpenAPI document, to read instead of looking for it.", valueName: "url"))
    var openAPI: String?

    @Option(help: ArgumentHelp("The login answer's access-token member; dots go into objects.", valueName: "name"))
    var accessTokenField: String?

    @Option(help: ArgumentHelp("The login answer's refresh-token member.", valueName: "name"))
    var refreshTokenField: String?

    @Option(help: ArgumentHelp("The login answer's member with the token's lifetime in seconds.", valueName: "name"))
    var expiresInField: String?

    @Option(
        help: ArgumentHelp(
            "How the login sends the account: json:FIELD, form:FIELD or password-grant (OAuth 2's form).",
            valueName: "shape"))
    var loginBody: String?

    @Option(
        help: ArgumentHelp(
            "A member the login sends too: NAME=VALUE, or NAME:=JSON for a number, true or false. Repeatable.",
            valueName: "field"))
    var loginField: [String] = []

    @Option(
        help: ArgumentHelp("How the refresh sends the refresh token: json:FIELD, grant or bearer.", valueName: "shape"))
    var refreshWith: String?

    @Option(
        help: ArgumentHelp(
            "How logout ends the session: json:FIELD, rfc7009, bearer:POST or bearer:DELETE.", valueName: "shape"))
    var revokeWith: String?

    @Option(
        help: ArgumentHelp(
            "How an RFC 7009 revocation authenticates the client: none, client_secret_basic, client_secret_post or "
                + "bearer.",
            valueName: "method"))
    var revokeClientAuth: String?

    @Option(
        help: ArgumentHelp(
            "Where the token goes: a header and its scheme, such as \"Authorization: Token\", or a header alone, "
                + "such as X-API-Key. Default: Authorization: Bearer.",
            valueName: "header"))
    var token: String?

    /// The flags, by the names ``ServerFlags`` knows them by, with the OAuth 2 client's.
    func flags(client: ClientOptions?) throws(SwaggerError) -> ServerFlags {
        let (clientID, scope) = (client?.clientID, client?.scope)
        var flags = ServerFlags()
        let given: [(String, String?)] = [
            ("preset", preset ?? kind), ("login-path", loginPath), ("refresh-path", refreshPath),
            ("revoke-path", revokePath),
            ("profile-path", profilePath), ("openapi", openAPI), ("client-id", clientID), ("scope", scope),
            ("access-token-field", accessTokenField), ("refresh-token-field", refreshTokenField),
            ("expires-in-field", expiresInField), ("login-body", loginBody), ("refresh-with", refreshWith),
            ("revoke-with", revokeWith), ("revoke-client-auth", revokeClientAuth), ("token", token),
        ]
        for case (let name, let value?) in given { try flags.set(name, value) }
        for field in loginField { try flags.set("login-field", field) }
        for part in set { try flags.set("set", part) }
        return flags
    }

    func validate() throws {
        do throws(SwaggerError) {
            _ = try flags(client: nil)
        } catch {
            throw ValidationError(error.message)
        }
    }
}

/// `--allow-origin`: the other hosts a server's secrets may go to, on `login` and `server set` alike.
struct OriginOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Let the password and tokens go to this other host too (https://host[:port], or a host), where the "
                + "server's documents send them. Repeatable; saved with the server.",
            valueName: "origin"))
    var allowOrigin: [String] = []
}

/// `--server-file`: a server's description in a file, as `server export` writes it (or, as before, its flags by
/// name).
struct ServerFileOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A JSON file that describes the server, as `swaggerctl server export` writes it. The server's saved "
                + "description is changed by it.",
            valueName: "file"))
    var serverFile: String?
}

/// `--format`: how data is printed.
struct FormatOptions: ParsableArguments {
    @Option(help: "Output format: table or json.")
    var format: OutputFormat = .table
}

extension OutputFormat: ExpressibleByArgument {}

/// `-y/--yes`, for a change that sends existing sessions' tokens to another host.
struct YesOption: ParsableArguments {
    @Flag(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Save a description that sends the tokens of sessions already kept to another host, without asking. "
                + "Off a terminal, such a change is refused without it."))
    var yes = false
}

/// `-v/--verbose`: each request and response described on stderr.
struct VerboseOption: ParsableArguments {
    @Flag(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Describe each request and response on stderr, secrets hidden. SWAGGERCTL_DEBUG=1 does the same."))
    var verbose = false
}

/// `--ca-cert`: certificate authorities to trust as well.
struct CACertOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Trust the CAs in this PEM file too. Default: SWAGGERCTL_CA_CERT, else server set's --ca-cert.",
            valueName: "file"))
    var caCert: String?
}

/// `-v/--verbose` and `--ca-cert`: how a command talks to the network.
struct NetworkOptions: ParsableArguments {
    @OptionGroup var verboseOption: VerboseOption
    @OptionGroup var caCertOption: CACertOption

    var verbose: Bool { verboseOption.verbose }
    var caCert: String? { caCertOption.caCert }

    /// These flags and `--keyring`, as the configuration takes them.
    func connection(keyring: KeyringOption? = nil) -> ConnectionChoice {
        ConnectionChoice(keyring: keyring?.keyring, verbose: verbose, caCertificate: caCert)
    }
}
