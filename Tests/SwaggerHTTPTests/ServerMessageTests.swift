import Foundation
import SwaggerModel
import Testing

@testable import SwaggerHTTP

@Suite("APIService: the sentence a refusal's JSON body carries for people", .timeLimit(.minutes(5)))
struct ServerMessageTests {
    @Test(
        "the best member that holds a sentence, or the first of a list of them, else the object itself",
        arguments: [
            (#"{"message": "Bad credentials", "error": "x"}"#, "Bad credentials"),
            (#"{"error": "invalid_grant", "error_description": "Wrong password"}"#, "Wrong password"),
            (
                #"{"detail": "No active account found with the given credentials"}"#,
                "No active account found with the given credentials"
            ),
            // Django REST framework's errors not tied to one field (dj-rest-auth's refused login).
            (
                #"{"non_field_errors": ["Unable to log in with provided credentials."]}"#,
                "Unable to log in with provided credentials."
            ),
            (#"{"message": "  ", "detail": ["", "x"]}"#, #"{"detail":["","x"],"message":"  "}"#),
            (#"{"refresh": ["This field is required."]}"#, #"{"refresh":["This field is required."]}"#),
        ])
    func message(body: String, expected: String) {
        #expect(APIService.serverMessage(json: Data(body.utf8)) == expected)
    }

    @Test("an empty object, a list or no JSON carries no sentence")
    func none() {
        for body in ["{}", "[\"a\"]", "<html>", ""] {
            #expect(APIService.serverMessage(json: Data(body.utf8)) == nil)
        }
        #expect(APIService.serverMessage(json: nil) == nil)
    }

    @Test(
        "a refused DPoP proof is the request's fault, at a login, a refresh or a use: no credentials refused, no session ended",
        arguments: [APIService.Operation.login, .refresh, .oauth2Refresh, .profile, .bearer])
    func refusedProof(operation: APIService.Operation) throws {
        for (status, code) in [(400, "invalid_dpop_proof"), (403, "invalid_dpop_proof"), (401, "use_dpop_nonce")] {
            let response = APIResponse(
                url: try #require(URL(string: "https://auth.example.com/token")), status: status, reason: "",
                headers: [], body: Data(#"{"error": "\#(code)", "error_description": "Invalid DPoP"}"#.utf8))
            #expect(
                APIService.failure(response, operation: operation)
                    == .requestRejected(status: status, message: "Invalid DPoP"))
        }
    }
}
