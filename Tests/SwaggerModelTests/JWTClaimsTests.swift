import Foundation
import Testing

@testable import SwaggerModel

@Suite("JWTClaims: the expiry of an unverified JWT", .timeLimit(.minutes(5)))
struct JWTClaimsTests {
    /// Base64url without padding, as JWTs use it.
    static func base64url(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// An unsigned JWT with `payload` as its claims.
    static func token(payload: String) -> String {
        base64url(#"{"alg":"none","typ":"JWT"}"#) + "." + base64url(payload) + ".c2lnbmF0dXJl"
    }

    @Test("exp of a hand-built JWT is read as seconds since 1970")
    func expiry() {
        #expect(
            JWTClaims.expiry(of: Self.token(payload: #"{"exp": 2000000000}"#))
                == Date(timeIntervalSince1970: 2_000_000_000))
    }

    @Test(
        "payloads of every length mod 4 decode without their padding",
        arguments: [
            #"{"exp":2000000000}"#,  // 24 characters: no padding needed
            #"{"exp":2000000000 }"#,  // 26: two "=" stripped
            #"{"exp": 2000000000 }"#,  // 27: one "=" stripped
        ])
    func padding(payload: String) throws {
        let encoded = Self.base64url(payload)
        let token = Self.token(payload: payload)
        #expect(JWTClaims.expiry(of: token) == Date(timeIntervalSince1970: 2_000_000_000), "\(encoded.count % 4)")
    }

    @Test("the payloads above do cover lengths 0, 2 and 3 mod 4")
    func paddingCoverage() {
        let lengths = [#"{"exp":2000000000}"#, #"{"exp":2000000000 }"#, #"{"exp": 2000000000 }"#]
            .map { Self.base64url($0).count % 4 }
        #expect(lengths == [0, 2, 3])
    }

    @Test(
        "payloads whose base64url uses - and _ decode",
        arguments: [#"{"exp":2000000000,"sub":"???"}"#, #"{"exp":2000000000,"sub":"?>?"}"#])
    func urlAlphabet(payload: String) throws {
        let encoded = Self.base64url(payload)
        try #require(encoded.contains("-") || encoded.contains("_"))
        #expect(JWTClaims.expiry(of: Self.token(payload: payload)) == Date(timeIntervalSince1970: 2_000_000_000))
    }

    @Test("a fractional exp keeps its fraction, and other claims are ignored")
    func fractional() {
        let token = Self.token(payload: #"{"sub":"ana","exp":1700000000.5,"iat":1600000000}"#)
        #expect(JWTClaims.expiry(of: token) == Date(timeIntervalSince1970: 1_700_000_000.5))
    }

    @Test(
        "tokens that are not JWTs with a numeric exp have no expiry",
        arguments: [
            "", "opaque-access-token", "a.b", "a.b.c.d", "...", "x.!!!!.y",
            token(payload: #"{"sub": "ana"}"#),
            token(payload: #"{"exp": "2000000000"}"#),
            token(payload: #"{"exp": null}"#),
            token(payload: #"{"exp": true}"#),
            token(payload: "[2000000000]"),
            token(payload: "not json"),
            base64url(#"{"alg":"none"}"#) + "." + base64url(#"{"exp": 2000000000}"#),
        ])
    func noExpiry(token: String) {
        #expect(JWTClaims.expiry(of: token) == nil)
    }
}
