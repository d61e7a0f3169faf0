import CSpawn
import Dispatch
import FoundationEssentials
import Glibc
import SwaggerClient

/// Opens an address in the person's browser, as `gh` and `git web--browse` do: `$BROWSER`, else `xdg-open`
/// where there is a display.
enum Browser {
    /// Starts the browser on `url` and does not wait for it: a browser may run for as long as the person keeps
    /// it open. Its output goes nowhere, so it cannot mix with swaggerctl's. A browser that ends with a failure
    /// (`BROWSER=false`, an `xdg-open` with nothing to open the address) is told to `exited` with a line that says
    /// so, whenever that happens.
    ///
    /// The browser is given a page in `folder` (0600, in a 0700 folder) that forwards to `url`, rather than `url`
    /// itself: a command line is readable by every local user in `/proc`, and the address carries the login's
    /// `state` and PKCE challenge, or a device login's code, with which another user could race the sign-in.
    /// Without a page (a folder that cannot be written), the address itself is given.
    static func open(
        _ url: URL, environment: [String: String], folder: URL, exited: @escaping @Sendable (String) -> Void
    ) -> BrowserOpening {
        guard let command = command(environment) else { return .none }
        let target = BrowserPage.write(for: url, in: folder) ?? url.absoluteString
        // The address is one argument, never shell text: it came from a server.
        let arguments = command.contains("%s") ? command.map { $0 == "%s" ? target : $0 } : command + [target]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            posix_spawn_file_actions_addopen(
                &actions, descriptor, "/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
        }
        // Nothing else: not the listener the code comes back to, nor the connection to the token endpoint.
        guard swaggerctl_spawn_closefrom(&actions, 3) == 0 else {
            return .failed("\(arguments[0]): cannot close descriptors")
        }
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var envp = childEnvironment(environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, &argv, &envp)
        guard spawned == 0 else { return .failed("\(arguments[0]): \(String(cString: strerror(spawned)))") }
        let child = pid
        let program = arguments[0]
        // Reaped on a thread of its own, so that the login waits for the sign-in and not for the browser.
        DispatchQueue.global().async {
            var status: Int32 = 0
            guard waitpid(child, &status, 0) == child else { return }
            let signal = status & 0x7f
            let code = (status >> 8) & 0xff
            guard signal != 0 || code != 0 else { return }
            let how = signal != 0 ? "was killed by signal \(signal)" : "exited with status \(code)"
            exited("the browser (\(program)) \(how); open the address yourself.")
        }
        return .started
    }

    /// The environment a child starts with: swaggerctl's own, without its variables (`SWAGGERCTL_TOKEN` among them)
    /// and without any whose name says it holds a token or a client secret (`GITHUB_TOKEN`, `CLIENT_SECRET`).
    static func childEnvironment(_ environment: [String: String]) -> [String: String] {
        environment.filter { name, _ in
            let upper = name.uppercased()
            return !upper.hasPrefix("SWAGGERCTL_") && !upper.contains("TOKEN") && !upper.contains("SECRET")
        }
    }

    /// `$BROWSER`'s first entry (it may list several, split by colons), split into words; else `xdg-open` when
    /// there is a display to open a window on.
    static func command(_ environment: [String: String]) -> [String]? {
        if let browser = environment["BROWSER"],
            let first = browser.split(separator: ":").first?.split(separator: " ").map(String.init), !first.isEmpty
        {
            return first
        }
        let display = [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains { !($0 ?? "").isEmpty }
        return display ? ["xdg-open"] : nil
    }
}

/// The browser of the environment this process was started in.
struct EnvironmentBrowser: BrowserOpener {
    let environment: [String: String]

    var isAvailable: Bool { Browser.command(environment) != nil }

    func open(_ url: URL, folder: URL, exited: @escaping @Sendable (String) -> Void) -> BrowserOpening {
        Browser.open(url, environment: environment, folder: folder, exited: exited)
    }
}
