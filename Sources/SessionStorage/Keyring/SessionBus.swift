import FoundationEssentials
import Glibc
import SwaggerModel

/// Where a D-Bus client would find the session bus, found without connecting to it.
///
/// GLib looks at `DBUS_SESSION_BUS_ADDRESS`, then at the socket `$XDG_RUNTIME_DIR/bus`, and as a last resort
/// spawns `dbus-launch`. swaggerctl checks the first two itself and does not call libsecret when neither is
/// there, so that no `dbus-launch` is ever started on a headless machine.
package enum SessionBus {
    /// The session bus address, or `nil` when there is no session bus.
    /// - Returns: `DBUS_SESSION_BUS_ADDRESS`, else `unix:path=$XDG_RUNTIME_DIR/bus` when that socket exists.
    package static func address(in environment: [String: String]) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        let socket = URL(filePath: runtime, directoryHint: .isDirectory).appending(path: "bus").path
        var info = stat()
        guard stat(socket, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return "unix:path=\(socket)"
    }
}
