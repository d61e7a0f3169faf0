import FoundationEssentials
import NIOHTTP1
import SwaggerModel

/// The grants a person completes in a browser: the device authorization grant's two requests (RFC 8628), the
/// code, and a poll of the token endpoint; and the authorization code's exchange (RFC 6749 §4.1.3, with PKCE's
/// verifier, RFC 7636 §4.5).
extension APIService {
    /// Exchanges the code that the browser's redirect brought for tokens.
    /// - Throws: ``APIServiceError``; a refused code is ``APIServiceError/badCredentials(status:message:)``.
    package func exchangeCode(
        _ description: ServerDescription, code: String, verifier: String, redirectURI: URL, clientSecret: String?,
        server: ServerURL
    ) async throws(APIServiceError) -> TokenGrant {
        let fields = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI.absoluteString),
            ("code_verifier", verifier),
        ]
        return try await DescribedAPI(description: description).grant(
            fields, scope: false, client: ClientProof(secret: clientSecret), operation: .login,
            secrets: [code, verifier], server: server, through: self)
    }

    /// Asks the description's device authorization endpoint for a code (§3.1), with the client's id and scope.
    /// - Throws: ``APIServiceError``; an answer without a usable code, or whose text could not be shown safely, is
    ///   ``APIServiceError/contractViolation(_:)``.
    package func deviceAuthorization(_ description: ServerDescription, clientSecret: String?, server: ServerURL)
        async throws(APIServiceError) -> DeviceAuthorization
    {
        guard let url = description.deviceAuthorizationURL else {
            throw .contractViolation("the server names no device authorization endpoint")
        }
        let form = try Self.clientForm(
            description, ClientProof(secret: clientSecret), to: url, fields: [], scope: true)
        let response = try await send(
            OutgoingRequest(.POST, url, headers: form.headers, body: form.body, secrets: [clientSecret], server: server)
        )
        try requireSuccess(response, .login)
        return try reading { () throws(APIServiceError) in
            try Self.deviceAuthorization(response.body, at: url)
        }
    }

    /// Polls the token endpoint once with the device code (§3.4).
    /// - Returns: The tokens, or what the server said of the person's progress.
    /// - Throws: ``APIServiceError`` for any other answer.
    package func pollDeviceToken(
        _ description: ServerDescription, deviceCode: String, clientSecret: String?, server: ServerURL
    ) async throws(APIServiceError) -> DevicePoll {
        let client = ClientProof(secret: clientSecret)
        let url = try DescribedAPI(description: description).tokenEndpoint(for: client)
        let form = try Self.clientForm(
            description, client, to: url,
            fields: [("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("device_code", deviceCode)],
            scope: false)
        let response = try await send(
            OutgoingRequest(
                .POST, url, headers: form.headers, body: form.body, secrets: [deviceCode, clientSecret],
                yields: description.login.yields, server: server))
        if response.status == 400 || response.status == 401 {
            switch Self.oauth2Error(json: response.body) {
            case "authorization_pending": return .pending
            case "slow_down": return .slowDown
            case "access_denied": return .denied
            case "expired_token": return .expired
            default: break
            }
        }
        try requireSuccess(response, .login)
        return .granted(
            try reading { () throws(APIServiceError) in
                try TokenAnswer.grant(
                    from: response, yields: description.login.yields, operation: "login", bound: proofKey != nil)
            })
    }

    /// Reads §3.2's answer. The user code and the URIs are shown on the terminal, so they are held to what they
    /// can be: a short code of visible characters, and http or https URLs.
    static func deviceAuthorization(_ body: Data?, at url: URL) throws(APIServiceError) -> DeviceAuthorization {
        guard let body, case .object(let answer)? = JSONValue(parsing: body) else {
            throw .contractViolation("the device authorization answer is not a JSON object")
        }
        func text(_ name: String) -> String? {
            if case .string(let value)? = answer[name], !value.isEmpty { value } else { nil }
        }
        func seconds(_ name: String) -> Duration? {
            switch answer[name] {
            case .integer(let value) where value > 0: .seconds(value)
            case .string(let value): Int64(value).flatMap { $0 > 0 ? .seconds($0) : nil }
            default: nil
            }
        }
        func address(_ text: String?) -> URL? {
            guard let text, let found = URL(string: text, relativeTo: url)?.absoluteURL,
                let scheme = found.scheme?.lowercased(), scheme == "http" || scheme == "https", found.host != nil,
                // `http://127.0.0.1:P@host/` shows one host and opens another.
                found.user == nil, found.password == nil
            else { return nil }
            return found
        }
        guard let deviceCode = text("device_code"), Credentials.isToken(deviceCode),
            let userCode = text("user_code"), userCode.count <= 64,
            userCode.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) || $0 == " " }),
            userCode.contains(where: { $0 != " " }),
            // Google's endpoint said verification_url before the RFC named it.
            let verification = address(text("verification_uri") ?? text("verification_url")),
            let expiresIn = seconds("expires_in")
        else {
            throw .contractViolation(
                "the device authorization answer lacks a usable device_code, user_code, verification_uri or "
                    + "expires_in")
        }
        return DeviceAuthorization(
            deviceCode: deviceCode, userCode: userCode, verificationURI: verification,
            verificationURIComplete: address(text("verification_uri_complete")), interval: seconds("interval"),
            expiresIn: expiresIn)
    }
}
