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
            let keystore = FileKeystore(directory: configuration.directory)
            let statuses = SessionStatus.list(try SessionIndex(directory: configuration.directory).records())
            switch output.format {
            case .json:
                Terminal.print(SessionStatus.json(statuses))
            case .table where statuses.isEmpty:
                Terminal.notice("Not logged in to any server. Run `swaggerctl login -e you@example.com`.")
            case .table:
                Terminal.print(
                    SessionStatus.render(
                        statuses, location: { _ in keystore.location }, renderer: Terminal.tableRenderer, now: Date()))
            }
        }
    }
}
