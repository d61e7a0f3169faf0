import SwaggerDocuments
import SwaggerModel
import SwaggerOutput

/// `operations`, and `api --list`: the operations of the server's document with a word in their id, path or summary.
package struct OperationsCommand: Sendable {
    /// The word to look for; `nil` for every operation.
    package var word: String?
    package var session = SessionChoice()
    package var connection = ConnectionChoice()
    package var format = OutputFormat.table
    /// `--refresh-document`: the document asked for again before the kept copy is used.
    package var refreshDocument = false

    package init() {}

    package func run(_ environment: CommandEnvironment) async throws(SwaggerError) {
        let index = try await environment.withController(environment.configuration(connection)) {
            (controller) throws(SwaggerError) in
            let selection = try controller.select(server: session.server, name: session.account)
            return try await controller.operations(on: selection.server, refresh: refreshDocument)
        }
        let console = environment.console
        let operations = index.operations(matching: word)
        switch format {
        case .json:
            console.print(
                JSONOutput.render(operations.map { OperationListing($0, under: index.basePath) }, fallback: "[]"))
        case .table:
            guard !operations.isEmpty else {
                return console.notice(
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
            console.print(ColumnTable.render(rows: rows, columns: console.columns))
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
