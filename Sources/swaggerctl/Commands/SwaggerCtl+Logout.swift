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
                machine. A server that offers no revocation is a warning (exit 0). A server that could have been \
                told and was not (it refused, or the token could not be read) leaves the session removed here \
                all the same, and logout exits 1 saying so. Exits 0 when you were not logged in, after saying so.

                A token in a keyring that cannot be reached is not removed (exit 1); --local then forgets the \
                session here, and warns where the token may remain. --all goes on past a session that fails, \
                and ends with a line for each (exit 1).

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
            var command = LogoutCommand()
            (command.session, command.connection) = (try session.choice(), network.connection(keyring: keyring))
            (command.local, command.all) = (local, all)
            try await command.run(.terminal)
        }
    }
}
