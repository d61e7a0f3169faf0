import ArgumentParser
import FoundationEssentials
import SwaggerClient
import SwaggerModel

extension SwaggerCtl {
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "List the stored sessions. Never prints a token.",
            discussion: """
                Every session, or those on the server -s names and of the account -e names, with its token \
                looked up in its store (never printed). The one that commands use without -s and -e is marked \
                default; --verbose adds how each signed in and what its requests send. Exits 1 when a session's \
                token is missing or cannot be read, and 4 when no session is listed. With --check, the active \
                session (or the one -s and -e name) is checked with the server, refreshing it if needed: exit 0 \
                when it is valid or was refreshed, 4 when it has ended (it is then removed), 3 when the server \
                cannot be reached.

                Examples:
                  swaggerctl status
                  swaggerctl status --format json | jq -r '.[] | select(.active) | .email'
                  swaggerctl status --check || swaggerctl login -e me@example.com
                """)

        @OptionGroup var session: SessionOptions
        @OptionGroup var keyring: KeyringOption
        @OptionGroup var network: NetworkOptions
        @OptionGroup var output: FormatOptions

        @Flag(help: "Ask the server whether the session is still valid, refreshing it if needed.")
        var check = false

        func run() async throws {
            var command = StatusCommand()
            (command.session, command.connection) = (try session.choice(), network.connection(keyring: keyring))
            (command.format, command.check) = (output.format, check)
            try await command.run(.terminal)
        }
    }
}
