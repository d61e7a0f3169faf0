import ArgumentParser
import SwaggerClient
import SwaggerModel

extension SwaggerCtl {
    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "token",
            abstract: "Print a usable access token, and nothing else.",
            discussion: """
                For scripts: curl -H "Authorization: Bearer $(swaggerctl token)" …

                An access token that has expired, or expires within 30 seconds, is refreshed first; an expired \
                token is never printed. With SWAGGERCTL_TOKEN set, that token is printed, unless it has expired.

                Examples:
                  curl -H "Authorization: Bearer $(swaggerctl token)" "$API/User/User"
                  TOKEN=$(swaggerctl token -e ana@example.com) || exit
                """)

        @OptionGroup var session: SessionOptions
        @OptionGroup var keyring: KeyringOption
        @OptionGroup var network: NetworkOptions

        func run() async throws {
            let configuration = try Configuration.fromEnvironment(keyring: keyring, network: network)
            let token = try await SessionController.atTerminal(configuration) {
                (controller) throws(SwaggerError) in
                try await controller.accessToken(
                    controller.select(server: session.serverURL(), name: session.account, usingEnvironmentToken: true))
            }
            guard Credentials.isToken(token) else { throw SwaggerError.notAToken }
            Terminal.print(token + "\n")
        }
    }
}
