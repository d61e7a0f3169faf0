import Foundation
import RequestMachine
import SessionMachine
import SwaggerModel
import SwaggerOutput
import TestSupport
import Testing

@testable import SwaggerClient

/// `swaggerctl api`'s output, chosen once from the options: what each page, a failure and the end write.
@Suite("api's output: one sink for every page", .timeLimit(.minutes(5)))
struct APIOutputTests {
    final class Written: @unchecked Sendable {
        var text = ""
    }

    static let server = APIRequestTests.serverURL()

    static func page(_ number: Int, status: Int = 200) -> APIResponse {
        APIResponse(
            url: APIRequestTests.url("https://api.example.com/v2/items?page=\(number)"), status: status,
            reason: status == 200 ? "OK" : "Not Found", headers: [HeaderField(name: "X-Page", value: "\(number)")],
            body: Data(#"{"items":[{"id":\#(number)}]}"#.utf8))
    }

    /// The text written for `pages` under `options`, and what the end reported.
    static func run(_ options: APIOutput.Options, _ pages: [APIResponse]) throws -> (
        String, Result<String?, SwaggerError>
    ) {
        let written = Written()
        let scratch = try TemporaryDirectory()
        var output = try APIOutput(
            options, renderer: ResponseRenderer(forTerminal: false),
            spool: { () throws(SwaggerError) in try ScratchSpool(environment: ["TMPDIR": scratch.url.path]) },
            write: { written.text += String(decoding: $0, as: UTF8.self) })
        for page in pages { try output.receive(page) }
        let outcome = RequestCoordinator.Outcome(
            status: pages.last?.status ?? 0, pages: pages.count, server: server, method: "GET")
        let end = Result { () throws(SwaggerError) in try output.finish(outcome) }
        return (written.text, end)
    }

    @Test("each page as received, one per line; --jq's results; a table's rows; --slurp's one array at the end")
    func sinks() throws {
        let pages = [Self.page(1), Self.page(2)]
        #expect(try Self.run(.init(paginate: true), pages).0 == "{\"items\":[{\"id\":1}]}\n{\"items\":[{\"id\":2}]}\n")
        #expect(try Self.run(.init(paginate: true, jq: JQProgram(".items[].id")), pages).0 == "1\n2\n")
        #expect(try Self.run(.init(paginate: true, table: true), pages).0 == "id\n1\n2\n")
        #expect(try Self.run(.init(paginate: true, slurp: true), pages).0 == "[{\"id\":1},{\"id\":2}]\n")
        #expect(try Self.run(.init(paginate: true, slurp: true, jq: JQProgram("length")), pages).0 == "2\n")
        #expect(try Self.run(.init(silent: true, paginate: true, slurp: true), pages).0 == "")
    }

    @Test("-i puts each response's status line, with its HTTP version as received, and headers before its body")
    func include() throws {
        let (text, _) = try Self.run(.init(include: true), [Self.page(1)])
        #expect(text == "HTTP/1.1 200 OK\nX-Page: 1\n\n{\"items\":[{\"id\":1}]}\n", "\(text)")
        var second = Self.page(1)
        second.version = "HTTP/2"
        second.reason = ""
        #expect(try Self.run(.init(include: true), [second]).0.hasPrefix("HTTP/2 200\nX-Page: 1\n\n"))
    }

    @Test("a body in a pipe ends its line unless it is binary; --silent prints nothing at all")
    func endedLines() throws {
        var page = Self.page(1)
        #expect(try Self.run(.init(), [page]).0 == "{\"items\":[{\"id\":1}]}\n")
        page.body = Data("already ended\n".utf8)
        #expect(try Self.run(.init(), [page]).0 == "already ended\n")
        page.body = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0x01])
        #expect(try !Self.run(.init(), [page]).0.hasSuffix("\n"))
        page.body = Data([0xFF, 0xFE, 0x41])
        #expect(try Self.run(.init(), [page]).0.utf8.last != UInt8(ascii: "\n"))
        page.body = Data()
        #expect(try Self.run(.init(), [page]).0 == "")
        #expect(try Self.run(.init(silent: true), [Self.page(1)]).0 == "")
    }

    @Test("--jq feeds -o table: one object's members as rows, several results as a list's items")
    func jqTable() throws {
        let user = APIResponse(
            url: APIRequestTests.url("https://api.example.com/v2/users/me"), status: 200, reason: "OK", headers: [],
            body: Data(
                #"{"user": {"name": "Ana", "roles": ["a", "b"], "age": 7}, "items": [{"id": 1}, {"id": 2}]}"#.utf8))
        let object = try Self.run(.init(table: true, jq: JQProgram(".user")), [user]).0
        #expect(object == "name   Ana\nroles  [\"a\",\"b\"]\nage    7\n", "\(object)")
        #expect(try Self.run(.init(table: true, jq: JQProgram(".items[]")), [user]).0 == "id\n1\n2\n")
        #expect(try Self.run(.init(table: true, jq: JQProgram(".user.name")), [user]).0 == "value\nAna\n")
    }

    @Test("a failure's body is shown as received and decides the end; --slurp and a table print nothing of the list")
    func failure() throws {
        let pages = [Self.page(1), Self.page(2, status: 404)]
        for options in [APIOutput.Options(paginate: true, slurp: true), .init(paginate: true, table: true)] {
            let (text, end) = try Self.run(options, pages)
            #expect(text == #"{"items":[{"id":2}]}"# + "\n", "\(text)")
            guard case .failure(let error) = end else {
                Issue.record("a 404 ended as \(end)")
                continue
            }
            #expect(error.message.contains("HTTP 404"), "\(error.message)")
        }
        let (silent, _) = try Self.run(.init(silent: true), [Self.page(2, status: 404)])
        #expect(silent == "")
    }
}
