import ArgumentParser
import FoundationEssentials
import SwaggerClient
import SwaggerDocuments
import SwaggerModel
import SwaggerOutput

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
            try await Self.list(
                matching: word, format: output.format, refresh: refreshDocument, session: session, network: network)
        }

        /// Prints the operations with `word` in their id, path or summary: `operations`, and `api --list`.
        static func list(
            matching word: String?, format: FormatOptions.Format, refresh: Bool, session: SessionOptions,
            network: NetworkOptions
        ) async throws {
            let configuration = try Configuration.fromEnvironment(network: network)
            let index = try await SessionController.atTerminal(configuration) { (controller) throws(SwaggerError) in
                let selection = try controller.select(server: session.serverReference(), name: session.account)
                return try await controller.operations(on: selection.server, refresh: refresh)
            }
            let operations = index.operations(matching: word)
            switch format {
            case .json:
                Terminal.print(
                    JSONOutput.render(
                        operations.map { OperationListing($0, under: index.basePath) }, fallback: "[]"))
            case .table:
                guard !operations.isEmpty else {
                    return Terminal.notice(
                        word.map { "No operation has \"\(TerminalText.escaped($0))\" in its id, path or summary." }
                            ?? "The server's document has no operations.")
                }
                let rows = operations.map { operation in
                    // Listed, so that the person sees what the document holds, but marked: `api` refuses it.
                    let summary =
                        operation.staysOnOrigin(under: index.basePath)
                        ? operation.summary ?? "" : "(refused: its path leaves the server) \(operation.summary ?? "")"
                    return [operation.id ?? "-", operation.method, operation.path, summary]
                }
                Terminal.standardOutput.write(ColumnTable.render(rows: rows, columns: Terminal.columns))
            }
        }
    }
}

/// An operation as `operations --format json` prints it.
struct OperationListing: Encodable {
    var operationId: String?
    var method: String
    var path: String
    var summary: String?
    var parameters: [String]
    /// `api` refuses it: its path would take the token to another origin.
    var leavesOrigin: Bool

    init(_ operation: APIOperation, under base: String) {
        operationId = operation.id
        method = operation.method
        path = operation.path
        summary = operation.summary
        parameters = operation.parameters.map(\.name)
        leavesOrigin = !operation.staysOnOrigin(under: base)
    }
}
