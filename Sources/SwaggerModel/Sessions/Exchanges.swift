import FoundationEssentials

/// A login to post: the account, and how and where, as the login coordinator decided. The password and client
/// secret travel beside it, never inside a value that lives longer.
package struct LoginAttempt: Sendable, Hashable {
    package var account: Account
    package var serverDescription: ServerDescription
    /// The app id the original API wants.
    package var appID: String

    package init(account: Account, serverDescription: ServerDescription, appID: String) {
        self.account = account
        self.serverDescription = serverDescription
        self.appID = appID
    }
}

/// A refresh to send: the refresh token to spend, and where.
package struct RefreshRequest: Sendable, Hashable, Redacting {
    package var server: ServerURL
    package var serverDescription: ServerDescription
    package var refreshToken: String
    package var appID: String
    package var clientSecret: String?

    package init(
        server: ServerURL, serverDescription: ServerDescription, refreshToken: String, appID: String,
        clientSecret: String?
    ) {
        self.server = server
        self.serverDescription = serverDescription
        self.refreshToken = refreshToken
        self.appID = appID
        self.clientSecret = clientSecret
    }
}

/// A profile request to send: with which token, and where.
package struct ProfileRequest: Sendable, Hashable, Redacting {
    package var server: ServerURL
    package var serverDescription: ServerDescription
    package var accessToken: String

    package init(server: ServerURL, serverDescription: ServerDescription, accessToken: String) {
        self.server = server
        self.serverDescription = serverDescription
        self.accessToken = accessToken
    }
}

/// A session to end on its server, with the tokens that name it.
package struct Revocation: Sendable, Hashable, Redacting {
    package var server: ServerURL
    package var serverDescription: ServerDescription
    package var credentials: Credentials

    package init(server: ServerURL, serverDescription: ServerDescription, credentials: Credentials) {
        self.server = server
        self.serverDescription = serverDescription
        self.credentials = credentials
    }
}
