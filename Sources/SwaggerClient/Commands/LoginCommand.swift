import FoundationEssentials
import SessionMachine
import SwaggerHTTP
import SwaggerModel
import SwaggerServers

/// `login`: the way in that the server's description, its documents and the flags give, the tokens stored, the
/// profile shown.
package struct LoginCommand: Sendable {
    /// `-s`; `nil` for the server a `--server-file` names, else the default, else the one asked for.
    package var server: ServerReference?
    /// `--name` with `--rename`.
    package var name: NameRequest?
    package var description = GivenDescription()
    /// `-e` or `-u`; asked for on a terminal when the login needs one.
    package var account: AccountName?
    /// `--password-stdin`.
    package var passwordStdin = false
    /// `--with-token`: a token the server made before, from standard input or asked for.
    package var withToken = false
    /// `--web` or `--device`, when either is given.
    package var browser: BrowserSignIn?
    /// `--browser-timeout`, for `--web`.
    package var browserTimeout = 300
    /// `--client-credentials`, with the files of `--client-key` and `--client-cert` and `--client-key-id`.
    package var machine: MachineSignIn?
    /// `--client-secret-stdin`.
    package var clientSecretStdin = false
    /// `--dpop`.
    package var dpop = false
    /// `--app-id`.
    package var appID: String?
    /// `--allow-http`.
    package var allowHTTP = false
    /// `-q`: no profile, no "Logged in" line, no progress.
    package var quiet = false
    /// `-y`: a change that sends other sessions' tokens elsewhere, made without asking.
    package var yes = false
    package var format = OutputFormat.table
    package var connection = ConnectionChoice()

    /// `--web` or `--device`.
    package enum BrowserSignIn: Sendable {
        case web, device
    }

    /// `--client-credentials`: the client proves itself with the key in `key`'s file, else with a secret from
    /// standard input.
    package struct MachineSignIn: Sendable {
        package var key: String?
        package var keyID: String?
        package var certificate: String?

        package init(key: String? = nil, keyID: String? = nil, certificate: String? = nil) {
            self.key = key
            self.keyID = keyID
            self.certificate = certificate
        }
    }

    package init() {}

    package func run(_ environment: CommandEnvironment) async throws(SwaggerError) {
        var configuration = try environment.configuration(connection)
        if allowHTTP { configuration.allowsPlainHTTP = true }
        let console = environment.console
        let (login, naming, moved) = try await console.working("Logging in", shown: !quiet) {
            (progress) throws(SwaggerError) in
            try await environment.withController(configuration, delegate: progress) {
                (controller) throws(SwaggerError) in
                try await LoginRun(command: self, environment: environment, controller: controller, progress: progress)
                    .run()
            }
        }
        guard !quiet else { return }
        let defaultLine = moved.map { " It is now the default server, in place of \($0)." } ?? ""
        let replaced = login.endedEarlier ? " This session replaces your earlier one, which the server ended." : ""
        console.notice(
            "Logged in to \(login.account.server)\(naming.clause) as \(login.account.name).\(replaced)\(defaultLine)")
        console.print(login.profile.rendered(as: format, renderer: console.tableRenderer))
    }
}

/// One login as it goes: the command, what it runs over, and what was read before anything was sent.
private struct LoginRun {
    let command: LoginCommand
    let environment: CommandEnvironment
    let controller: SessionController
    let progress: (any ProgressLine)?
    var console: any Console { environment.console }

    /// Signs in, names the server, and says which server was the default before.
    func run() async throws(SwaggerError) -> (SessionController.LoginOutcome, ServerNaming, ServerURL?) {
        // Piped secrets are read first: input that is not a password is refused before anything is sent.
        let piped = command.passwordStdin ? try secrets(for: nil, on: nil) : nil
        let pipedToken = command.withToken && !console.canAsk ? try pipedToken() : nil
        let proof = try command.machine.map { (machine) throws(SwaggerError) in try clientProof(machine) }
        let read = Read(
            piped: piped, pipedToken: pipedToken, proof: proof, proofKey: command.dpop ? ProofKey() : nil)
        let (fileServer, layers) = try command.description.layers()
        let formerDefault = try controller.defaultServer()
        let named = command.server ?? (fileServer ?? formerDefault).map(ServerReference.url)
        let server = if let named { named } else { ServerReference.url(try askedServer()) }
        let selection = try controller.select(server: server, name: nil)
        // A name that needs --rename is refused before the password is asked for.
        if let asked = command.name { try controller.checkName(asked, for: selection.server) }
        let login = try await signIn(selection, layers: layers, read, offering: named == nil)
        let naming = try controller.naming(login.account.server, command.name)
        // A login makes its server the default (unless SWAGGERCTL_SERVER names one); a move from another server is
        // said.
        let nowDefault = try controller.defaultServer()
        return (login, naming, formerDefault == nowDefault ? nil : formerDefault)
    }

    /// The secrets and keys read before anything is sent.
    struct Read {
        var piped: (password: String, clientSecret: String?)?
        var pipedToken: String?
        var proof: ClientProof?
        var proofKey: ProofKey?
    }

    /// Signs in to the selected server as its description and the flags say.
    /// `offering` says whether an address near the one typed at the prompt may be offered in its place, when
    /// nothing describes the one typed.
    private func signIn(
        _ selection: SessionSelection, layers: [DescriptionLayer], _ read: Read, followed: Bool = false,
        offering: Bool = false
    ) async throws(SwaggerError) -> SessionController.LoginOutcome {
        let choice: SessionController.ServerChoice
        progress?.label = "Reading what \(selection.server) publishes"
        switch try await controller.loginChoice(
            given: layers, on: selection, confidential: command.clientSecretStdin)
        {
        case .described(let described): choice = described
        case .delegated(let delegated):
            // The server the person named says another is its own: the password goes there only once they say so,
            // and only one such step is taken.
            guard !followed else { throw SwaggerError(.usage, delegated.refusal(for: selection.server)) }
            if !delegated.isAllowed(by: command.description.allowOrigin) {
                try console.consent(
                    notice: delegated.notice(for: selection.server), question: delegated.question,
                    cancelled: "Login cancelled.",
                    refusal: SwaggerError(.usage, delegated.refusal(for: selection.server)))
            }
            return try await signIn(
                controller.select(server: .url(delegated.server), name: nil), layers: layers, read, followed: true)
        case .nearby(let nearby, let undescribed):
            // Typed at the prompt, a root URL is most likely the API's host: its API is offered, once.
            guard offering, console.canAsk else { throw undescribed }
            console.notice("Nothing at \(selection.server) says how to log in; the API at \(nearby) does.")
            guard try console.confirm("Use \(nearby)? [Y/n] ", cancelled: "Login cancelled: no server given.")
            else { throw undescribed }
            return try await signIn(controller.select(server: .url(nearby), name: nil), layers: layers, read)
        }
        // Before anything else is asked: a description that sends other sessions' tokens elsewhere needs a yes.
        try console.consent(to: controller.tokenMove(choice), yes: command.yes)
        try await controller.checkStores(on: selection.server)
        // Before the password is asked for: it says where the password will go. Another host than the one named is
        // said whatever -q says.
        if !command.quiet { choice.discoveryNotices.forEach { console.notice($0) } }
        let others = OriginRule.allowedOthers(selection.server, choice.serverDescription)
        if !others.isEmpty { console.notice(OriginRule.othersNotice(selection.server, others)) }
        if let proof = read.proof { return try await clientSignIn(selection, choice: choice, proof, read.proofKey) }
        if command.withToken { return try await tokenSignIn(selection, choice: choice, piped: read.pipedToken) }
        // Nothing to send a password to: the server takes the tokens people bring.
        if choice.serverDescription.login.isNone { throw Self.tokensOnly(selection.server) }
        return try await personSignIn(selection, choice: choice, read)
    }

    /// Signs a person in: with the password, or in the browser, as the flags, the last login or the documents say.
    private func personSignIn(
        _ selection: SessionSelection, choice: SessionController.ServerChoice, _ read: Read
    ) async throws(SwaggerError) -> SessionController.LoginOutcome {
        let hasBrowser = environment.browser?.isAvailable == true && console.canAsk
        let flag: SignIn? =
            switch command.browser {
            case .web: .web
            case .device: .device
            case nil: command.passwordStdin ? .password : nil
            }
        // Without --web or --device: as the last login to the server, else as its documents say.
        let signIn = ServerPlan.signIn(flag: flag, description: choice.serverDescription, hasBrowser: hasBrowser)
        if signIn != .password, command.browser == nil, choice.serverDescription.signIn == .password, !command.quiet {
            console.notice(signIn.chosenNotice(selection.server, hasBrowser: hasBrowser))
        }
        var chosen = choice
        chosen.serverDescription.signIn = signIn
        // A confidential client's secret, for a browser login: the whole of standard input, or asked for.
        let browserSecret = signIn != .password && command.clientSecretStdin ? try clientSecret() : nil
        let folder = controller.configuration.directory
        // The page that forwarded the browser is no use once the login has ended, whatever the browser does.
        defer { if signIn != .password { BrowserPage.remove(in: folder) } }
        let method: SessionController.LoginMethod
        var client = ClientProof(secret: browserSecret)
        var name = command.account
        switch signIn {
        case .web:
            progress?.label = "Waiting for the browser's answer from \(selection.server)"
            method = .browser(
                open: { url in console.notice(BrowserFlow.addressNotice(url, opened: openBrowser(url, folder))) },
                timeout: .seconds(command.browserTimeout))
        case .device:
            progress?.label = "Waiting for the sign-in to \(selection.server)"
            method = .device(show: { code in
                let opened = openBrowser(code.verificationURIComplete ?? code.verificationURI, folder)
                console.notice(code.instructions(opened: opened))
            })
        case .client:
            throw SwaggerError(
                .usage, "\(selection.server) is described as signing in as a client; give --client-credentials.")
        case .token:
            throw Self.tokensOnly(selection.server)
        case .password:
            guard chosen.serverDescription.offersPasswordGrant else {
                throw SwaggerError.noPasswordGrant(selection.server, chosen.serverDescription)
            }
            let account =
                if let name { name } else { try askedAccount(chosen.serverDescription.login, on: selection.server) }
            let (password, clientSecret) =
                if let piped = read.piped { piped } else { try secrets(for: account.value, on: selection.server) }
            progress?.label = "Logging in to \(selection.server)"
            (name, method, client) = (account, .password(password), ClientProof(secret: clientSecret))
        }
        return try await controller.login(
            as: name, method: method, on: selection, appIDFlag: command.appID, choice: chosen, client: client,
            proof: read.proofKey)
    }

    /// Signs in with a token the person brings, checked with the server before it is kept.
    private func tokenSignIn(
        _ selection: SessionSelection, choice: SessionController.ServerChoice, piped: String?
    ) async throws(SwaggerError) -> SessionController.LoginOutcome {
        let token =
            if let piped { piped } else {
                try Self.validToken(
                    console.secret("Token for \(selection.server): ", cancelled: "Login cancelled: no token given."))
            }
        progress?.label = "Checking the token with \(selection.server)"
        return try await controller.login(
            as: command.account, method: .token(token), on: selection, appIDFlag: command.appID, choice: choice,
            client: ClientProof(), proof: nil)
    }

    /// Signs in as the client itself, named by its id, with the proof the flags give.
    private func clientSignIn(
        _ selection: SessionSelection, choice: SessionController.ServerChoice, _ proof: ClientProof,
        _ proofKey: ProofKey?
    ) async throws(SwaggerError) -> SessionController.LoginOutcome {
        guard let clientID = choice.serverDescription.clientID else {
            throw SwaggerError(.usage, "--client-credentials signs in as a client: name it with --client-id.")
        }
        progress?.label = "Logging in to \(selection.server) as \(clientID)"
        return try await controller.login(
            as: AccountName(clientID, isEmail: false), method: .client, on: selection, appIDFlag: command.appID,
            choice: choice, client: proof, proof: proofKey)
    }

    /// What the client proves itself with: the key in --client-key's file, else the secret from standard input.
    private func clientProof(_ machine: LoginCommand.MachineSignIn) throws(SwaggerError) -> ClientProof {
        guard let key = machine.key else { return ClientProof(secret: try clientSecret()) }
        return ClientProof(
            key: ClientKey(
                privateKey: try Self.pem(at: key, holding: "PRIVATE KEY"), keyID: machine.keyID,
                certificate: try machine.certificate.map { (path) throws(SwaggerError) in
                    try Self.pem(at: path, holding: "CERTIFICATE")
                }))
    }

    /// The refusal of a sign-in to a server described with no login, which takes only tokens people bring.
    private static func tokensOnly(_ server: ServerURL) -> SwaggerError {
        SwaggerError(.usage, "\(server) has no login: it takes a token you bring. Log in with --with-token.")
    }

    /// The token piped in for --with-token: standard input's only line.
    private func pipedToken() throws(SwaggerError) -> String {
        try Self.validToken(console.standardInput(flag: "--with-token", secret: "token"))
    }

    /// `text`, when it can be a token; it goes into a header, where a space or a line break cannot.
    private static func validToken(_ text: String) throws(SwaggerError) -> String {
        guard Credentials.isToken(text) else {
            throw SwaggerError(
                .usage,
                "--with-token takes one token: visible characters, with no space or line break. Give the token alone.")
        }
        return text
    }

    /// The PEM text of a `kind` (PRIVATE KEY, CERTIFICATE) in the file at `path`: a few lines, refused whole when it
    /// is anything else.
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
    private func openBrowser(_ url: URL, _ folder: URL) -> Bool {
        let console = console
        switch environment.browser?.open(url, folder: folder, exited: { console.warning($0) }) ?? .none {
        case .started: return true
        case .none: return false
        case .failed(let reason):
            console.warning("could not start the browser (\(reason)); open the address yourself.")
            return false
        }
    }

    /// The server, asked for on a terminal when nothing names one: a new machine has no default.
    private func askedServer() throws(SwaggerError) -> ServerURL {
        guard console.canAsk else { throw SwaggerError.loginWithoutServer }
        let typed = try console.line("Server URL: ", cancelled: "Login cancelled: no server given.")
        let server = try ServerURL(typed: typed)
        if let line = ServerURL.assumption(in: typed) { console.notice("swaggerctl: \(line)") }
        return server
    }

    /// The account, asked for on the terminal: an e-mail where the login takes one, else a user name.
    private func askedAccount(_ login: LoginStep, on server: ServerURL) throws(SwaggerError) -> AccountName {
        guard console.canAsk else {
            throw SwaggerError(
                .usage,
                "Standard input is not a terminal; give the account with --email or --username, and pipe the "
                    + "password in with --password-stdin.")
        }
        let ask = login.accountPrompt(on: server)
        return AccountName(try console.line(ask.prompt, cancelled: ask.cancelled), isEmail: ask.isEmail)
    }

    /// A browser login's client secret: standard input's only line, or asked for on the terminal.
    private func clientSecret() throws(SwaggerError) -> String {
        guard console.canAsk else {
            let secret = try console.password()
            guard !secret.contains("\n") else {
                throw SwaggerError(
                    .usage, "With --client-secret-stdin, standard input holds the client secret on one line.")
            }
            return secret
        }
        return try console.secret("Client secret: ", cancelled: "Login cancelled: no client secret given.")
    }

    /// The password and, with --client-secret-stdin, the client secret: from standard input, the password on its
    /// first line and the secret on its second, or asked for on the terminal.
    private func secrets(for email: String?, on server: ServerURL?) throws(SwaggerError) -> (
        password: String, clientSecret: String?
    ) {
        guard command.passwordStdin else {
            guard console.canAsk else {
                throw SwaggerError(
                    .usage, "Standard input is not a terminal; pipe the password in with --password-stdin.")
            }
            let password = try console.secret(
                "Password for \(email ?? "the account")\(server.map { " on \($0)" } ?? ""): ",
                cancelled: "Login cancelled: no password given.")
            guard command.clientSecretStdin else { return (password, nil) }
            let secret = try console.secret("Client secret: ", cancelled: "Login cancelled: no client secret given.")
            return (password, secret)
        }
        let input = try console.password()
        guard command.clientSecretStdin else { return (input, nil) }
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
