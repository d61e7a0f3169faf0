import ArgumentParser
import SwaggerClient

extension SwaggerCtl {
    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "logout",
            abstract: "Remove the stored session for a server, and end it on the server.",
            discussion: """
                The tokens, the session record and the saved profile are removed from this machine first; then \
                the server is asked to revoke the session, within the request timeout. If the server cannot be \
                told, a warning says so and logout still exits 0. Exits 0 when you were not logged in, after \
                saying so.

                Examples:
                  swaggerctl logout
                  swaggerctl logout -e ana@example.com --local
                  swaggerctl logout --all
                """)

        @OptionGroup var session: SessionOptions
        @OptionGroup var keyring: KeyringOption
        @OptionGroup var network: NetworkOptions

        @Flag(help: "Only remove the session from this machine; do not ask the server to revoke it.")
        var local = false

        @Flag(help: "Remove every session on every server: tokens first, then records, then saved profiles.")
        var all = false

        func validate() throws {
            if all, session.server != nil || session.email != nil {
                throw ValidationError("--all removes every session; it takes no --server or --email.")
            }
        }

        func run() async throws {
            let configuration = try Configuration.fromEnvironment(keyring: keyring, network: network)
            let notice = try await SessionController.atTerminal(configuration) {
                (controller) throws(SwaggerError) in
                if all { return LogoutReport.line(removed: try await controller.logoutAll(revoke: !local)) }
                let selection = try controller.select(serverFlag: session.server, email: session.email)
                let server = selection.server
                return switch try await controller.logout(selection, revoke: !local) {
                case .loggedOut(let account): "Logged out \(account.email) from \(server)."
                case .notLoggedIn: "Not logged in to \(server); nothing to remove."
                }
            }
            Terminal.notice(notice)
        }
    }
}
