extension SessionController {
    /// The message for a failed API call: what happened, on which server, and what to do next.
    /// - Parameters:
    ///   - error: What went wrong.
    ///   - server: The API's base URL.
    ///   - email: The account involved.
    ///   - removed: Whether the dead session was removed.
    /// - Returns: The error to show.
    func message(for error: APIServiceError, on server: String, email: String, removed: Bool = false)
        -> SwaggerError
    {
        let login = "swaggerctl login -s \(server) -e \(email)"
        switch error {
        case .badCredentials:
            return SwaggerError(
                .authentication, "Wrong e-mail or password for \(email) on \(server). Check both and try again.")
        case .tokenRejected:
            let removal = removed ? " and has been removed" : ""
            return SwaggerError(
                .authentication,
                "\(server) rejected the stored token for \(email); it has expired or been revoked\(removal). "
                    + "Run `\(login)` to log in again.")
        case .requestRejected(let status, let detail):
            let reason = detail.map { ": \($0)" } ?? ""
            return SwaggerError(
                .failure,
                "\(server) refused the request with HTTP \(status)\(reason). Check the server URL and the app id.")
        case .redirected(let status, let location):
            return SwaggerError(
                .failure,
                "\(server) redirected (HTTP \(status)) to \(location ?? "another address"). swaggerctl does not "
                    + "follow redirects with credentials; pass the final API URL with --server.")
        case .serverFailed(let status):
            return SwaggerError(.server, "\(server) failed with HTTP \(status). Try again later.")
        case .contractViolation(let detail):
            return SwaggerError(
                .server,
                "\(server) answered with something that is not the account API (\(detail)). Check that the "
                    + "server URL is the API's base URL, such as https://host/api.")
        case .unreachable(let detail):
            return SwaggerError(
                .network, "Could not reach \(server): \(detail). Check the URL and that the server is up.")
        case .timedOut:
            return SwaggerError(
                .network,
                "\(server) did not answer within \(configuration.timeout.secondsText). "
                    + "Try again, or allow longer with SWAGGERCTL_TIMEOUT.")
        case .tls(let detail):
            return SwaggerError(
                .network, "The TLS connection to \(server) failed (\(detail)). Check the URL and its certificate.")
        }
    }
}
