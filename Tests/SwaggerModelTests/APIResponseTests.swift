import Foundation
import Testing

@testable import SwaggerModel

@Suite("APIResponse: its headers by name", .timeLimit(.minutes(5)))
struct APIResponseTests {
    static let response = APIResponse(
        url: URL(filePath: "/items"), status: 200, reason: "OK",
        headers: [
            HeaderField(name: "Link", value: "<http://h/items?page=2>; rel=\"next\""),
            HeaderField(name: "content-TYPE", value: "application/json"),
            HeaderField(name: "Set-Cookie", value: "a=1"),
            HeaderField(name: "set-cookie", value: "b=2"),
            HeaderField(name: "X-A", value: "dash"),
        ],
        body: Data())

    @Test(
        "a name is found in any case, repeated fields are joined by commas, and only letters differ by case",
        arguments: [
            ("link", "<http://h/items?page=2>; rel=\"next\""), ("LINK", "<http://h/items?page=2>; rel=\"next\""),
            ("Content-Type", "application/json"), ("SET-COOKIE", "a=1, b=2"), ("x-a", "dash"),
            // `\r` is `-` less 0x20, as `a` is `A` plus it: only letters are told apart from their case.
            ("X\rA", nil), ("X-", nil), ("Link2", nil),
        ] as [(String, String?)])
    func header(name: String, value: String?) {
        #expect(Self.response.header(name) == value)
    }
}
