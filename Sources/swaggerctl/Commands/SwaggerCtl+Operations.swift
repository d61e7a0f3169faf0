import ArgumentParser
import SwaggerClient
import SwaggerModel

extension SwaggerCtl {
    struct Operations: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "operations",
            abstract: "List the operations of the server's OpenAPI document, which `api` calls by name.",
            discussion: """
                The document is the copy swaggerctl keeps of the one it read at login, asked for again when it \
                is an hour old (a 304 costs little) or with --refresh-document; a server described without one \
                is looked for where the frameworks publish theirs. OpenAPI 3.0, 3.1 and Swagger 2.0, JSON or YAML.

                Examples:
                  swaggerctl operations
                  swaggerctl operations pet
                  swaggerctl operations --format json | jq -r '.[].operationId'
                """)

        @Argument(help: "Only the operations with this word in their id, path or summary.")
        var word: String?

        @Flag(help: "Ask the server for its OpenAPI document again before using the copy kept.")
        var refreshDocument = false

        @OptionGroup var output: FormatOptions
        @OptionGroup var session: SessionOptions
        @OptionGroup var network: NetworkOptions

        func run() async throws {
            var command = OperationsCommand()
            (command.word, command.session, command.connection) = (word, try session.choice(), network.connection())
            (command.format, command.refreshDocument) = (output.format, refreshDocument)
            try await command.run(.terminal)
        }
    }
}
