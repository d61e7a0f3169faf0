import FoundationEssentials
import Testing

@testable import SwaggerHTTP

/// What `--verbose` shows of a body: the bytes as received, with only the secrets hidden.
@Suite("Redactor: bodies as received", .timeLimit(.minutes(5)))
struct RedactorBodyTests {
    static func shown(_ body: String, secrets: [String] = []) -> String {
        Redactor(secrets: secrets).body(Data(body.utf8), contentType: "application/json", limit: 400)
    }

    @Test("JSON keeps the server's spacing, order and line breaks")
    func asReceived() {
        let body = "{\n  \"name\": \"Ana\",\n  \"id\":7 ,\"tags\" : [ \"a\" ]\n}\n"
        #expect(Self.shown(body) == body)
    }

    @Test("a credential member's string is hidden where it stands; a secret known by value too")
    func hiddenInPlace() {
        #expect(
            Self.shown(#"{ "access_token" : "eyJhbGciOi.x.y", "user": {"refresh": "r-0123456789"}, "n": 1 }"#)
                == #"{ "access_token" : "[redacted]", "user": {"refresh": "[redacted]"}, "n": 1 }"#)
        #expect(Self.shown(#"{"note": "pw is hunter22"}"#, secrets: ["hunter22"]) == #"{"note": "pw is [redacted]"}"#)
    }

    @Test("a credential member that cannot be hidden in place is hidden in JSON written again")
    func writtenAgain() {
        #expect(Self.shown(#"{"password": 123456, "b": 1}"#) == #"{"b":1,"password":"[redacted]"}"#)
        #expect(Self.shown(#"{"token": "abc", "b": 1}"#) == #"{"b":1,"token":"[redacted]"}"#)
        // Escaped another way than a JSON encoder writes it: no spelling of the secret matches the text.
        #expect(Self.shown(#"{"token": "\u0061bcdefgh"}"#) == #"{"token":"[redacted]"}"#)
    }
}
