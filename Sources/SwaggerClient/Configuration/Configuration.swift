import FoundationEssentials
import SessionMachine
import SessionStorage
import SwaggerHTTP
import SwaggerModel

/// Settings that come from the environment: where files live, which backend holds tokens, timeouts and defaults.
///
/// Command-line flags win over the environment, and the environment wins over what was saved at login.
/// ``Configuration`` holds the environment's part and applies that order in ``server(flag:current:entries:)``; the login
/// coordinator applies it to the app id.
package struct Configuration: Sendable {
    /// How long a request may take when `SWAGGERCTL_TIMEOUT` does not say.
    package static let defaultTimeout: Duration = .seconds(10)

    /// The configuration folder.
    package var directory: URL
    /// The folder for saved profiles: `SWAGGERCTL_CACHE_DIR`, else `$XDG_CACHE_HOME/swaggerctl`, else
    /// `~/.cache/swaggerctl`; `nil` when none of them is set, and then no profile is saved.
    package var cacheDirectory: URL?
    /// `SWAGGERCTL_TOKEN`, if set: the access token that `details` and `token` use instead of the stored
    /// session, as `GH_TOKEN` is for `gh`.
    package var environmentToken: String?
    /// Where tokens may go: `--keyring`, else `SWAGGERCTL_KEYRING`, else `BackendChoice.auto`.
    var backendChoice: BackendChoice
    /// The limit on each keyring operation: `SWAGGERCTL_KEYRING_TIMEOUT`, else
    /// `KeyringBackend.defaultTimeout`.
    package var keyringTimeout: Duration
    /// The D-Bus session bus, from `SessionBus.address(in:)`; `nil` when there is none.
    var sessionBusAddress: String?
    /// The limit on each HTTP request, from connecting to the last byte.
    package var timeout: Duration
    /// The HTTP proxies, from `https_proxy`, `http_proxy` and `no_proxy` and their upper-case forms.
    package var proxies: ProxySettings
    /// The certificate authorities trusted for `https://`.
    package var trust: TrustSettings
    /// Whether credentials may go over plain `http://` to a host that is not this machine, or through a proxy:
    /// `SWAGGERCTL_ALLOW_HTTP=1`, or `login --allow-http`.
    package var allowsPlainHTTP: Bool
    /// The plain-HTTP rule that follows from ``allowsPlainHTTP`` and ``proxies``.
    package var plainHTTP: PlainHTTP { PlainHTTP(allowed: allowsPlainHTTP, proxies: proxies) }
    /// Whether each request and response is described: `SWAGGERCTL_DEBUG=1`, or `--verbose`.
    package var verbose: Bool
    /// `SWAGGERCTL_SERVER`, if set, parsed: a URL or a server's name. A malformed one is an error only for a command
    /// that needs a server.
    var serverFromEnvironment: Result<ServerReference, SwaggerError>?
    /// `SWAGGERCTL_APP_ID`, if set.
    package var appIDFromEnvironment: String?

    /// Reads the configuration from environment variables.
    ///
    /// `keyring` is the `--keyring` value, if given, and wins over `SWAGGERCTL_KEYRING`; `caCertificate` is the
    /// `--ca-cert` value, if given, and wins over `SWAGGERCTL_CA_CERT`.
    /// - Throws: `SwaggerError` with code `usage` for a value that makes no sense.
    package init(environment: [String: String], keyring: BackendChoice? = nil, caCertificate: String? = nil)
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
        // Checked where it is used, so that a malformed one never stands in the way of a command that does not.
        environmentToken = value("SWAGGERCTL_TOKEN")
        if let keyring {
            backendChoice = keyring
        } else {
            backendChoice = try BackendChoice(parsing: value("SWAGGERCTL_KEYRING") ?? BackendChoice.auto.rawValue)
        }
        timeout =
            try Duration.seconds(of: "SWAGGERCTL_TIMEOUT", value("SWAGGERCTL_TIMEOUT"), example: "10")
            ?? Self.defaultTimeout
        keyringTimeout =
            try Duration.seconds(of: "SWAGGERCTL_KEYRING_TIMEOUT", value("SWAGGERCTL_KEYRING_TIMEOUT"), example: "3")
            ?? KeyringBackend.defaultTimeout
        // Read where every lock is taken (`PrivateDirectory`), by the same rule; checked here, so that a wrong one
        // stops every command before it starts, as a wrong SWAGGERCTL_TIMEOUT does.
        _ = try Duration.seconds(
            of: PrivateDirectory.lockTimeoutVariable, value(PrivateDirectory.lockTimeoutVariable), example: "60")
        sessionBusAddress = SessionBus.address(in: environment)
        proxies = try ProxySettings(environment: environment)
        trust = try TrustSettings(environment: environment, caCertificate: caCertificate)
        allowsPlainHTTP = try Self.flag(value("SWAGGERCTL_ALLOW_HTTP"), name: "SWAGGERCTL_ALLOW_HTTP")
        verbose = try Self.flag(value("SWAGGERCTL_DEBUG"), name: "SWAGGERCTL_DEBUG")
        serverFromEnvironment = value("SWAGGERCTL_SERVER").map { text in
            Result { () throws(SwaggerError) in try ServerReference(text) }
        }
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

    /// The server to talk to: `--server` (`flag`), else `SWAGGERCTL_SERVER`, else the current server (the one last
    /// logged in to or switched to, which the server registry keeps); `nil` when none of them names one. There is no
    /// address of last resort: a command never talks to a server nobody named.
    ///
    /// This is where a server's name becomes its URL, by the names of the registry's `entries`.
    package func server(flag: ServerReference?, current: ServerURL?, entries: [ServerEntry]) throws(SwaggerError)
        -> ServerURL?
    {
        if let flag { return try flag.resolved(among: entries) }
        if let serverFromEnvironment { return try serverFromEnvironment.get().resolved(among: entries) }
        return current
    }

    /// The token store that the configuration asks for, whose keyring calls wait for their deadline with `sleep`.
    func tokenStore(
        warn: @escaping @Sendable (String) -> Void, sleep: @escaping @Sendable (Duration) async throws -> Void
    ) -> TokenStore {
        TokenStore(
            choice: backendChoice, directory: directory, keyringTimeout: keyringTimeout, busAddress: sessionBusAddress,
            warn: warn, sleep: sleep)
    }
}
