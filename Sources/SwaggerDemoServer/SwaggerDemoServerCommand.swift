import ArgumentParser
import DemoServer
import Foundation
import Hummingbird

@main
struct SwaggerDemoServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swagger-demo-server",
        abstract: "A demo of the account API that swaggerctl talks to, served under /api.",
        discussion: """
            Built-in account: \(AccountDirectory.demoEmail) / \(AccountDirectory.demoPassword). Prints \
            "listening on http://HOST:PORT" (https with --tls-cert) on standard output once ready, then a line with the \
            API's URL, which swaggerctl logs in to, and logs each login, refresh and revocation on standard error. Stop \
            it with Ctrl-C or SIGTERM.
            """)

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 8080

    @Option(
        help: ArgumentHelp(
            #"A JSON file of accounts to add: [{"email": …, "password": …, "profile": {…}}]."#, valueName: "file"))
    var users: String?

    @Option(name: .customLong("app-id"), help: "The app id that logins must send.")
    var appID = "swaggerctl-demo"

    @Option(
        name: [.customLong("access-token-lifetime"), .customLong("token-lifetime")],
        help: ArgumentHelp("How long access tokens last, in seconds.", valueName: "seconds"))
    var accessTokenLifetime = 900

    @Option(help: ArgumentHelp("How long each refresh token lasts, in seconds.", valueName: "seconds"))
    var refreshTokenLifetime = 30 * 86_400

    @Option(
        help: ArgumentHelp(
            "A SQLite file for accounts, the signing key and sessions, so that a restarted server still accepts "
                + "the sessions it issued. Default: everything in memory.",
            valueName: "path"))
    var database: String?

    @Option(help: ArgumentHelp("Serve HTTPS with this PEM certificate chain; needs --tls-key.", valueName: "file"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("The PEM private key of --tls-cert.", valueName: "file"))
    var tlsKey: String?

    @Option(help: "The bcrypt cost factor for password hashes (4 to 31).")
    var bcryptCost = 10

    @Flag(
        help: ArgumentHelp(
            "For tests: let POST /_test/clock?advance=SECONDS, from this machine only, move the server's clock "
                + "forward, so that tokens expire without waiting."))
    var testClock = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535.") }
        guard (4...31).contains(bcryptCost) else { throw ValidationError("--bcrypt-cost must be from 4 to 31.") }
        guard accessTokenLifetime > 0 else { throw ValidationError("--access-token-lifetime must be positive.") }
        guard refreshTokenLifetime > 0 else { throw ValidationError("--refresh-token-lifetime must be positive.") }
        guard (tlsCert == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-cert and --tls-key go together.")
        }
    }

    func run() async throws {
        let seeds = try users.map { try AccountDirectory.seeds(from: URL(filePath: $0)) } ?? []
        let store = try DemoDatabase.open(path: database)
        let directory = try await AccountDirectory.make(seeds: seeds, cost: UInt8(bcryptCost), database: store)
        var options = DemoServer.Options()
        options.host = host
        options.port = port
        options.appID = appID
        options.accessTokenLifetime = .seconds(accessTokenLifetime)
        options.refreshTokenLifetime = .seconds(refreshTokenLifetime)
        if let tlsCert, let tlsKey { options.tls = (tlsCert, tlsKey) }
        options.exposesTestClock = testClock
        let app = try await DemoServer.application(directory: directory, database: store, options: options) { url in
            // Unbuffered, so that a parent process reading a pipe sees the line at once.
            let api = "\(url)\(DemoServer.basePath)"
            FileHandle.standardOutput.write(
                Data("listening on \(url)\nthe API is at \(api): swaggerctl login -s \(api)\n".utf8))
        }
        try await app.runService()
    }
}
