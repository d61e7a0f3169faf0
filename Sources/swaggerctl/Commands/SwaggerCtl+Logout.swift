import ArgumentParser
import SwaggerClient
import SwaggerModel

extension SwaggerCtl {
    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "logout",
            abstract: "Remove the stored session for a server, and end it on the server.",
            discussion: """
                Under the account's refresh lock, the server is asked to revoke the session, within the request \
                timeout; then the tokens, the session record and the saved profile are removed from this \
                machine. If the server cannot be told, a warning says so, the session is removed here all the \
                same, and logout exits 0. Exits 0 when you were not logged in, after saying so.

                With several accounts logged in to the server and no -e, logout asks which on a terminal, and \
                exits 64 naming them off one. When the active account is logged out, the line says which account \
                is active there now.

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

        @Flag(help: "Log out of every session on every server, one after another.")
        var all = false

        func validate() throws {
            if all, session.server != nil || session.account != nil {
                throw ValidationError("--all removes every session; it takes no --server or --email.")
            }
        }

        func run() async throws {
            let configuration = try Configuration.fromEnvironment(keyring: keyring, network: network)
            let notice = try await SessionController.atTerminal(configuration) {
                (controller) throws(SwaggerError) in
                if all { return LogoutReport.line(removed: try await controller.logoutAll(revoke: !local)) }
                if try session.serverReference() == nil, try controller.defaultServer() == nil {
                    return LogoutReport.line(removed: [])
                }
                var selection = try controller.select(server: session.serverReference(), name: session.account)
                let server = selection.server
                // Which of several accounts to end is the person's choice, never the one that happens to be active.
                if session.account == nil, case let here = try controller.accounts(on: server), here.count > 1 {
                    let name = try AccountChooser.choose(
                        on: server, among: here, to: "Log out of", cancelled: "Logout cancelled.")
                    selection = try controller.select(server: .url(server), name: name)
                }
                switch try await controller.logout(selection, revoke: !local) {
                case .loggedOut(let account, let nowActive):
                    let next = nowActive.map { " \($0) is now the active account there." } ?? ""
                    return "Logged out \(account.name) from \(server).\(next)"
                case .notLoggedIn:
                    guard let email = session.account else { return "Not logged in to \(server); nothing to remove." }
                    let others = try controller.accounts(on: server).map(\.name)
                    let there = others.isEmpty ? "" : " (\(Messages.accountsAre(others)))"
                    return "\(email) is not logged in to \(server)\(there); nothing to remove."
                }
            }
            Terminal.notice(notice)
        }
    }
}
