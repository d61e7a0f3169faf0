/// Where a session's tokens are kept.
///
/// A keystore holds only secrets, keyed by ``Account``. What swaggerctl knows about a session besides its
/// secrets (when it was saved, which app id it used, which keystore holds it) lives in the
/// ``SessionIndex``, so that listing sessions never has to unlock anything.
///
/// Each backend throws its own error type: ``SwaggerError`` for ``FileKeystore``, ``SecretServiceError`` for
/// ``SecretServiceKeystore``, so that ``TokenStore`` can tell why a keyring failed and fall back.
public protocol Keystore: Sendable {
    /// What the backend's operations throw.
    associatedtype Failure: Error

    /// Which backend this is, as recorded in the session index and shown by `swaggerctl status`.
    var kind: KeystoreKind { get }

    /// A short, human description of where the secrets are, such as a file path.
    var location: String { get }

    /// Stores `credentials` for `account`, replacing any stored before.
    /// - Parameters:
    ///   - credentials: The tokens to keep.
    ///   - account: The server and e-mail they belong to.
    /// - Throws: ``Failure`` when the store cannot be written.
    func store(_ credentials: Credentials, for account: Account) async throws(Failure)

    /// The credentials stored for `account`.
    /// - Parameter account: The server and e-mail to look up.
    /// - Returns: The credentials, or `nil` when none are stored.
    /// - Throws: ``Failure`` when the store cannot be read.
    func credentials(for account: Account) async throws(Failure) -> Credentials?

    /// The access token stored for `account`, without its refresh token: what a request with a fresh token
    /// needs, read in one round trip.
    /// - Parameter account: The server and e-mail to look up.
    /// - Returns: The access token, or `nil` when none is stored.
    /// - Throws: ``Failure`` when the store cannot be read.
    func accessToken(for account: Account) async throws(Failure) -> String?

    /// Removes the credentials stored for `account`.
    /// - Parameter account: The server and e-mail whose credentials to remove.
    /// - Returns: `true` when something was removed, `false` when nothing was stored.
    /// - Throws: ``Failure`` when credentials exist but could not be removed.
    func removeCredentials(for account: Account) async throws(Failure) -> Bool
}

/// The backends that can hold a session's tokens.
public enum KeystoreKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A private file in the configuration folder: ``FileKeystore``.
    case file
    /// The desktop keyring, through the Secret Service: ``SecretServiceKeystore``.
    case secretService = "secret-service"
}

/// One person's login on one server: the key under which a session is stored.
public struct Account: Sendable, Hashable, Codable {
    /// The API's base URL, as normalised by ``ServerURL``.
    public var server: String
    /// The e-mail the person logged in with.
    public var email: String

    /// Creates an account key.
    /// - Parameters:
    ///   - server: The API's base URL.
    ///   - email: The e-mail used to log in.
    public init(server: String, email: String) {
        self.server = server
        self.email = email
    }
}

/// A value that holds a token: its descriptions and its mirror show only its type's name, so `print`,
/// string interpolation, `dump` and a debugger never reveal the token.
public protocol Redacting: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {}

extension Redacting {
    /// `TypeName(redacted)`.
    public var description: String { "\(Self.self)(redacted)" }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// A mirror with no children.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// The secrets of a session. Its descriptions never show the tokens.
public struct Credentials: Sendable, Hashable, Codable, Redacting {
    /// The bearer token for API calls.
    public var accessToken: String
    /// The refresh token, when the server sent one.
    public var refreshToken: String?
    /// The OAuth 2 client secret the session authenticates its client with, when it has one.
    public var clientSecret: String?

    /// Creates credentials.
    /// - Parameters:
    ///   - accessToken: The bearer token for API calls.
    ///   - refreshToken: The refresh token, when the server sent one.
    ///   - clientSecret: The OAuth 2 client secret, when the client has one.
    public init(accessToken: String, refreshToken: String? = nil, clientSecret: String? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.clientSecret = clientSecret
    }

    /// Whether `text` can be a token: one or more visible ASCII characters, which is what an `Authorization`
    /// header and a shell's `$(swaggerctl token)` can carry. A "token" with a control character, a space or a
    /// line break is not one, and printing it could drive the terminal.
    public static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }
}
