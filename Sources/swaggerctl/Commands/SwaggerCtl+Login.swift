import ArgumentParser
import Foundation
import SwaggerClient

extension SwaggerCtl {
    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Log in, store the token, and show your profile.",
            discussion: """
                On a terminal, a missing e-mail and the password are asked for; the password is not echoed. \
                In scripts, pipe the password in with --password-stdin. No option takes the password as \
                its value.

                Examples:
                  swaggerctl login -e me@example.com
                  swaggerctl login -s https://api.example.com -e me@example.com --format json
                  swaggerctl login -e me@example.com --password-stdin -q < password.txt
                """)

        @Option(name: .shortAndLong, help: ArgumentHelp("The account's e-mail.", valueName: "email"))
        var email: String?

        @Flag(help: "Read the password from standard input.")
        var passwordStdin = false

        @OptionGroup var serverOption: ServerOption
        @OptionGroup var keyring: KeyringOption
        @OptionGroup var network: NetworkOptions

        @Option(
            help: ArgumentHelp(
                "The app id to send. Default: SWAGGERCTL_APP_ID, else the one saved for the server, else \(Configuration.defaultAppID).",
                valueName: "id"))
        var appId: String?

        @OptionGroup var output: FormatOptions

        @Flag(name: .shortAndLong, help: "Print nothing on success: no profile, no \"Logged in\" line.")
        var quiet = false

        @Flag(
            help: ArgumentHelp(
                "Allow the password and tokens over plain http:// to a host that is not this machine, where anyone "
                    + "on the network between can read them. The choice is saved with the session. Default: "
                    + "SWAGGERCTL_ALLOW_HTTP=1."))
        var allowHttp = false

        func validate() throws {
            let onTerminal = Terminal.isTerminal(STDIN_FILENO)
            if !passwordStdin, !onTerminal {
                throw ValidationError("Standard input is not a terminal; pipe the password in with --password-stdin.")
            }
            if email == nil, !onTerminal || passwordStdin {
                throw ValidationError("Give the e-mail with --email when the password comes from standard input.")
            }
        }

        func run() async throws {
            var configuration = try Configuration.fromEnvironment(keyring: keyring, network: network)
            if allowHttp { configuration.allowsPlainHTTP = true }
            let spinner = quiet ? nil : Spinner.forStandardError()
            let login = try await SessionController.atTerminal(configuration, delegate: spinner) {
                (controller) throws(SwaggerError) in
                let selection = try controller.select(serverFlag: serverOption.server, email: nil)
                let email =
                    if let email { email } else {
                        try Prompt.line("E-mail: ", cancelled: "Login cancelled: no e-mail given.")
                    }
                let password =
                    try passwordStdin
                    ? Prompt.standardInput()
                    : Prompt.secret("Password for \(email): ", cancelled: "Login cancelled: no password given.")
                spinner?.label = "Logging in to \(selection.server)"
                let profile = try await controller.login(
                    email: email, password: password, on: selection, appIDFlag: appId)
                return (email: email, server: selection.server, profile: profile)
            }
            guard !quiet else { return }
            Terminal.notice("Logged in to \(login.server) as \(login.email).")
            Terminal.print(output.render(login.profile.profile))
        }
    }
}
