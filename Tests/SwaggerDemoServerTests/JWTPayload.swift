import Foundation

/// The unverified payload of a JWT, read the way a client reads it: split on dots, base64url-decode the middle.
struct JWTPayload {
    /// The payload's JSON text.
    let json: String
    /// The `sub` claim.
    let subject: String?

    /// The number claim `name` exactly as written in the JSON, such as `"1700000000"`.
    func numberLiteral(_ name: String) -> String? {
        let pattern = try? Regex<(Substring, Substring)>(#""\#(name)"\s*:\s*(-?[0-9][0-9.eE+\-]*)"#)
        return pattern.flatMap { json.firstMatch(of: $0) }.map { String($0.1) }
    }

    /// The number claim `name` as a `Double`.
    func number(_ name: String) -> Double? { numberLiteral(name).flatMap(Double.init) }

    init(token: String) throws {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw TestFailure("a JWT has 3 dot-separated parts, this token has \(parts.count): \(token)")
        }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else {
            throw TestFailure("the payload is not base64url: \(parts[1])")
        }
        json = String(decoding: data, as: UTF8.self)
        subject = try JSONDecoder().decode(Subject.self, from: data).sub
    }

    private struct Subject: Decodable {
        var sub: String?
    }
}
