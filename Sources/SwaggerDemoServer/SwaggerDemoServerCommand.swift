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
            "listening on http://HOST:PORT" on standard output once ready. Stop it with Ctrl-C or SIGTERM.
            """)

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 8080

    @Option(
        help: ArgumentHelp(
            #"A JSON file of accounts to add: [{"email": …, "password": …, "profile": {…}}]."#, valueName: "file"))
    var users: String?

    @Option(help: "The app id that logins must send.")
    var appId = "swaggerctl-demo"

    @Option(help: "How long access tokens last, in seconds.")
    var tokenLifetime = 3600

    @Option(help: "The bcrypt cost factor for password hashes (4 to 31).")
    var bcryptCost = 10

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535.") }
        guard (4...31).contains(bcryptCost) else { throw ValidationError("--bcrypt-cost must be from 4 to 31.") }
        guard tokenLifetime > 0 else { throw ValidationError("--token-lifetime must be positive.") }
    }

    func run() async throws {
        let seeds = try users.map { try AccountDirectory.seeds(from: URL(filePath: $0)) } ?? []
        let directory = try await AccountDirectory.make(seeds: seeds, cost: UInt8(bcryptCost))
        var options = DemoServer.Options()
        options.host = host
        options.port = port
        options.appID = appId
        options.tokenLifetime = .seconds(tokenLifetime)
        let app = try await DemoServer.application(directory: directory, options: options) { url in
            // Unbuffered, so that a parent process reading a pipe sees the line at once.
            FileHandle.standardOutput.write(Data("listening on \(url)\n".utf8))
        }
        try await app.runService()
    }
}
