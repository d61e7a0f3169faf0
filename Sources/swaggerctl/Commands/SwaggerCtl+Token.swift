import ArgumentParser
import SwaggerClient

extension SwaggerCtl {
    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a usable access token, and nothing else.",
            discussion: #"""
                For scripts: curl -H "Authorization: Bearer $(swaggerctl token)" …

                An access token that has expired, or expires within 30 seconds, is refreshed first; an expired \
                token is never printed. With SWAGGERCTL_TOKEN set, that token is printed, unless it has expired.
                """#)

        @OptionGroup var session: SessionOptions
        @OptionGroup var keyring: KeyringOption

        func run() async throws {
            let configuration = try Configuration.fromEnvironment(keyring: keyring)
            let token = try await SessionController.withController(
                configuration: configuration, warn: Terminal.warning
            ) {
                (controller) throws(SwaggerError) in
                try await controller.accessToken(
                    controller.select(serverFlag: session.server, email: session.email, usingEnvironmentToken: true))
            }
            Terminal.print(token + "\n")
        }
    }
}
