import ArgumentParser
import Foundation
import SwaggerClient

extension SwaggerCtl {
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List every stored session. Never prints a token.")

        @OptionGroup var output: FormatOptions

        func run() async throws {
            let configuration = try Configuration.fromEnvironment()
            let (statuses, tokens) = try await SessionController.withController(configuration: configuration) {
                (controller) throws(SwaggerError) in
                (SessionStatus.list(try controller.sessions()), controller.tokens)
            }
            switch output.format {
            case .json:
                Terminal.print(SessionStatus.json(statuses))
            case .table where statuses.isEmpty:
                Terminal.notice("Not logged in to any server. Run `swaggerctl login -e you@example.com`.")
            case .table:
                let renderer = Terminal.tableRenderer
                Terminal.print(
                    SessionStatus.render(
                        statuses, location: { tokens.location(of: $0.keystore, for: $0.account) }, renderer: renderer,
                        now: Date()))
            }
        }
    }
}
