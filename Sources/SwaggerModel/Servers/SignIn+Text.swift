import FoundationEssentials

extension SignIn {
    /// The line for a login that named no way to sign in, to a server that offers no password grant; empty where
    /// the password or the client's own credentials sign in.
    package func chosenNotice(_ server: ServerURL, hasBrowser: Bool) -> String {
        switch self {
        case .password, .client, .token: ""
        case .web:
            "\(server) takes no password; signing in in the browser (--web). --device signs in with a code instead."
        case .device:
            "\(server) takes no password; signing in with a code (--device)\(hasBrowser ? "" : ": there is no browser here")"
                + ". --web signs in with a browser here."
        }
    }
}

extension LoginStep {
    /// Whether the server's login takes an e-mail, rather than a user name: the account goes in a member named
    /// `email`, or the login has a place of its own for one (`{email?}`).
    var takesEmail: Bool {
        guard let request else { return false }
        return request.inputs.contains("email")
            || request.members(holding: "account").contains { $0.split(separator: ".").last?.lowercased() == "email" }
    }

    /// What a login to `server` asks for when no account was given: an e-mail where the server's login takes one,
    /// else a user name.
    package func accountPrompt(on server: ServerURL) -> (prompt: String, cancelled: String, isEmail: Bool) {
        takesEmail
            ? ("E-mail for \(server): ", "Login cancelled: no e-mail given.", true)
            : ("User name for \(server): ", "Login cancelled: no user name given.", false)
    }
}

extension SwaggerError {
    /// `login --web` to a server without an authorization endpoint, or without a client id to ask it for.
    package static func noBrowserLogin(_ server: ServerURL, _ description: ServerDescription) -> SwaggerError {
        guard description.authorizationURL != nil else {
            return SwaggerError(
                .usage,
                "\(server) names no authorization endpoint, so --web cannot be used. Log in with the password, or "
                    + "use `server set --preset oauth2`.")
        }
        return SwaggerError(
            .usage,
            "--web needs the client id that the server knows this tool by; give it with `swaggerctl server set "
                + "\(server) --client-id ID`.")
    }

    /// `login --device` to a server that names no device authorization endpoint.
    package static func noDeviceAuthorization(_ server: ServerURL, _ description: ServerDescription) -> SwaggerError {
        SwaggerError(
            .usage,
            "\(server) names no device authorization endpoint, so --device cannot be used; log in with the password "
                + "instead.")
    }

    /// A login with a password to a server whose metadata offers no password grant and no other way swaggerctl
    /// can sign in.
    package static func noPasswordGrant(_ server: ServerURL, _ description: ServerDescription) -> SwaggerError {
        let flags = description.browserSignIns.map { $0 == .web ? "--web" : "--device" }
        let instead =
            flags.isEmpty
            ? "nor a browser sign-in that swaggerctl can use"
            : "sign in with \(flags.joined(separator: " or ")) instead"
        return SwaggerError(
            .usage,
            "\(server) does not take passwords (no password grant); \(instead). Nothing was sent.")
    }
}
