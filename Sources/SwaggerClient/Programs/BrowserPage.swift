import FoundationEssentials
import SessionStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The page a browser login gives the browser in place of the address itself: a command line is readable by every
/// local user in `/proc`, and the address carries the login's `state` and PKCE challenge, or a device login's code.
package enum BrowserPage {
    /// The page's name: one per process, so that two logins never share one.
    static var pageName: String { ".sign-in-\(getpid()).html" }

    /// Writes the page that forwards to `url`, as swaggerctl writes every file (0600, atomically); its path, or
    /// `nil` when it cannot be written.
    package static func write(for url: URL, in folder: URL) -> String? {
        let directory = PrivateDirectory(folder)
        let address = escapedHTML(url.absoluteString)
        let page = """
            <!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=\(address)">
            <title>swaggerctl sign-in</title><a href="\(address)">Continue to sign in</a>

            """
        // Read once by the browser and removed when the login ends: not worth an fsync.
        guard (try? directory.write(Data(page.utf8), to: pageName, durability: .cache)) != nil else { return nil }
        return directory.fileURL(pageName).path
    }

    /// Removes the page of this process's login, once the login has ended.
    package static func remove(in folder: URL) {
        unlink(PrivateDirectory(folder).fileURL(pageName).path)
    }

    private static func escapedHTML(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("\"", with: "&quot;").replacing("<", with: "&lt;")
            .replacing(">", with: "&gt;").replacing("'", with: "&#39;")
    }
}
