import FoundationEssentials
import SwaggerModel

/// A server family as requests see it: how the login, the refresh, the revocation and the profile are sent,
/// and what their answers mean.
///
/// There are two: ``BundledAPI``, the account API this tool was generated from, whose generated client checks
/// every answer against `openapi.yaml`; and ``DescribedAPI``, every other server, whose requests its
/// ``ServerDescription`` spells out. Everything else about a server (its presets, its words in messages, its rows
/// in `status`) is the description's data, so nothing outside these files asks which family a server is.
package protocol ServerFamily: Sendable {
    /// Posts the credentials.
    /// - Throws: ``APIServiceError``; refused credentials are ``APIServiceError/badCredentials(status:message:)``.
    func login(_ attempt: LoginAttempt, password: String, clientSecret: String?, through service: APIService)
        async throws(APIServiceError) -> TokenGrant

    /// Spends the refresh token for new tokens.
    /// - Throws: ``APIServiceError``; a refused refresh token is ``APIServiceError/refreshRejected``.
    func refresh(_ request: RefreshRequest, through service: APIService) async throws(APIServiceError) -> TokenGrant

    /// Ends the session on its server.
    func revoke(_ revocation: Revocation, through service: APIService) async throws(APIServiceError)

    /// Reads the profile with the access token.
    /// - Throws: ``APIServiceError``; a refused token is ``APIServiceError/tokenRejected(challenge:)``.
    func profile(_ request: ProfileRequest, through service: APIService) async throws(APIServiceError) -> Profile
}

extension ServerDescription {
    /// The family that sends this server's requests: the one place that tells the two apart.
    package var family: any ServerFamily {
        switch contract {
        case .bundled: BundledAPI()
        case .described: DescribedAPI(description: self)
        }
    }
}
