import ArgumentParser
import FoundationEssentials
import SwaggerClient
import SwaggerModel

extension TokenFormat: ExpressibleByArgument {}

extension SwaggerCtl {
    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "token",
            abstract: "Print a usable access token, and nothing else.",
            discussion: """
                An access token that has expired, or expires within 30 seconds, is refreshed first; an expired \
                token is never printed. With SWAGGERCTL_TOKEN set, that token is printed, unless it has expired.

                Formats: plain (the token), header (the server's header line, such as "Authorization: Bearer …", \
                for curl -H @-), json (token, header, scheme, expiry, server, account), exec-credential \
                (Kubernetes' ExecCredential, in the version kubectl asks for in KUBERNETES_EXEC_INFO, else v1).

                Examples:
                  swaggerctl token --format header | curl -H @- "$API/User/User"
                  TOKEN=$(swaggerctl token -e ana@example.com) || exit
                  swaggerctl token --format json | jq -r .expiry
                """)

        @OptionGroup var session: SessionOptions
        @OptionGroup var keyring: KeyringOption
        @OptionGroup var network: NetworkOptions

        @Option(help: ArgumentHelp("plain, header, json or exec-credential.", valueName: "format"))
        var format: TokenFormat = .plain

        func run() async throws {
            var command = TokenCommand()
            (command.session, command.connection) = (try session.choice(), network.connection(keyring: keyring))
            command.format = format
            try await command.run(.terminal)
        }
    }
}
