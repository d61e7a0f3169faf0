import ArgumentParser
import FoundationEssentials
import SwaggerClient
import SwaggerModel

extension SwaggerCtl {
    struct Refresh: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "refresh",
            abstract: "Refresh the stored session now, and print when the new access token expires.",
            discussion: """
                Spends the refresh token for new tokens, as details and token do by themselves when the access \
                token has expired. If the server no longer accepts the session, it is removed (exit 4). A server \
                that gave no refresh token has nothing to renew: refresh says so, and exits 0 while the access \
                token is still good, 4 once it has expired.

                Examples:
                  swaggerctl refresh
                  swaggerctl refresh -s https://api.example.com -e ana@example.com
                """)

        @OptionGroup var session: SessionOptions
        @OptionGroup var keyring: KeyringOption
        @OptionGroup var network: NetworkOptions

        func run() async throws {
            var command = RefreshCommand()
            (command.session, command.connection) = (try session.choice(), network.connection(keyring: keyring))
            try await command.run(.terminal)
        }
    }
}
