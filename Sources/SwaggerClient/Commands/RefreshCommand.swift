import FoundationEssentials
import SwaggerModel
import SwaggerOutput

/// `refresh`: the refresh token spent now for new tokens, and when the new access token expires.
package struct RefreshCommand: Sendable {
    package var session = SessionChoice()
    package var connection = ConnectionChoice()

    package init() {}

    package func run(_ environment: CommandEnvironment) async throws(SwaggerError) {
        let configuration = try environment.configuration(connection)
        let outcome = try await environment.console.working("Refreshing the session") {
            (progress) throws(SwaggerError) in
            try await environment.withController(configuration, delegate: progress) {
                (controller) throws(SwaggerError) in
                try await controller.refresh(controller.select(server: session.server, name: session.account))
            }
        }
        environment.console.print(RefreshReport.line(outcome, now: environment.now()) + "\n")
    }
}
