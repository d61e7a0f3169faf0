import FoundationEssentials

extension BrowserFlow.Page {
    /// What the browser shows after it hands the login back.
    package var text: String {
        switch self {
        case .signedIn: "Signed in. You can close this tab and return to the terminal."
        case .refused: "The sign-in was refused. Return to the terminal."
        case .failed: "This answer was not taken. Return to the terminal."
        case .alreadyAnswered: "This sign-in was already answered. Return to the terminal."
        }
    }
}

extension BrowserFlow {
    /// Where a browser login signs in: always printed, for a browser on another machine.
    package static func addressNotice(_ url: URL, opened: Bool) -> String {
        "\(opened ? "Opened your browser to sign in. If it did not open, go to" : "To sign in, open") "
            + "\(url.absoluteString) in a browser on this machine. Waiting for the sign-in…"
    }

    /// A request to the login's redirect without this login's state.
    package static let wrongStateNotice =
        "a request to the login's address without this login's state was turned away; still waiting for the browser."

    /// A request to the login's redirect after the one that was taken.
    package static let latecomerNotice =
        "another answer came to the login's address after the browser's was taken; it was turned away."
}
