// A Secret Service that never answers: it owns org.freedesktop.secrets on the session bus and drops every
// method call addressed to it, so callers wait until they give up. It is the one fault that a real
// gnome-keyring-daemon cannot be made to show on demand (a hung daemon, or a prompt on a display nobody
// watches).
//
// It prints "ready" once it owns the name, and runs until a signal ends it.
import CSecret
import Foundation

StalledSecretService.run()

/// Nonisolated, so that the callbacks GDBus calls on its own thread are not bound to the main actor.
enum StalledSecretService {
    static func run() -> Never {
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            let message = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unknown error"
            FileHandle.standardError.write(Data("stalled-secret-service: no session bus: \(message)\n".utf8))
            exit(1)
        }

        // GDBus answers calls to unregistered objects with UnknownMethod by itself; this filter drops incoming calls
        // before it can. A filter that drops a message owns it and must release it.
        _ = g_dbus_connection_add_filter(
            connection,
            { _, message, incoming, _ in
                guard let message, incoming != 0,
                    g_dbus_message_get_message_type(message) == G_DBUS_MESSAGE_TYPE_METHOD_CALL
                else { return message }
                g_object_unref(UnsafeMutableRawPointer(message))
                return nil
            }, nil, nil)

        _ = g_bus_own_name_on_connection(
            connection, "org.freedesktop.secrets", G_BUS_NAME_OWNER_FLAGS_NONE,
            { _, _, _ in
                FileHandle.standardOutput.write(Data("ready\n".utf8))
            },
            { _, _, _ in
                FileHandle.standardError.write(
                    Data("stalled-secret-service: could not own org.freedesktop.secrets\n".utf8))
                exit(1)
            }, nil, nil)

        g_main_loop_run(g_main_loop_new(nil, 0))
        fatalError("the main loop returned")
    }
}
