import ArgumentParser
import FoundationEssentials
import Glibc
import SessionMachine
import SwaggerClient
import SwaggerModel

extension SwaggerCtl {
    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "login",
            abstract: "Log in, store the token, and show your profile.",
            discussion: """
                On a terminal, a missing account and the password are asked for; the password is not echoed. \
                In scripts, pipe the password in with --password-stdin. No option takes the password as \
                its value.

                The account is named with --email or --username; either goes in the field the server's login \
                wants.

                Examples:
                  swaggerctl login -e me@example.com
                  swaggerctl login -s https://api.example.com -u ana
                  swaggerctl login -s https://api.example.com -e me@example.com --format json
                  swaggerctl login -e me@example.com --password-stdin -q < password.txt
                  swaggerctl login --web --kind oauth2 --client-id cli -e me@example.com
                  swaggerctl login --device --kind oauth2 --client-id cli -e me@example.com
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
                "Sign in in a browser, on this machine or another, with a one-time code (RFC 8628's device "
                    + "authorization grant) instead of a password. It needs an OAuth 2 server whose metadata names a "
                    + "device authorization endpoint, and its client id."))
        var device = false

        @Flag(
            help: ArgumentHelp(
                "Sign in in the browser instead of with a password: the authorization code grant with PKCE, answered "
                    + "on a port of this machine (127.0.0.1). $BROWSER, else xdg-open, opens the address, which is "
                    + "printed too. It needs an OAuth 2 server whose metadata names an authorization endpoint, and its "
                    + "client id."))
        var web = false

        @Option(
            help: ArgumentHelp(
                "How long --web waits for the browser's answer, in seconds. Default: 300.", valueName: "seconds"))
        var browserTimeout: Int?

        @OptionGroup var serverOption: ServerOption
        @OptionGroup var keyring: KeyringOption
        @OptionGroup var network: NetworkOptions

        @Option(
            name: .customLong("app-id"),
            help: ArgumentHelp(
                "The app id to send. Default: SWAGGERCTL_APP_ID, else the one saved for the server, else "
                    + "\(LoginCoordinator.defaultAppID).",
                valueName: "id"))
        var appID: String?

        @OptionGroup var output: FormatOptions
        @OptionGroup(title: "Other kinds of server") var serverDescription: ServerDescriptionOptions

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

        func validate() throws {
            let onTerminal = Terminal.isTerminal(STDIN_FILENO)
            if email != nil, username != nil {
                throw ValidationError("--email and --username both name the account; give one of them.")
            }
            if device, web {
                throw ValidationError("--device and --web are two ways to sign in in a browser; give one of them.")
            }
            if browserTimeout != nil, !web {
                throw ValidationError("--browser-timeout is for --web.")
            }
            if let browserTimeout, browserTimeout < 1 {
                throw ValidationError("--browser-timeout must be 1 second or more.")
            }
            let flag = device ? "--device" : "--web"
            if device || web, passwordStdin {
                throw ValidationError(
                    "\(flag) signs in in the browser, where the password is typed; it takes none. A confidential "
                        + "client's secret comes with --client-secret-stdin.")
            }
            if device || web {
                if email == nil, username == nil, !onTerminal {
                    throw ValidationError("Give the account with --email or --username when there is no terminal.")
                }
                return
            }
            if !passwordStdin, !onTerminal {
                throw ValidationError("Standard input is not a terminal; pipe the password in with --password-stdin.")
            }
            if email == nil, username == nil, !onTerminal || passwordStdin {
                throw ValidationError(
                    "Give the account with --email or --username when the password comes from standard input.")
            }
        }

        func run() async throws {
            var configuration = try Configuration.fromEnvironment(keyring: keyring, network: network)
            if allowHttp { configuration.allowsPlainHTTP = true }
            let login = try await Spinner.run("Working", enabled: !quiet) { spinner in
                try await SessionController.atTerminal(configuration, delegate: spinner) {
                    (controller) throws(SwaggerError) in
                    // Piped secrets are read first: input that is not a password is refused before anything is sent.
                    let piped = passwordStdin ? try secrets(for: nil) : nil
                    let selection = try controller.select(server: serverOption.url(), email: nil)
                    let choice = try await controller.serverChoice(
                        try serverDescription.flags(), on: selection, clientSecret: serverDescription.clientSecretStdin)
                    // Before the password is asked for: it says where the password will go.
                    if let discovered = Messages.discovery(choice), !quiet { Terminal.notice(discovered) }
                    let ask = Messages.accountPrompt(choice.serverDescription.login)
                    let email =
                        if let account = email ?? username { account } else {
                            try Prompt.line(ask.prompt, cancelled: ask.cancelled)
                        }
                    let environment = ProcessInfo.processInfo.environment
                    let hasBrowser = Browser.command(environment) != nil
                    // Without --web or --device: as the last login to the server, else as its documents say.
                    let signIn = ServerPlan.signIn(
                        flag: web ? .web : device ? .device : passwordStdin ? .password : nil,
                        grantTypes: choice.found.grantTypes,
                        description: choice.serverDescription, hasBrowser: hasBrowser)
                    if signIn != .password, !web, !device, choice.serverDescription.signIn == .password, !quiet {
                        Terminal.notice(Messages.signInChosen(selection.server, signIn, hasBrowser: hasBrowser))
                    }
                    var description = choice.serverDescription
                    description.signIn = signIn
                    let profile: ProfileOutcome
                    // A confidential client's secret, for a browser login: the whole of standard input, or asked for.
                    let browserSecret =
                        signIn != .password && serverDescription.clientSecretStdin ? try clientSecret() : nil
                    if signIn == .web {
                        spinner?.label = "Waiting for the browser's answer from \(selection.server)"
                        profile = try await controller.login(
                            email: email,
                            method: .browser(
                                open: { url in
                                    let opened = Browser.open(url, environment: environment)
                                    Terminal.notice(Messages.browserAddress(url, opened: opened))
                                }, timeout: .seconds(browserTimeout ?? 300)),
                            on: selection, appIDFlag: appID, serverDescription: description,
                            clientSecret: browserSecret)
                    } else if signIn == .device {
                        spinner?.label = "Waiting for the sign-in to \(selection.server)"
                        profile = try await controller.login(
                            email: email,
                            method: .device(show: { code in
                                let address = code.verificationURIComplete ?? code.verificationURI
                                let opened = Browser.open(address, environment: environment)
                                Terminal.notice(Messages.deviceCode(code, opened: opened))
                            }), on: selection, appIDFlag: appID, serverDescription: description,
                            clientSecret: browserSecret)
                    } else {
                        let (password, clientSecret) = if let piped { piped } else { try secrets(for: email) }
                        spinner?.label = "Logging in to \(selection.server)"
                        profile = try await controller.login(
                            email: email, password: password, on: selection, appIDFlag: appID,
                            serverDescription: description, clientSecret: clientSecret)
                    }
                    return LoginResult(email: email, server: selection.server, profile: profile)
                }
            }
            guard !quiet else { return }
            Terminal.notice("Logged in to \(login.server) as \(login.email).")
            Terminal.print(output.render(login.profile))
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
        private func secrets(for email: String?) throws(SwaggerError) -> (password: String, clientSecret: String?) {
            guard passwordStdin else {
                let password = try Prompt.secret(
                    "Password for \(email ?? "the account"): ", cancelled: "Login cancelled: no password given.")
                guard serverDescription.clientSecretStdin else { return (password, nil) }
                let secret = try Prompt.secret("Client secret: ", cancelled: "Login cancelled: no client secret given.")
                return (password, secret)
            }
            let input = try Prompt.standardInput()
            guard serverDescription.clientSecretStdin else { return (input, nil) }
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

/// What a login gives the command to print.
private struct LoginResult: Sendable {
    var email: String
    var server: ServerURL
    var profile: ProfileOutcome
}
