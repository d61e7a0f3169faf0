import FoundationEssentials

/// A login to post: the account, and how and where, as the login coordinator decided. The password and client
/// secret travel beside it, never inside a value that lives longer.
package struct LoginAttempt: Sendable, Hashable {
    package var server: ServerURL
    /// The account as the person named it; `nil` for a browser login that learns it from whoever signs in.
    package var name: AccountName?
    package var serverDescription: ServerDescription
    /// The app id, for a server whose login sends one.
    package var appID: String

    package init(server: ServerURL, name: AccountName?, serverDescription: ServerDescription, appID: String) {
        self.server = server
        self.name = name
        self.serverDescription = serverDescription
        self.appID = appID
    }

    /// The account a password login sends, which the person always names.
    package var accountName: AccountName {
        guard let name else { preconditionFailure("a password login names its account") }
        return name
    }
}

/// A refresh to send: what renews the session, and where.
package struct RefreshRequest: Sendable, Hashable, Redacting {
    package var server: ServerURL
    package var serverDescription: ServerDescription
    package var renewal: Renewal
    package var appID: String
    package var client: ClientProof
    /// What the session's earlier answers yielded, for the refresh's template.
    package var outputs: [String: String]
    /// What the session's tokens are bound to: a bound session's refresh is proven as its every request is.
    package var binding: SessionBinding

    package init(
        server: ServerURL, serverDescription: ServerDescription, renewal: Renewal, appID: String, client: ClientProof,
        outputs: [String: String] = [:], binding: SessionBinding = SessionBinding()
    ) {
        self.server = server
        self.serverDescription = serverDescription
        self.renewal = renewal
        self.appID = appID
        self.client = client
        self.outputs = outputs
        self.binding = binding
    }
}

/// What renews a session.
package enum Renewal: Sendable, Hashable {
    /// The refresh token, spent (RFC 6749 §6).
    case refreshToken(String)
    /// A client that signed in as itself asks again with its own proof (RFC 6749 §4.4): there is no refresh token.
    case clientCredentials
}

/// A profile request to send: with which token, and where.
package struct ProfileRequest: Sendable, Hashable, Redacting {
    package var server: ServerURL
    package var serverDescription: ServerDescription
    package var accessToken: String
    /// The client id of a client's own session, whose profile is what its token says of it: there is no person.
    package var client: String?
    /// What the session's earlier answers yielded, for the profile's template: the login's user id.
    package var outputs: [String: String]
    /// What the token is bound to.
    package var binding: SessionBinding

    package init(
        server: ServerURL, serverDescription: ServerDescription, accessToken: String, client: String? = nil,
        outputs: [String: String] = [:], binding: SessionBinding = SessionBinding()
    ) {
        self.server = server
        self.serverDescription = serverDescription
        self.accessToken = accessToken
        self.client = client
        self.outputs = outputs
        self.binding = binding
    }
}

/// A session to end on its server, with the tokens that name it.
package struct Revocation: Sendable, Hashable, Redacting {
    package var server: ServerURL
    package var serverDescription: ServerDescription
    package var credentials: Credentials
    /// What the session's earlier answers yielded, for the revocation's templates.
    package var outputs: [String: String]
    /// What the tokens are bound to.
    package var binding: SessionBinding

    package init(
        server: ServerURL, serverDescription: ServerDescription, credentials: Credentials,
        outputs: [String: String] = [:], binding: SessionBinding = SessionBinding()
    ) {
        self.server = server
        self.serverDescription = serverDescription
        self.credentials = credentials
        self.outputs = outputs
        self.binding = binding
    }
}

/// A device authorization answer (RFC 8628 §3.2): the code the person types, where, and how the device polls.
package struct DeviceAuthorization: Sendable, Hashable, Redacting {
    package var deviceCode: String
    package var userCode: String
    package var verificationURI: URL
    /// The verification URI with the user code in it, when the server gives one.
    package var verificationURIComplete: URL?
    /// The wait between polls the server asked for; 5 seconds when it named none (§3.2).
    package var interval: Duration
    package var expiresIn: Duration

    package init(
        deviceCode: String, userCode: String, verificationURI: URL, verificationURIComplete: URL? = nil,
        interval: Duration?, expiresIn: Duration
    ) {
        self.deviceCode = deviceCode
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
        self.interval = interval ?? .seconds(5)
        self.expiresIn = expiresIn
    }
}

/// What a poll of the token endpoint for a device code answered (RFC 8628 §3.5).
package enum DevicePoll: Sendable, Hashable {
    case granted(TokenGrant)
    /// `authorization_pending`: the person has not finished yet.
    case pending
    /// `slow_down`: poll less often.
    case slowDown
    /// `access_denied`: the person refused.
    case denied
    /// `expired_token`: the code expired before the person finished.
    case expired
}
