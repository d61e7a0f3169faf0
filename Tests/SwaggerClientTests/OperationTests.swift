import Foundation
import SwaggerClient
import SwaggerHTTP
import SwaggerModel
import SwaggerOutput
import TestSupport
import Testing

@testable import SwaggerDocuments

/// Operations by name: what is read from OpenAPI 3.0, 3.1 and Swagger 2.0 documents, how each field is placed, and
/// what is refused before anything is sent.
@Suite("Operations of a document: reading, placing and checking fields", .timeLimit(.minutes(5)))
struct OperationTests {
    static let server: ServerURL = {
        do {
            return try ServerURL("https://api.example.com/v1")
        } catch {
            preconditionFailure("\(error)")
        }
    }()
    static let documentURL = server.url.appending(path: "openapi.yaml")

    /// OpenAPI 3.0 in YAML: a path-level parameter, a `$ref` to a parameter, `nullable`, a header and a cookie.
    static let openAPI30 = """
        openapi: 3.0.3
        info: {title: Pets, version: '1'}
        servers: [{url: 'https://elsewhere.example.org/v1'}]
        paths:
          /pets/{petId}:
            parameters:
              - {name: petId, in: path, required: true, schema: {type: integer, format: int32}}
            get:
              operationId: getPet
              summary: Read a pet.
              parameters:
                - $ref: '#/components/parameters/Kind'
                - {name: X-Trace, in: header, schema: {type: string}}
                - {name: session, in: cookie, schema: {type: string}}
                - {name: since, in: query, schema: {type: string, format: date-time}}
            patch:
              operationId: updatePet
              requestBody:
                required: true
                content:
                  application/json:
                    schema: {$ref: '#/components/schemas/PetUpdate'}
          /pets:
            post:
              operationId: createPet
              requestBody:
                required: true
                content:
                  application/json:
                    schema: {$ref: '#/components/schemas/Pet'}
          /login:
            post:
              operationId: login
              requestBody:
                content:
                  application/x-www-form-urlencoded:
                    schema:
                      type: object
                      required: [username, password]
                      properties: {username: {type: string}, password: {type: string}}
        components:
          parameters:
            Kind: {name: kind, in: query, schema: {type: string, enum: [cat, dog, bird]}}
          schemas:
            Pet:
              type: object
              required: [id, name, kind]
              additionalProperties: false
              properties:
                id: {type: integer, readOnly: true}
                name: {type: string, minLength: 1}
                kind: {type: string, enum: [cat, dog, bird]}
                age: {type: integer, minimum: 0, nullable: true}
                owner: {$ref: '#/components/schemas/Owner'}
                tags: {type: array, items: {type: string}}
            Owner:
              type: object
              required: [id]
              properties: {id: {type: string, format: uuid}, next: {$ref: '#/components/schemas/Owner'}}
            PetUpdate:
              allOf:
                - {$ref: '#/components/schemas/Named'}
                - type: object
                  required: [id]
                  properties: {age: {type: integer}}
            Named:
              type: object
              properties: {id: {type: integer, readOnly: true}, name: {type: string}}
        """

    /// OpenAPI 3.1 in JSON, as FastAPI writes an optional enum: `anyOf` the enum's `$ref` and `null`.
    static let openAPI31 = """
        {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
         "paths": {"/search": {"get": {"operationId": "search", "parameters": [
             {"name": "kind", "in": "query", "required": false,
              "schema": {"anyOf": [{"$ref": "#/components/schemas/Kind"}, {"type": "null"}]}},
             {"name": "limit", "in": "query", "schema": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]}}]}},
                   "/echo": {"get": {"operationId": "echo"}, "post": {"operationId": "echo"}}},
         "components": {"schemas": {"Kind": {"type": "string", "enum": ["cat", "dog"]}}}}
        """

    /// Swagger 2.0: a basePath, a body parameter, form fields, and `x-nullable`.
    static let swagger20 = """
        {"swagger": "2.0", "info": {"title": "t", "version": "1"}, "basePath": "/api/v2",
         "consumes": ["application/json"],
         "paths": {
           "/pets": {"post": {"operationId": "createPet", "parameters": [
               {"name": "payload", "in": "body", "required": true, "schema": {"$ref": "#/definitions/Pet"}}]}},
           "/pets/{id}": {"get": {"operationId": "getPet", "parameters": [
               {"name": "id", "in": "path", "required": true, "type": "integer"},
               {"name": "kind", "in": "query", "type": "string", "enum": ["cat", "dog"]}]}},
           "/upload": {"post": {"operationId": "upload", "consumes": ["application/x-www-form-urlencoded"],
               "parameters": [{"name": "note", "in": "formData", "type": "string", "required": true}]}}},
         "definitions": {"Pet": {"type": "object", "required": ["id", "name"],
             "properties": {"id": {"type": "integer", "readOnly": true}, "name": {"type": "string"},
                            "age": {"type": "integer", "x-nullable": true}}}}}
        """

    static let uuid = "0d6f3a52-9c1e-4b7a-8f53-2f4c1a9e7b10"

    static func index(_ text: String) throws -> OperationIndex {
        try #require(OperationIndex.read(Data(text.utf8), at: documentURL))
    }

    static func request(_ document: String, _ name: String, _ arguments: [String], raw: [String] = [])
        throws -> APIRequest
    {
        let index = try index(document)
        let operation = try #require(try index.operation(named: name))
        let fields =
            try arguments.map { argument in try APIRequestTests.field(argument) }
            + raw.map { argument in
                guard case .value(let field) = try RequestField.parse(argument, .raw) else {
                    throw SwaggerError(.usage, "")
                }
                return field
            }
        let rawKeys = Set(raw.compactMap { $0.split(separator: "=").first.map(String.init) })
        return try APIRequest(operation, in: index, on: server, fields: fields, raw: rawKeys)
    }

    /// The line a refused request gets.
    static func refusal(_ document: String, _ name: String, _ arguments: [String], raw: [String] = []) -> String? {
        do {
            _ = try request(document, name, arguments, raw: raw)
            return nil
        } catch let error as SwaggerError {
            #expect(error.code == .usage, "\(error.message)")
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test("3.0, 3.1 and 2.0 documents give their operations, with path-level and $ref'd parameters and bodies")
    func reading() throws {
        let three = try Self.index(Self.openAPI30)
        #expect(three.operations.map(\.name) == ["login", "createPet", "getPet", "updatePet"])
        #expect(three.basePath == "/v1")
        let getPet = try #require(try three.operation(named: "getPet"))
        #expect(getPet.parameters.map(\.name) == ["petId", "kind", "X-Trace", "session", "since"])
        #expect(getPet.parameters.map(\.location) == [.path, .query, .header, .cookie, .query])
        #expect(try three.operation(named: "GET /pets/{petId}") == getPet)
        #expect(try three.operation(named: "getpet") == getPet)
        #expect(try three.operation(named: "GET /pets/7") == nil)
        #expect(try three.operation(named: "login") != nil)
        #expect(three.suggestions(for: "getPets") == ["getPet"])
        #expect(three.operations(matching: "pet").count == 3)

        let two = try Self.index(Self.swagger20)
        #expect(two.basePath == "/api/v2")
        let create = try #require(try two.operation(named: "createPet"))
        #expect(create.body?.contentType == "application/json" && create.body?.required == true)
        let upload = try #require(try two.operation(named: "upload"))
        #expect(upload.body?.isForm == true)
        #expect(upload.body?.schema?.required == ["note"])

        let thirtyOne = try Self.index(Self.openAPI31)
        #expect(throws: SwaggerError.self) { try thirtyOne.operation(named: "echo") }
        #expect(try thirtyOne.operation(named: "POST /echo")?.method == "POST")
        #expect(OperationIndex.read(Data(#"{"paths": {}}"#.utf8), at: Self.documentURL) == nil)
    }

    @Test("fields go where the document puts them: the path, the query, a header, a cookie, the body")
    func placing() throws {
        let get = try Self.request(
            Self.openAPI30, "getPet",
            ["petId=7", "kind=dog", "X-Trace=abc", "session=s 1", "since=2026-01-31T09:00:00Z"])
        // The session's origin, the document's base path: never the document's other host.
        #expect(get.url.absoluteString == "https://api.example.com/v1/pets/7?kind=dog&since=2026-01-31T09%3A00%3A00Z")
        #expect(get.headers.contains(HeaderField(name: "X-Trace", value: "abc")))
        #expect(get.headers.contains(HeaderField(name: "Cookie", value: "session=s%201")))
        #expect(get.body == nil && get.method == "GET")

        let post = try Self.request(Self.openAPI30, "createPet", ["name=Rex", "kind=dog", "age=3", "tags[]=a"])
        #expect(post.method == "POST")
        #expect(
            String(decoding: post.body ?? Data(), as: UTF8.self) == #"{"age":3,"kind":"dog","name":"Rex","tags":["a"]}"#
        )
        #expect(post.headers == [HeaderField(name: "Content-Type", value: "application/json")])

        let form = try Self.request(Self.openAPI30, "login", [], raw: ["username=ana", "password=a b&c"])
        #expect(String(decoding: form.body ?? Data(), as: UTF8.self) == "password=a+b%26c&username=ana")
        #expect(form.headers == [HeaderField(name: "Content-Type", value: "application/x-www-form-urlencoded")])

        let two = try Self.request(Self.swagger20, "getPet", ["id=5"])
        #expect(two.url.absoluteString == "https://api.example.com/api/v2/pets/5")
        let escaped = try Self.request(Self.openAPI30, "updatePet", ["petId=1"], raw: ["name=a/b"])
        #expect(escaped.url.path(percentEncoded: true) == "/v1/pets/1" && escaped.method == "PATCH")
    }

    @Test("missing, unknown and mistyped fields are refused with a line that names the field and what it takes")
    func refusals() throws {
        let cases: [(String, String, [String], [String], String)] = [
            (Self.openAPI30, "getPet", [], [], "getPet needs -f petId (an integer)."),
            (Self.openAPI30, "getPet", ["petId=x"], [], #"getPet: petId takes an integer, not "x"."#),
            (Self.openAPI30, "getPet", ["petId=3000000000"], [], "at most 2147483647"),
            (Self.openAPI30, "getPet", ["petId=1", "kind=fish"], [], "kind takes one of cat, dog, bird"),
            (Self.openAPI30, "getPet", ["petId=1", "since=yesterday"], [], "since takes a date-time such as"),
            (Self.openAPI30, "getPet", ["petId=1", "knid=cat"], [], "has no parameter knid; did you mean kind?"),
            (Self.openAPI30, "createPet", ["name=Rex"], [], "createPet needs -f kind (one of cat, dog, bird)."),
            (Self.openAPI30, "createPet", ["nmae=Rex", "kind=cat"], [], "takes no field nmae; did you mean name?"),
            (Self.openAPI30, "createPet", ["name=Rex", "kind=cat"], ["age=3"], "-F age=3 types it"),
            (Self.openAPI30, "createPet", ["name=Rex", "kind=cat", "age=-1"], [], "age takes a number of at least 0"),
            (Self.openAPI30, "createPet", ["name=", "kind=cat"], [], "name takes at least 1 character"),
            (Self.openAPI30, "createPet", ["name=R", "kind=cat", "owner[id]=nope"], [], "owner[id] takes a UUID"),
            (Self.openAPI30, "createPet", ["name=R", "kind=cat", "owner[x]=1"], [], "needs -f owner[id] (a UUID)."),
            (
                Self.openAPI30, "createPet", ["name=R", "kind=cat", "owner[id]=\(Self.uuid)", "owner[next][x]=1"], [],
                "needs -f owner[next][id] (a UUID)."
            ),
            (Self.openAPI30, "createPet", ["name=R", "kind=cat", "tags[]=1"], [], "tags[] takes a string"),
            (Self.openAPI30, "updatePet", ["petId=1", "age=old"], [], "age takes an integer"),
            (Self.openAPI31, "search", ["kind=fish"], [], "kind takes one of cat, dog"),
            (Self.openAPI31, "search", ["limit=0"], [], "limit takes a number of at least 1"),
            (Self.swagger20, "createPet", [], [], "createPet needs -f name (a string)."),
            (Self.swagger20, "upload", [], [], "upload needs -f note (a string)."),
        ]
        for (document, name, typed, raw, expected) in cases {
            let line = Self.refusal(document, name, typed, raw: raw)
            #expect(line?.contains(expected) == true, "\(name) \(typed) \(raw): \(line ?? "sent"), not \(expected)")
            #expect((line?.count ?? 0) + "swaggerctl: ".count <= 160, "\(line ?? "")")
        }
        // A read-only member is the server's to make, though the schema requires it: in the schema itself, and in a
        // part of `allOf` beside the one that defines it.
        #expect(Self.refusal(Self.openAPI30, "createPet", ["name=R", "kind=cat"]) == nil)
        #expect(Self.refusal(Self.openAPI30, "updatePet", ["petId=1", "age=2"]) == nil)
        #expect(Self.refusal(Self.swagger20, "createPet", ["name=R"]) == nil)
        // What the schema takes is sent: null where it is nullable, 3.0's and 2.0's ways, and 3.1's null.
        #expect(Self.refusal(Self.openAPI30, "createPet", ["name=R", "kind=cat", "age=null"]) == nil)
        #expect(Self.refusal(Self.swagger20, "createPet", ["name=R", "age=null"]) == nil)
        #expect(Self.refusal(Self.openAPI31, "search", ["kind=dog", "limit=5"]) == nil)
        #expect(
            Self.refusal(Self.openAPI30, "createPet", ["name=R", "kind=cat", "color=red"])?.contains("color") == true)
    }

    @Test("-X must be the operation's method, and --input is the body, checked when it is JSON")
    func methodAndInput() throws {
        let index = try Self.index(Self.openAPI30)
        let create = try #require(try index.operation(named: "createPet"))
        #expect(throws: SwaggerError.self) { try APIRequest(create, in: index, on: Self.server, method: "PUT") }
        let good = Data(#"{"name":"R","kind":"dog"}"#.utf8)
        #expect(try APIRequest(create, in: index, on: Self.server, method: "post", input: good).method == "POST")
        #expect(try APIRequest(create, in: index, on: Self.server, input: good).body == good)
        do {
            _ = try APIRequest(create, in: index, on: Self.server, input: Data(#"{"name":"R","kind":"cow"}"#.utf8))
            Issue.record("a body outside the schema was sent")
        } catch {
            #expect(error.message.contains("--input: kind takes one of cat, dog, bird"))
        }
    }

    static func curl(_ request: APIRequest, token: TokenUse, account: String?) -> String {
        CurlLine.render(
            method: request.method, url: request.url, headers: request.headers, body: request.body, token: token,
            server: server, account: account, input: nil)
    }

    @Test("--dry-run's line runs in a shell, with the token's command in place of the token")
    func curlLine() throws {
        let post = try Self.request(Self.openAPI30, "createPet", ["name=Ana's", "kind=dog"])
        let line = Self.curl(post, token: .bearer, account: "ana@example.com")
        #expect(
            line
                == "curl https://api.example.com/v1/pets -H 'Authorization: Bearer '\"$(swaggerctl token -s "
                + "https://api.example.com/v1 -e ana@example.com)\" -H 'Content-Type: application/json' --data-binary "
                + #"'{"kind":"dog","name":"Ana'\''s"}'"# + "\n")
        let get = try Self.request(Self.openAPI30, "getPet", ["petId=7"])
        let header = Self.curl(get, token: TokenUse(header: "X-API-Key", scheme: nil), account: nil)
        #expect(
            header
                == "curl https://api.example.com/v1/pets/7 -H 'X-API-Key: '\"$(swaggerctl token -s https://api.example.com/v1)\"\n"
        )
        let patch = try Self.request(Self.openAPI30, "updatePet", ["petId=7"], raw: ["name=x"])
        #expect(
            Self.curl(patch, token: .bearer, account: nil).contains(" -X PATCH ")
        )
        let shell = try #require(try? Self.shellWords("printf '%s\\n' " + line.dropFirst("curl ".count)))
        #expect(shell.contains(#"{"kind":"dog","name":"Ana's"}"#))
    }

    @Test("--dry-run's line expands nothing a description or a person wrote: the header, the scheme, the account")
    func curlLineQuotesEverything() throws {
        let folder = try TemporaryDirectory()
        let marker = folder.appending("ran")
        // Every character of this header's name and scheme is one that RFC 9110 allows in a token.
        let use = try #require(TokenUse(text: "X-$HOME`id`'x: `id`$USER"))
        let get = try Self.request(Self.openAPI30, "getPet", ["petId=7"])
        for account in ["$(touch \(marker.path))", "`touch \(marker.path)`", "~root", "a=~root", "a b'c\"d"] {
            let line = Self.curl(get, token: use, account: account)
            let words = try Self.shellWords("printf '%s\\n' " + line.dropFirst("curl ".count))
            #expect(
                words.split(separator: "\n").map(String.init) == [
                    "https://api.example.com/v1/pets/7", "-H",
                    "X-$HOME`id`'x: `id`$USER token -s https://api.example.com/v1 -e \(account)",
                ], "\(line)")
        }
        withExtendedLifetime(folder) { #expect(!FileManager.default.fileExists(atPath: marker.path)) }
    }

    /// What `sh` makes of a line's words, one per line, with the `$(…)` left unrun.
    static func shellWords(_ line: String) throws -> String {
        let process = Process()
        process.executableURL = URL(filePath: "/bin/sh")
        process.arguments = ["-c", line.replacing("$(swaggerctl", with: "$(echo")]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    @Test("an argument is an operation by id or by 'METHOD /path', else a path")
    func targets() {
        #expect(APITarget("getPet") == .operation("getPet"))
        #expect(APITarget("GET /pets/{petId}") == .operation("GET /pets/{petId}"))
        #expect(APITarget("/users/me") == .path("/users/me"))
        #expect(APITarget("users/me") == .path("users/me"))
        #expect(APITarget("https://api.example.com/v1/x") == .path("https://api.example.com/v1/x"))
        #expect(APITarget("get /x") == .path("get /x"))
    }

    @Test("completion's lines: ids, paths, fields and enum values, FastAPI's optional enum too; no tab or line break")
    func completionNames() throws {
        let text = CompletionNames.text(of: try Self.index(Self.openAPI30))
        #expect(CompletionNames.operations(in: text, prefix: "get") == ["getPet"])
        #expect(CompletionNames.operations(in: text, prefix: "/pets/") == ["/pets/{petId}"])
        #expect(
            CompletionNames.fields(in: text, operation: "getPet", prefix: "") == [
                "petId=", "kind=", "X-Trace=", "session=", "since=",
            ])
        #expect(CompletionNames.fields(in: text, operation: "GET /pets/{petId}", prefix: "kind=d") == ["kind=dog"])
        #expect(CompletionNames.fields(in: text, operation: "createpet", prefix: "k") == ["kind="])
        // The members of every part of `allOf`, less the read-only one that a part defines.
        #expect(CompletionNames.fields(in: text, operation: "updatePet", prefix: "") == ["petId=", "name=", "age="])
        let optional = CompletionNames.text(of: try Self.index(Self.openAPI31))
        #expect(CompletionNames.fields(in: optional, operation: "search", prefix: "kind=") == ["kind=cat", "kind=dog"])
        let hostile = """
            {"openapi": "3.1.0", "paths": {"/a": {"get": {"operationId": "a\tb", "parameters": [
                {"name": "n", "in": "query", "schema": {"enum": ["x\ny", "ok"]}}]}},
              "/b": {"get": {"operationId": "b", "parameters": [{"name": "m\nO\tevil", "in": "query"}]}}}}
            """
        let lines = CompletionNames.text(of: try Self.index(hostile))
        #expect(CompletionNames.operations(in: lines, prefix: "") == ["b"])
        #expect(CompletionNames.fields(in: lines, operation: "b", prefix: "") == [])
        #expect(!lines.contains("evil") && !lines.contains("x\ny"))
    }
}
