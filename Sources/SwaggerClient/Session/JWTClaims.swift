import Foundation

/// Reads the expiry of an access token that is a JWT, without verifying it.
///
/// Only the server can verify a token; swaggerctl reads `exp` so that `status` can say when a session
/// ends. A token that is not a JWT simply has no known expiry.
enum JWTClaims {
    static func expiry(of token: String) -> Date? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
            let claims = try? JSONDecoder().decode([String: JSONValue].self, from: data)
        else { return nil }
        switch claims["exp"] {
        case .integer(let seconds): return Date(timeIntervalSince1970: TimeInterval(seconds))
        case .number(let seconds): return Date(timeIntervalSince1970: seconds)
        default: return nil
        }
    }
}
