import FoundationEssentials
import SwaggerModel

/// What a use of a session is for: the profile, a token to print, a refresh on request, or the person's own
/// request.
///
/// ``MainCoordinator`` makes the decisions every use shares (refresh before use, the lock, rotation, ending a
/// session). Where the uses differ, it asks its purpose, and each purpose's ``Step`` says what happens next in
/// its own terms, so the owner only ever meets the steps its purpose can take.
package protocol SessionPurpose: Sendable {
    /// What the flow does next once the token question is settled.
    associatedtype Step: Sendable, Hashable

    /// The step that uses `accessToken`, ready to use and bound to `binding`, from `source`; `renewed` when it came
    /// from under the refresh lock.
    func use(_ accessToken: String, bound binding: SessionBinding, from source: TokenSource, renewed: Bool) -> Step

    /// The step for an access token that is due for a refresh that cannot happen, because the server gave no
    /// refresh token or the token is `SWAGGERCTL_TOKEN`; `nil` to fail instead.
    func unrenewable(_ accessToken: String, bound binding: SessionBinding, from source: TokenSource, now: Date)
        -> Step?

    /// The step when the server refused `record`'s token and there is no refresh token to renew it; `nil` to
    /// end the session.
    func rejectedWithoutRefreshToken(_ record: SessionRecord) -> Step?

    /// The step when a refresh could not reach the server (`error` is unreachable or a timeout); `nil` to fail.
    func unreachable(_ error: APIServiceError, _ record: SessionRecord) -> Step?

    /// Whether the use needs the server's description beyond how the token is sent (``TokenSource/tokenUse``):
    /// a profile does; `SWAGGERCTL_TOKEN` handed on, or sent with a request, does not. A stored session always
    /// does, for its renewal.
    static var needsDescription: Bool { get }
}

/// `details` and `status --check`: the profile, from the server, or as saved when the server cannot be reached.
package struct ProfilePurpose: SessionPurpose {
    package enum Step: Sendable, Hashable, Redacting {
        /// Request the profile, then send ``MainCoordinator/profileReceived(_:)`` or
        /// ``MainCoordinator/profileFailed(_:)``.
        case fetch(ProfileRequest)
        /// Read the profile saved for the account, then send ``MainCoordinator/savedProfileLoaded(_:)``.
        case loadSavedProfile(Account)
    }

    /// Whether an unreachable server is answered with the saved profile (not with `--no-cache`).
    package var allowsSavedProfile: Bool

    package init(allowsSavedProfile: Bool) {
        self.allowsSavedProfile = allowsSavedProfile
    }

    package static let needsDescription = true

    package func use(_ accessToken: String, bound binding: SessionBinding, from source: TokenSource, renewed: Bool)
        -> Step
    {
        guard let description = source.serverDescription else {
            preconditionFailure("MainCoordinator starts no profile without a description")
        }
        return .fetch(
            ProfileRequest(
                server: source.server, serverDescription: description, accessToken: accessToken,
                client: source.client, outputs: source.outputs, binding: binding))
    }

    /// The expiry is only what the token says; the server decides.
    package func unrenewable(_ accessToken: String, bound binding: SessionBinding, from source: TokenSource, now: Date)
        -> Step?
    {
        use(accessToken, bound: binding, from: source, renewed: false)
    }

    package func rejectedWithoutRefreshToken(_ record: SessionRecord) -> Step? { nil }

    package func unreachable(_ error: APIServiceError, _ record: SessionRecord) -> Step? {
        allowsSavedProfile ? .loadSavedProfile(record.account) : nil
    }
}

/// `token`, `exec` and `git-credential`: an access token that has not expired, for another program to use.
package struct TokenPurpose: SessionPurpose {
    package static let needsDescription = false

    package init() {}

    package func use(_ accessToken: String, bound binding: SessionBinding, from source: TokenSource, renewed: Bool)
        -> UsableToken
    {
        UsableToken(accessToken, from: source)
    }

    /// A token that is due and cannot be renewed is never handed out: a script would send it to be refused.
    package func unrenewable(_ accessToken: String, bound binding: SessionBinding, from source: TokenSource, now: Date)
        -> UsableToken?
    { nil }

    package func rejectedWithoutRefreshToken(_ record: SessionRecord) -> UsableToken? { nil }

    package func unreachable(_ error: APIServiceError, _ record: SessionRecord) -> UsableToken? { nil }
}

/// An access token handed to another program, with what that program needs to send it: where it goes, in
/// which header, and until when it is good.
package struct UsableToken: Sendable, Hashable, Redacting {
    package var value: String
    package var server: ServerURL
    /// The header the server takes it in, and the scheme before it (`Bearer`, `Token`), if any.
    package var use: TokenUse
    /// The stored session's account; `nil` for `SWAGGERCTL_TOKEN`.
    package var account: String?
    /// The stored expiry, or the JWT's `exp` of `SWAGGERCTL_TOKEN`; `nil` when neither says.
    package var expiresAt: Date?
    /// The thumbprint of the DPoP key the token is bound to: alone, without a proof signed with that key, it is of no
    /// use. `nil` for a bearer token.
    package var boundTo: String?

    /// What a person who hands the token on should know of it, for `token` and `exec`: that it needs proofs, or
    /// that it is the password.
    package var notice: String? {
        if boundTo != nil { return ProofBinding.tokenNotice }
        return use.basicCredentials(in: value) == nil ? nil : TokenUse.basicNotice
    }

    package init(_ value: String, from source: TokenSource) {
        self.value = value
        server = source.server
        use = source.tokenUse
        switch source {
        case .stored(let record):
            account = record.name
            expiresAt = record.expiresAt
            boundTo = record.proofKey
            // RFC 9449 §7.1: a bound token goes under the DPoP scheme.
            if boundTo != nil, use.header.lowercased() == "authorization" {
                use = TokenUse(header: use.header, scheme: "DPoP")
            }
        case .environment:
            account = nil
            expiresAt = JWTClaims.times(of: value).expiresAt
        }
    }

    /// The header's value: `Bearer <token>`, or the token alone for a header without a scheme.
    package var headerValue: String { use.value(value) }
}

/// `refresh`: renew the stored session now, whatever its access token's expiry.
package struct RefreshPurpose: SessionPurpose {
    package static let needsDescription = true

    package enum Step: Sendable, Hashable {
        /// The tokens were renewed; the record holds the new expiry.
        case renewed(SessionRecord)
        /// The server gave no refresh token, and the access token is still good until the record's expiry.
        case notRenewable(SessionRecord)
    }

    package init() {}

    package func use(_ accessToken: String, bound binding: SessionBinding, from source: TokenSource, renewed: Bool)
        -> Step
    {
        guard case .stored(let record) = source else { preconditionFailure("refresh is for a stored session") }
        return renewed ? .renewed(record) : .notRenewable(record)
    }

    /// Without a refresh token there is nothing to renew; that is no failure while the access token is still
    /// good.
    package func unrenewable(_ accessToken: String, bound binding: SessionBinding, from source: TokenSource, now: Date)
        -> Step?
    {
        guard case .stored(let record) = source, !Expiry.hasExpired(record.expiresAt, now: now) else { return nil }
        return .notRenewable(record)
    }

    package func rejectedWithoutRefreshToken(_ record: SessionRecord) -> Step? { nil }

    package func unreachable(_ error: APIServiceError, _ record: SessionRecord) -> Step? { nil }
}

/// `api`: the person's own requests, one, or one for each page.
package struct RequestPurpose: SessionPurpose {
    package enum Step: Sendable, Hashable, Redacting {
        /// Send the request with this token, then send ``MainCoordinator/responseReceived(status:)`` or
        /// ``MainCoordinator/requestFailed(_:)``.
        case send(accessToken: String, binding: SessionBinding = SessionBinding())
        /// The response that was just refused is the answer; the session is kept.
        case keepAnswer
    }

    package static let needsDescription = false

    package init() {}

    package func use(_ accessToken: String, bound binding: SessionBinding, from source: TokenSource, renewed: Bool)
        -> Step
    {
        .send(accessToken: accessToken, binding: binding)
    }

    /// The expiry is only what the token says; the server decides.
    package func unrenewable(_ accessToken: String, bound binding: SessionBinding, from source: TokenSource, now: Date)
        -> Step?
    {
        .send(accessToken: accessToken, binding: binding)
    }

    /// One endpoint refusing a token says nothing about the session: the refusal is shown as it is.
    package func rejectedWithoutRefreshToken(_ record: SessionRecord) -> Step? { .keepAnswer }

    package func unreachable(_ error: APIServiceError, _ record: SessionRecord) -> Step? { nil }
}
