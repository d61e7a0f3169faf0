import ArgumentParser
import Foundation
import SwaggerClient

extension SwaggerCtl {
    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the stored access token, and nothing else.",
            discussion: #"For scripts: curl -H "Authorization: Bearer $(swaggerctl token)" …"#)

        @OptionGroup var session: SessionOptions
        @OptionGroup var keyring: KeyringOption

        func run() async throws {
            let configuration = try Configuration.fromEnvironment(keyring: keyring)
            let stored = try await SessionController.withController(
                configuration: configuration, warn: Terminal.warning
            ) {
                (controller) throws(SwaggerError) in
                try await controller.storedSession(controller.select(serverFlag: session.server, email: session.email))
            }
            if let expiry = stored.record.expiresAt, expiry < Date() {
                Terminal.notice(
                    "swaggerctl: warning: this token expired at \(expiry); run `swaggerctl login` to renew it.")
            }
            Terminal.print(stored.credentials.accessToken + "\n")
        }
    }
}
