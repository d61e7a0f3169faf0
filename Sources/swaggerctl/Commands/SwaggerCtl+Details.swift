import ArgumentParser
import SwaggerClient

extension SwaggerCtl {
    struct Details: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show your profile, using the stored session.",
            discussion: "If the server rejects the stored token, the token is removed and you are asked to log in.")

        @OptionGroup var session: SessionOptions
        @OptionGroup var keyring: KeyringOption
        @OptionGroup var output: FormatOptions

        func run() async throws {
            let configuration = try Configuration.fromEnvironment(keyring: keyring)
            let spinner = Spinner.forStandardError(label: "Fetching your profile")
            let profile = try await SessionController.withController(
                configuration: configuration, delegate: spinner, warn: Terminal.warning
            ) {
                (controller) throws(SwaggerError) in
                try await controller.details(controller.select(serverFlag: session.server, email: session.email))
            }
            Terminal.print(output.render(profile))
        }
    }
}

extension FormatOptions {
    /// The profile as a table of rows, or as JSON with every field as received.
    func render(_ profile: Profile) -> String {
        switch format {
        case .table: Terminal.tableRenderer.render(DetailsViewModel.rows(for: profile))
        case .json: profile.prettyJSON
        }
    }
}
