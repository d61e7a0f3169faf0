import ArgumentParser
import FoundationEssentials
import SessionMachine
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
            let configuration = try Configuration.fromEnvironment(keyring: keyring, network: network)
            let (outcome, server) = try await Spinner.run("Fetching your profile") { spinner in
                try await SessionController.atTerminal(configuration, delegate: spinner) {
                    (controller) throws(SwaggerError) in
                    let selection = try controller.select(
                        server: session.serverReference(), name: session.account, usingEnvironmentToken: true)
                    return (try await controller.profile(selection, allowSaved: !noCache), selection.server)
                }
            }
            if let notice = outcome.notice(server: server, now: Date()) { Terminal.notice(notice) }
            Terminal.print(output.render(outcome))
        }
    }
}

extension FormatOptions {
    /// The profile as a table of rows, or as JSON with every field as received.
    func render(_ outcome: ProfileOutcome) -> String {
        switch format {
        case .table: Terminal.tableRenderer.render(DetailsViewModel.rows(for: outcome.profile, labels: outcome.labels))
        case .json: outcome.profile.prettyJSON
        }
    }
}
