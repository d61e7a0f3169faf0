import Foundation
import Testing

@testable import SwaggerModel

@Suite("ServerDescription: the request shapes, as sessions.json keeps them")
struct ServerDescriptionTests {
    static func description(_ kind: ServerKind) throws -> ServerDescription {
        let url = try #require(URL(string: "https://h.example.com/api/token/"))
        return ServerDescription(
            kind: kind, loginURL: url, refreshURL: url, revocationURL: url, profileURL: url, fields: kind.fields)
    }

    @Test(
        "every shape is written as its text and read back the same",
        arguments: [
            (LoginShape.json(userField: "username"), RefreshShape.bearer, RevocationShape.bearer(method: "DELETE")),
            (.passwordGrant, .grant, .rfc7009), (.json(userField: "email"), .json(field: "refresh"), .json(field: "r")),
            (.json(userField: "email"), .bearer, .bearer(method: "POST")),
        ])
    func roundTrip(login: LoginShape, refresh: RefreshShape, revocation: RevocationShape) throws {
        var description = try Self.description(.identity)
        (description.login, description.refresh, description.revocation) = (login, refresh, revocation)
        let data = try JSONEncoder().encode(description)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""login":""#) && text.contains(#""revocation":""#), "\(text)")
        #expect(try JSONDecoder().decode(ServerDescription.self, from: data) == description)
    }

    @Test("a description saved before shapes were written down has its kind's", arguments: ServerKind.allCases)
    func savedBefore(kind: ServerKind) throws {
        let url = "https://h.example.com/api/token/"
        let saved = #"""
            {"kind":"\#(kind.rawValue)","loginURL":"\#(url)","profileURL":"\#(url)","fields":{"accessToken":"a",
            "refreshToken":"r","expiresIn":"e"}}
            """#
        let description = try JSONDecoder().decode(ServerDescription.self, from: Data(saved.utf8))
        #expect(description.login == kind.shapes.login)
        #expect(description.refresh == kind.shapes.refresh)
        #expect(description.revocation == kind.shapes.revocation)
    }

    @Test("a shape that is not one of these is refused, not guessed", arguments: ["json:", "form", "bearer:GET", ""])
    func refused(text: String) {
        let data = Data(#""\#(text)""#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(RevocationShape.self, from: data) }
    }
}
