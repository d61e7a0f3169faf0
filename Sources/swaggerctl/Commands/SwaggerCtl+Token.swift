import ArgumentParser
import FoundationEssentials
import SessionMachine
import SwaggerClient
import SwaggerModel

extension TokenFormat: ExpressibleByArgument {}

extension SwaggerCtl {
    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "token",
            abstract: "Print a usable access token, and nothing else.",
            discussion: """
                An access token that has expired, or expires within 30 seconds, is refreshed first; an expired \
                token is never printed. With SWAGGERCTL_TOKEN set, that token is printed, unless it has expired.

                Formats: plain (the token), header (the server's header line, such as "Authorization: Bearer …", \
                for curl -H @-), json (token, header, scheme, expiry, server, account), exec-credential \
                (Kubernetes' ExecCredential, in the version kubectl asks for in KUBERNETES_EXEC_INFO, else v1).

                Examples:
                  swaggerctl token --format header | curl -H @- "$API/User/User"
                  TOKEN=$(swaggerctl token -e ana@example.com) || exit
                  swaggerctl token --format json | jq -r .expiry
                """)

        @OptionGroup var session: SessionOptions
        @OptionGroup var keyring: KeyringOption
        @OptionGroup var network: NetworkOptions

        @Option(help: ArgumentHelp("plain, header, json or exec-credential.", valueName: "format"))
        var format: TokenFormat = .plain

        func run() async throws {
            let token = try await session.usableToken(keyring: keyring, network: network)
            // JSON names the key and the scheme, for a program that makes its own proofs or reads the pair.
            if let notice = token.notice, format != .json { Terminal.warning(notice) }
            let execInfo = ProcessInfo.processInfo.environment["KUBERNETES_EXEC_INFO"]
            Terminal.print(try format.render(token, execInfo: execInfo))
        }
    }
}

extension SessionOptions {
    /// The access token that `token` and `exec` hand on: `SWAGGERCTL_TOKEN`'s, or the selected session's, renewed
    /// first when it is due.
    func usableToken(keyring: KeyringOption, network: NetworkOptions) async throws -> UsableToken {
        let configuration = try Configuration.fromEnvironment(keyring: keyring, network: network)
        let token = try await SessionController.atTerminal(configuration) { (controller) throws(SwaggerError) in
            try await controller.accessToken(
                controller.select(server: serverReference(), name: account, usingEnvironmentToken: true))
        }
        guard Credentials.isToken(token.value) else { throw SwaggerError.notAToken }
        return token
    }
}
