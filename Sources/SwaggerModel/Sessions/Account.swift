/// One person's login name on one server: the key under which a session is stored.
package struct Account: Sendable, Hashable, Codable {
    package var server: ServerURL
    package var email: String

    package init(server: ServerURL, email: String) {
        self.server = server
        self.email = email
    }
}
