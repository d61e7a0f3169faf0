import ArgumentParser
import FoundationEssentials
import SwaggerClient
import SwaggerModel
import SwaggerOutput

extension SwaggerCtl {
    struct Details: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "details",
            abstract: "Show your profile, using the stored session.",
            discussion: """
                An expired access token is refreshed first. When the server cannot be reached, the profile saved \
                at the last successful request is shown, with a line on stderr saying how old it is. If the \
                server no longer accepts the session, it is removed and you are asked to log in. With \
                SWAGGERCTL_TOKEN set, that token is used and nothing is read from or written to the store.

                Examples:
                  swaggerctl details
                  swaggerctl details --format json | jq -r .email
                  swaggerctl details -s https://api.example.com -e ana@example.com --no-cache
                """)

        @OptionGroup var session: SessionOptions
        @OptionGroup var keyring: KeyringOption
        @OptionGroup var network: NetworkOptions
        @OptionGroup var output: FormatOptions

        @Flag(help: "Never show a saved profile: when the server cannot be reached, exit 3.")
        var noCache = false

        func run() async throws {
            var command = DetailsCommand()
            (command.session, command.connection) = (try session.choice(), network.connection(keyring: keyring))
            (command.allowSaved, command.format) = (!noCache, output.format)
            try await command.run(.terminal)
        }
    }
}
