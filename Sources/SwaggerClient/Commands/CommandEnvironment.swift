import FoundationEssentials
import SessionStorage
import SwaggerHTTP
import SwaggerModel

/// What a command's flow reads and writes besides its options, as gh's commands take a factory: the process's
/// environment, the console, the clock, the two seams under the controller (the transport and the token store),
/// and the browser.
///
/// The program passes the real ones; a test passes a recorded transport, tokens in memory and a clock of its own,
/// and runs the command as a function.
package struct CommandEnvironment: Sendable {
    /// The environment variables, which ``Configuration`` reads.
    package var variables: [String: String]
    package var console: any Console
    /// The time, for expiry and for the notices that say how old something is.
    package var now: @Sendable () -> Date
    /// What carries the requests; `nil` for the network, through AsyncHTTPClient.
    package var transport: (any HTTPTransport)?
    /// Where the tokens are kept; `nil` for the store the configuration names.
    package var tokens: (any TokenStoring)?
    /// How a wait (a keyring's deadline, a device login's poll) passes.
    package var sleep: @Sendable (Duration) async throws -> Void
    /// The browser that a browser or device login opens; `nil` where there is none.
    package var browser: (any BrowserOpener)?

    package init(
        variables: [String: String], console: any Console, now: @escaping @Sendable () -> Date = { Date() },
        transport: (any HTTPTransport)? = nil, tokens: (any TokenStoring)? = nil,
        sleep: @escaping @Sendable (Duration) async throws -> Void = CommandLoop.sleep,
        browser: (any BrowserOpener)? = nil
    ) {
        self.variables = variables
        self.console = console
        self.now = now
        self.transport = transport
        self.tokens = tokens
        self.sleep = sleep
        self.browser = browser
    }

    /// The configuration from the environment variables and the connection flags, which win over them.
    package func configuration(_ connection: ConnectionChoice = ConnectionChoice()) throws(SwaggerError)
        -> Configuration
    {
        var configuration = try Configuration(
            environment: variables, keyring: connection.keyring, caCertificate: connection.caCertificate)
        if connection.verbose { configuration.verbose = true }
        return configuration
    }

    /// Runs `body` with a controller for `configuration` over this environment's seams, its warnings and verbose
    /// lines on the console, and closes the service's connections afterwards.
    func withController<Result: Sendable>(
        _ configuration: Configuration, delegate: (any APIServiceDelegate)? = nil,
        _ body: (SessionController) async throws(SwaggerError) -> Result
    ) async throws(SwaggerError) -> Result {
        let console = console
        let warn: @Sendable (String) -> Void = { console.warning($0) }
        let log: (@Sendable (String) -> Void)? =
            configuration.verbose ? { @Sendable line in console.notice(line) } : nil
        // Under --verbose the trace is the progress: a spinner's frame would share its lines.
        let service = APIService(
            timeout: configuration.timeout, proxies: configuration.proxies, trust: configuration.trust,
            transport: transport, delegate: configuration.verbose ? nil : delegate, log: log)
        let controller = SessionController(
            configuration: configuration, tokens: tokens ?? configuration.tokenStore(warn: warn, sleep: sleep),
            service: service, now: now, warn: warn, sleep: sleep)
        do throws(SwaggerError) {
            let result = try await body(controller)
            await service.shutdown()
            return result
        } catch {
            await service.shutdown()
            throw error
        }
    }
}

/// `--keyring`, `--verbose` and `--ca-cert`: where tokens are kept and how the network is reached, which the
/// configuration takes over the environment's.
package struct ConnectionChoice: Sendable {
    package var keyring: BackendChoice?
    package var verbose: Bool
    package var caCertificate: String?

    package init(keyring: BackendChoice? = nil, verbose: Bool = false, caCertificate: String? = nil) {
        self.keyring = keyring
        self.verbose = verbose
        self.caCertificate = caCertificate
    }
}

/// `-s` and `-e` or `-u`: the server and the account a command uses; `nil` for the defaults.
package struct SessionChoice: Sendable {
    package var server: ServerReference?
    package var account: String?

    package init(server: ServerReference? = nil, account: String? = nil) {
        self.server = server
        self.account = account
    }

    /// `-s … -e …` for what names the session, for a message about what matched nothing.
    var flags: String {
        [server.map { "-s \($0)" }, account.map { "-e \($0)" }].compactMap { $0 }.joined(separator: " ")
    }
}

/// `--format`: how data is printed.
package enum OutputFormat: String, Sendable, CaseIterable {
    case table
    case json
}
