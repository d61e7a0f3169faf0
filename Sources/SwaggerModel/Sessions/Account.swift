/// One account on one server: the key under which a session is stored.
package struct Account: Sendable, Hashable, Codable {
    package var server: ServerURL
    /// The name the account signs in with there: an e-mail, a user name, or, for a sign-in in the browser, who the
    /// ID token or the profile says signed in.
    package var name: String

    package init(server: ServerURL, name: String) {
        self.server = server
        self.name = name
    }

    // The files have always called the name "email".
    private enum CodingKeys: String, CodingKey {
        case server
        case name = "email"
    }
}
