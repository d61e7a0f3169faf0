import ArgumentParser
import FoundationEssentials
import Glibc
import SessionMachine
import SwaggerClient
import SwaggerHTTP
import SwaggerModel
import SwaggerServers

extension SwaggerCtl {
    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "login",
            abstract: "Log in, store the token, and show your profile.",
            discussion: """
                With only the server's address, swaggerctl reads what the server publishes (its OpenAPI document, \
                its OAuth metadata) to learn how to log in, and keeps that for the server: see `swaggerctl server`. \
                On a terminal, a missing account and the password are asked for; the password is not echoed. In \
                scripts, pipe the password in with --password-stdin. No option takes the password as its value.

                Without -s, the login goes to the server last logged in to; on a new machine the URL is asked \
                for on a terminal, and -s or SWAGGERCTL_SERVER is required off one.

                The account is named with --email or --username; an e-mail goes in the login's e-mail field where \
                it has one. A sign-in in the browser keeps the session of whoever signs in.

                With --with-token, a token you already have (a personal access token, an API key) takes the \
                place of the password: it is checked with your profile, which names the account, kept like any \
                other session's, and revoked by logout where the server can. A token the server refuses is not \
                stored (exit 4).

                Examples:
                  swaggerctl login -s https://api.example.com -e me@example.com
                  swaggerctl login -s https://api.example.com --name prod -e me@example.com
                  swaggerctl login -s https://api.example.com -u ana --format json
                  swaggerctl login -e me@example.com --password-stdin -q < password.txt
                  swaggerctl login -s https://api.example.com --with-token < token.txt
                  swaggerctl login --web -s https://auth.example.com
                  swaggerctl login --server-file team-api.json -e me@example.com
                  swaggerctl login --client-credentials --client-id ci --client-key ci.pem
                """)

        @Option(name: .shortAndLong, help: ArgumentHelp("The account's e-mail.", valueName: "email"))
        var email: String?

        @Option(
            name: .shortAndLong,
            help: ArgumentHelp("The account's user name, for a server that signs in by name.", valueName: "name"))
        var username: String?

        @Flag(help: "Read the password from standard input.")
        var passwordStdin = false

        @Flag(
            help: ArgumentHelp(
                "Log in with a token you already have, from standard input (asked for on a terminal), in place of a "
                    + "password: a personal access token, an API key."))
        var withToken = false

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
                "Bind the session's tokens to a key made now and kept with them (DPoP, RFC 9449): every request "
                    + "carries a proof signed with it, so a copied token is of no use alone."))
        var dpop = false

        @OptionGroup var serverOption: ServerOption
        @OptionGroup var serverName: ServerNameOption
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
        @OptionGroup var client: ClientOptions
        @OptionGroup(visibility: .hidden) var serverDescription: ServerDescriptionOptions

        @Option(
            name: .customLong("app-id"),
            help: ArgumentHelp("The original API's app id, kept for the server.", valueName: "id", visibility: .hidden))
        var appID: String?

        @Option(
            help: ArgumentHelp(
                "With --web, how long to wait for the browser, in seconds. Default: 300.", valueName: "seconds",
                visibility: .hidden))
        var browserTimeout: Int?

        @Flag(
            help: ArgumentHelp(
                "Read a confidential client's secret from standard input: its only line, or, with --password-stdin, "
                    + "its second. Kept with the session in the token store."))
        var clientSecretStdin = false

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
            var configuration = try Configuration.fromEnvironment(
                keyring: keyring, verbose: verbose.verbose, caCert: caCert.caCert)
            if allowHttp { configuration.allowsPlainHTTP = true }
            let (login, naming, moved) = try await Spinner.run("Working", enabled: !quiet) { spinner in
                try await SessionController.atTerminal(configuration, delegate: spinner) {
                    (controller) throws(SwaggerError) in
                    // Piped secrets are read first: input that is not a password is refused before anything is sent.
                    let piped = passwordStdin ? try secrets(for: nil, on: nil) : nil
                    let pipedToken = withToken && !Terminal.isTerminal(STDIN_FILENO) ? try Self.pipedToken() : nil
                    let proof = clientCredentials ? try clientProof() : nil
                    let proofKey = dpop ? ProofKey() : nil
                    let (fileServer, layers) = try givenLayers(
                        file: serverFile, flags: serverDescription, client: client, origins: origins)
                    let formerDefault = try controller.defaultServer()
                    let named = try serverOption.reference() ?? (fileServer ?? formerDefault).map(ServerReference.url)
                    let server = if let named { named } else { ServerReference.url(try askedServer()) }
                    let selection = try controller.select(server: server, name: nil)
                    // A name that needs --rename is refused before the password is asked for.
                    let asked = try serverName.request()
                    if let asked { try controller.checkName(asked, for: selection.server) }
                    let login = try await signIn(
                        controller, selection, layers: layers, piped: piped, pipedToken: pipedToken, proof: proof,
                        proofKey: proofKey, spinner: spinner)
                    let naming = try controller.naming(login.account.server, asked)
                    // A login makes its server the default (unless SWAGGERCTL_SERVER names one); a move from another
                    // server is said.
                    let nowDefault = try controller.defaultServer()
                    return (login, naming, formerDefault == nowDefault ? nil : formerDefault)
                }
            }
            let defaultLine = moved.map { " It is now the default server, in place of \($0)." } ?? ""
            let replaced = login.endedEarlier ? " This session replaces your earlier one, which the server ended." : ""
            guard !quiet else { return }
            Terminal.notice(
                "Logged in to \(login.account.server)\(naming.clause) as \(login.account.name).\(replaced)\(defaultLine)"
            )
            Terminal.print(output.render(login.profile))
        }

        /// Signs in to the selected server as its description and the flags say.
        private func signIn(
            _ controller: SessionController, _ selection: SessionSelection, layers: [DescriptionLayer],
            piped: (password: String, clientSecret: String?)?, pipedToken: String?, proof: ClientProof?,
            proofKey: ProofKey?, spinner: Spinner?, followed: Bool = false
        ) async throws(SwaggerError) -> SessionController.LoginOutcome {
            let choice: SessionController.ServerChoice
            switch try await controller.loginChoice(given: layers, on: selection, confidential: clientSecretStdin) {
            case .described(let described): choice = described
            case .delegated(let delegated):
                // The server the person named says another is its own: the password goes there only once they say
                // so, and only one such step is taken.
                guard !followed else { throw SwaggerError(.usage, delegated.refusal(for: selection.server)) }
                if !delegated.isAllowed(by: origins.allowOrigin) {
                    try Prompt.consent(
                        notice: delegated.notice(for: selection.server), question: delegated.question,
                        cancelled: "Login cancelled.",
                        refusal: SwaggerError(.usage, delegated.refusal(for: selection.server)))
                }
                return try await signIn(
                    controller, controller.select(server: .url(delegated.server), name: nil), layers: layers,
                    piped: piped, pipedToken: pipedToken, proof: proof, proofKey: proofKey, spinner: spinner,
                    followed: true)
            }
            // Before anything else is asked: a description that sends other sessions' tokens elsewhere needs a yes.
            try Prompt.consent(to: controller.tokenMove(choice), yes: yes.yes)
            try await controller.checkStores(on: selection.server)
            // Before the password is asked for: it says where the password will go. Another host than the one
            // named is said whatever -q says.
            if !quiet { choice.discoveryNotices.forEach(Terminal.notice) }
            let others = OriginRule.allowedOthers(selection.server, choice.serverDescription)
            if !others.isEmpty { Terminal.notice(OriginRule.othersNotice(selection.server, others)) }
            let environment = ProcessInfo.processInfo.environment
            let hasBrowser = Browser.command(environment) != nil && Terminal.isTerminal(STDIN_FILENO)
            // Without --web or --device: as the last login to the server, else as its documents say.
            if let proof {
                return try await clientSignIn(
                    controller, selection, choice: choice, proof: proof, proofKey: proofKey, spinner: spinner)
            }
            let given = (email ?? username).map { AccountName($0, isEmail: email != nil) }
            if withToken {
                let token =
                    if let pipedToken { pipedToken } else {
                        try Self.validToken(
                            Prompt.secret(
                                "Token for \(selection.server): ", cancelled: "Login cancelled: no token given."))
                    }
                spinner?.label = "Checking the token with \(selection.server)"
                return try await controller.login(
                    as: given, method: .token(token), on: selection, appIDFlag: appID, choice: choice,
                    client: ClientProof(), proof: nil)
            }
            // Nothing to send a password to: the server takes the tokens people bring.
            if choice.serverDescription.login.isNone { throw Self.tokensOnly(selection.server) }
            let signIn = ServerPlan.signIn(
                flag: web ? .web : device ? .device : passwordStdin ? .password : nil,
                description: choice.serverDescription, hasBrowser: hasBrowser)
            if signIn != .password, !web, !device, choice.serverDescription.signIn == .password, !quiet {
                Terminal.notice(signIn.chosenNotice(selection.server, hasBrowser: hasBrowser))
            }
            var chosen = choice
            chosen.serverDescription.signIn = signIn
            // A confidential client's secret, for a browser login: the whole of standard input, or asked for.
            let browserSecret = signIn != .password && clientSecretStdin ? try clientSecret() : nil
            // The page that forwarded the browser is no use once the login has ended, whatever the browser does.
            defer { if signIn != .password { Browser.removePage(in: controller.configuration.directory) } }
            switch signIn {
            case .web:
                spinner?.label = "Waiting for the browser's answer from \(selection.server)"
                return try await controller.login(
                    as: given,
                    method: .browser(
                        open: { url in
                            let opened = Self.openBrowser(url, environment, folder: controller.configuration.directory)
                            Terminal.notice(BrowserFlow.addressNotice(url, opened: opened))
                        }, timeout: .seconds(browserTimeout ?? 300)),
                    on: selection, appIDFlag: appID, choice: chosen, client: ClientProof(secret: browserSecret),
                    proof: proofKey)
            case .device:
                spinner?.label = "Waiting for the sign-in to \(selection.server)"
                return try await controller.login(
                    as: given,
                    method: .device(show: { code in
                        let address = code.verificationURIComplete ?? code.verificationURI
                        let opened = Self.openBrowser(address, environment, folder: controller.configuration.directory)
                        Terminal.notice(code.instructions(opened: opened))
                    }), on: selection, appIDFlag: appID, choice: chosen, client: ClientProof(secret: browserSecret),
                    proof: proofKey)
            case .client:
                throw SwaggerError(
                    .usage, "\(selection.server) is described as signing in as a client; give --client-credentials.")
            case .token:
                throw Self.tokensOnly(selection.server)
            case .password:
                guard chosen.serverDescription.offersPasswordGrant else {
                    throw SwaggerError.noPasswordGrant(selection.server, chosen.serverDescription)
                }
                let name =
                    if let given { given } else {
                        try askedAccount(chosen.serverDescription.login, on: selection.server)
                    }
                let (password, clientSecret) =
                    if let piped { piped } else { try secrets(for: name.value, on: selection.server) }
                spinner?.label = "Logging in to \(selection.server)"
                return try await controller.login(
                    as: name, method: .password(password), on: selection, appIDFlag: appID, choice: chosen,
                    client: ClientProof(secret: clientSecret), proof: proofKey)
            }
        }

        /// Signs in as the client itself, named by its id, with the proof the flags give.
        private func clientSignIn(
            _ controller: SessionController, _ selection: SessionSelection, choice: SessionController.ServerChoice,
            proof: ClientProof, proofKey: ProofKey?, spinner: Spinner?
        ) async throws(SwaggerError) -> SessionController.LoginOutcome {
            guard let clientID = choice.serverDescription.clientID else {
                throw SwaggerError(.usage, "--client-credentials signs in as a client: name it with --client-id.")
            }
            spinner?.label = "Logging in to \(selection.server) as \(clientID)"
            return try await controller.login(
                as: AccountName(clientID, isEmail: false), method: .client, on: selection, appIDFlag: appID,
                choice: choice, client: proof, proof: proofKey)
        }

        /// What the client proves itself with: the key in --client-key's file, else the secret from standard input.
        private func clientProof() throws(SwaggerError) -> ClientProof {
            guard let clientKey else { return ClientProof(secret: try clientSecret()) }
            return ClientProof(
                key: ClientKey(
                    privateKey: try Self.pem(at: clientKey, holding: "PRIVATE KEY"), keyID: clientKeyId,
                    certificate: try clientCert.map { (path) throws(SwaggerError) in
                        try Self.pem(at: path, holding: "CERTIFICATE")
                    }))
        }

        /// The refusal of a sign-in to a server described with no login, which takes only tokens people bring.
        private static func tokensOnly(_ server: ServerURL) -> SwaggerError {
            SwaggerError(
                .usage, "\(server) has no login: it takes a token you bring. Log in with --with-token.")
        }

        /// The token piped in for --with-token: standard input's only line.
        private static func pipedToken() throws(SwaggerError) -> String {
            try validToken(Prompt.standardInput(flag: "--with-token", secret: "token"))
        }

        /// `text`, when it can be a token; it goes into a header, where a space or a line break cannot.
        private static func validToken(_ text: String) throws(SwaggerError) -> String {
            guard Credentials.isToken(text) else {
                throw SwaggerError(
                    .usage,
                    "--with-token takes one token: visible characters, with no space or line break. Give the token "
                        + "alone.")
            }
            return text
        }

        /// The PEM text of a `kind` (PRIVATE KEY, CERTIFICATE) in the file at `path`: a few lines, refused whole when
        /// it is anything else.
        private static func pem(at path: String, holding kind: String) throws(SwaggerError) -> String {
            let secret = kind == "PRIVATE KEY"
            guard let data = try smallFile(path, limit: 1 << 16, secret: secret),
                let pem = String(data: data, encoding: .utf8), pem.contains("-----BEGIN "), pem.contains("\(kind)-----")
            else {
                let what = secret ? "private key" : "certificate"
                throw SwaggerError(.usage, "\(path) holds no \(what) in PEM (-----BEGIN … \(kind)-----).")
            }
            return pem
        }

        /// Opens `url` in the browser, and says so when that fails, now or when the browser ends.
        /// - Returns: Whether a browser was started.
        private static func openBrowser(_ url: URL, _ environment: [String: String], folder: URL) -> Bool {
            switch Browser.open(url, environment: environment, folder: folder, exited: Terminal.warning) {
            case .started: return true
            case .none: return false
            case .failed(let reason):
                Terminal.warning("could not start the browser (\(reason)); open the address yourself.")
                return false
            }
        }

        /// The server, asked for on a terminal when nothing names one: a new machine has no default.
        private func askedServer() throws(SwaggerError) -> ServerURL {
            guard Terminal.isTerminal(STDIN_FILENO) else { throw SwaggerError.loginWithoutServer }
            return try ServerURL(Prompt.line("Server URL: ", cancelled: "Login cancelled: no server given."))
        }

        /// The account, asked for on the terminal: an e-mail where the login takes one, else a user name.
        private func askedAccount(_ login: LoginStep, on server: ServerURL) throws(SwaggerError) -> AccountName {
            guard Terminal.isTerminal(STDIN_FILENO) else {
                throw SwaggerError(
                    .usage,
                    "Standard input is not a terminal; give the account with --email or --username, and pipe the "
                        + "password in with --password-stdin.")
            }
            let ask = login.accountPrompt(on: server)
            return AccountName(try Prompt.line(ask.prompt, cancelled: ask.cancelled), isEmail: ask.isEmail)
        }

        /// A browser login's client secret: standard input's only line, or asked for on the terminal.
        private func clientSecret() throws(SwaggerError) -> String {
            guard Terminal.isTerminal(STDIN_FILENO) else {
                let secret = try Prompt.standardInput()
                guard !secret.contains("\n") else {
                    throw SwaggerError(
                        .usage, "With --client-secret-stdin, standard input holds the client secret on one line.")
                }
                return secret
            }
            return try Prompt.secret("Client secret: ", cancelled: "Login cancelled: no client secret given.")
        }

        /// The password and, with --client-secret-stdin, the client secret: from standard input, the password
        /// on its first line and the secret on its second, or asked for on the terminal.
        private func secrets(for email: String?, on server: ServerURL?) throws(SwaggerError) -> (
            password: String, clientSecret: String?
        ) {
            guard passwordStdin else {
                guard Terminal.isTerminal(STDIN_FILENO) else {
                    throw SwaggerError(
                        .usage, "Standard input is not a terminal; pipe the password in with --password-stdin.")
                }
                let password = try Prompt.secret(
                    "Password for \(email ?? "the account")\(server.map { " on \($0)" } ?? ""): ",
                    cancelled: "Login cancelled: no password given.")
                guard clientSecretStdin else { return (password, nil) }
                let secret = try Prompt.secret("Client secret: ", cancelled: "Login cancelled: no client secret given.")
                return (password, secret)
            }
            let input = try Prompt.standardInput()
            guard clientSecretStdin else { return (input, nil) }
            let lines = input.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            let password = lines[0].hasSuffix("\r") ? lines[0].dropLast() : lines[0]
            guard lines.count == 2, !password.isEmpty, !lines[1].isEmpty else {
                throw SwaggerError(
                    .usage,
                    "With --password-stdin and --client-secret-stdin, standard input holds the password on its first "
                        + "line and the client secret on its second.")
            }
            return (String(password), String(lines[1]))
        }
    }
}
