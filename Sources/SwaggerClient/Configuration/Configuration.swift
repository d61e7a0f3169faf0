import FoundationEssentials

/// Settings that come from the environment: where files live, which keystore to use, timeouts and defaults.
///
/// Command-line flags win over the environment, and the environment wins over what was saved at login.
/// ``Configuration`` holds the environment's part and applies that order in ``server(flag:records:)`` and
/// ``appID(flag:saved:)``.
public struct Configuration: Sendable {
    /// The server used when nothing else names one: the demo server's default address.
    public static let defaultServer = "http://127.0.0.1:8080/api"
    /// The app id used when nothing else names one.
    public static let defaultAppID = "swaggerctl-demo"
    /// How long a request may take when `SWAGGERCTL_TIMEOUT` does not say.
    public static let defaultTimeout: Duration = .seconds(10)

    /// The configuration folder.
    public var directory: URL
    /// The folder for saved profiles: `SWAGGERCTL_CACHE_DIR`, else `$XDG_CACHE_HOME/swaggerctl`, else
    /// `~/.cache/swaggerctl`; `nil` when none of them is set, and then no profile is saved.
    public var cacheDirectory: URL?
    /// `SWAGGERCTL_TOKEN`, if set: the access token that `details` and `token` use instead of the stored
    /// session, as `GH_TOKEN` is for `gh`.
    public var environmentToken: String?
    /// Which keystore to use: `--keyring`, else `SWAGGERCTL_KEYRING`, else ``KeystoreChoice/auto``.
    public var keystore: KeystoreChoice
    /// The limit on each keyring operation: `SWAGGERCTL_KEYRING_TIMEOUT`, else
    /// ``SecretServiceKeystore/defaultTimeout``.
    public var keyringTimeout: Duration
    /// The D-Bus session bus, from ``SessionBus/address(in:)``; `nil` when there is none.
    public var sessionBusAddress: String?
    /// The limit on each HTTP request, from connecting to the last byte.
    public var timeout: Duration
    /// The HTTP proxies, from `https_proxy`, `http_proxy` and `no_proxy` and their upper-case forms.
    public var proxies: ProxySettings
    /// The certificate authorities trusted for `https://`.
    public var trust: TrustSettings
    /// Whether credentials may go over plain `http://` to a host that is not this machine:
    /// `SWAGGERCTL_ALLOW_HTTP=1`, or `login --allow-http`.
    public var allowsPlainHTTP: Bool
    /// Whether each request and response is described: `SWAGGERCTL_DEBUG=1`, or `--verbose`.
    public var verbose: Bool
    /// `SWAGGERCTL_SERVER`, if set.
    public var serverFromEnvironment: String?
    /// `SWAGGERCTL_APP_ID`, if set.
    public var appIDFromEnvironment: String?

    /// Reads the configuration from environment variables.
    /// - Parameters:
    ///   - environment: The process environment.
    ///   - keyring: The `--keyring` value, if given; it wins over `SWAGGERCTL_KEYRING`.
    ///   - caCertificate: The `--ca-cert` value, if given; it wins over `SWAGGERCTL_CA_CERT`.
    /// - Throws: ``SwaggerError`` with code ``SwaggerError/Code/usage`` for a value that makes no sense.
    public init(environment: [String: String], keyring: KeystoreChoice? = nil, caCertificate: String? = nil)
        throws(SwaggerError)
    {
        func value(_ name: String) -> String? {
            guard let value = environment[name], !value.isEmpty else { return nil }
            return value
        }
        /// `explicit`, else `$xdg/swaggerctl` when absolute, else `~/fallback`: the XDG Base Directory rules.
        func folder(_ explicit: String, xdg: String, fallback: String) -> URL? {
            if let explicit = value(explicit) { return URL(filePath: explicit, directoryHint: .isDirectory) }
            if let base = value(xdg), base.hasPrefix("/") {
                return URL(filePath: base, directoryHint: .isDirectory).appending(path: "swaggerctl")
            }
            return value("HOME").map { URL(filePath: $0, directoryHint: .isDirectory).appending(path: fallback) }
        }
        guard let directory = folder("SWAGGERCTL_CONFIG_DIR", xdg: "XDG_CONFIG_HOME", fallback: ".config/swaggerctl")
        else {
            throw SwaggerError(.usage, "Neither HOME nor SWAGGERCTL_CONFIG_DIR is set. Set one of them.")
        }
        self.directory = directory
        cacheDirectory = folder("SWAGGERCTL_CACHE_DIR", xdg: "XDG_CACHE_HOME", fallback: ".cache/swaggerctl")
        environmentToken = value("SWAGGERCTL_TOKEN")
        if let environmentToken, !Credentials.isToken(environmentToken) {
            throw SwaggerError(
                .usage, "SWAGGERCTL_TOKEN is not a token: it may hold only visible ASCII characters, with no spaces.")
        }
        if let keyring {
            keystore = keyring
        } else {
            keystore = try KeystoreChoice(parsing: value("SWAGGERCTL_KEYRING") ?? KeystoreChoice.auto.rawValue)
        }
        timeout =
            try Self.seconds(value("SWAGGERCTL_TIMEOUT"), name: "SWAGGERCTL_TIMEOUT", example: "10")
            ?? Self.defaultTimeout
        keyringTimeout =
            try Self.seconds(value("SWAGGERCTL_KEYRING_TIMEOUT"), name: "SWAGGERCTL_KEYRING_TIMEOUT", example: "3")
            ?? SecretServiceKeystore.defaultTimeout
        sessionBusAddress = SessionBus.address(in: environment)
        proxies = try ProxySettings(environment: environment)
        trust = try TrustSettings(environment: environment, caCertificate: caCertificate)
        allowsPlainHTTP = try Self.flag(value("SWAGGERCTL_ALLOW_HTTP"), name: "SWAGGERCTL_ALLOW_HTTP")
        verbose = try Self.flag(value("SWAGGERCTL_DEBUG"), name: "SWAGGERCTL_DEBUG")
        serverFromEnvironment = value("SWAGGERCTL_SERVER")
        appIDFromEnvironment = value("SWAGGERCTL_APP_ID")
    }

    /// A yes-or-no variable: `1`, `true` or `yes` turn it on; unset, `0`, `false` or `no` leave it off.
    private static func flag(_ text: String?, name: String) throws(SwaggerError) -> Bool {
        switch text?.lowercased() {
        case nil, "0", "false", "no": return false
        case "1", "true", "yes": return true
        case let other?: throw SwaggerError(.usage, "\(name) must be 1 or 0; got \"\(other)\".")
        }
    }

    /// A duration given in seconds by an environment variable, or `nil` when the variable is unset.
    private static func seconds(_ text: String?, name: String, example: String) throws(SwaggerError) -> Duration? {
        guard let text else { return nil }
        guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
            throw SwaggerError(.usage, "\(name) must be a number of seconds, such as \(example); got \"\(text)\".")
        }
        return .seconds(seconds)
    }

    /// The server to talk to: `--server`, else `SWAGGERCTL_SERVER`, else the default server (the one last logged in to or switched to), else
    /// ``defaultServer``.
    /// - Parameters:
    ///   - flag: The `--server` value, if given.
    ///   - records: The stored sessions, most recently active first; the first names the default server.
    /// - Returns: The normalised server URL.
    /// - Throws: ``SwaggerError`` for a malformed URL.
    public func server(flag: String?, records: [SessionRecord]) throws(SwaggerError) -> ServerURL {
        if let flag { return try ServerURL(flag) }
        if let serverFromEnvironment { return try ServerURL(serverFromEnvironment) }
        if let last = records.first { return try ServerURL(last.server) }
        return try ServerURL(Self.defaultServer)
    }

    /// The app id to log in with: `--app-id`, else `SWAGGERCTL_APP_ID`, else the value saved at the last login
    /// to this server, else ``defaultAppID``.
    /// - Parameters:
    ///   - flag: The `--app-id` value, if given.
    ///   - saved: The app id saved with an earlier session on this server.
    /// - Returns: The app id.
    public func appID(flag: String?, saved: String?) -> String {
        flag ?? appIDFromEnvironment ?? saved ?? Self.defaultAppID
    }
}

/// Which keystore backend to use: `SWAGGERCTL_KEYRING` or `--keyring`.
public enum KeystoreChoice: String, Sendable, Hashable, CaseIterable {
    /// The Secret Service when it answers in time, else the private file, with a warning that says why.
    case auto
    /// The Secret Service, never the file: when the keyring cannot be used, the command fails.
    case secretService = "secret-service"
    /// The private file, always; D-Bus is never touched.
    case file

    /// Parses a backend name.
    /// - Parameter text: `auto`, `secret-service` or `file`.
    /// - Throws: ``SwaggerError`` with code ``SwaggerError/Code/usage`` for any other value.
    public init(parsing text: String) throws(SwaggerError) {
        guard let choice = KeystoreChoice(rawValue: text.lowercased()) else {
            let names = Self.allCases.map(\.rawValue).joined(separator: ", ")
            throw SwaggerError(.usage, "Unknown keyring \"\(text)\"; use one of: \(names).")
        }
        self = choice
    }
}
