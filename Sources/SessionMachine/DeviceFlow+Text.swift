import FoundationEssentials
import SwaggerModel

extension DeviceAuthorization {
    /// The one-time code of a device-code login, and where to enter it.
    package func instructions(opened: Bool) -> String {
        let complete = verificationURIComplete.map { " (or open \($0.absoluteString), which has the code in it)" }
        return "To sign in, open \(verificationURI.absoluteString) and enter the code \(userCode)"
            + "\(complete ?? "")\(opened ? "; it is open in your browser" : ""). Waiting for the sign-in…"
    }
}
