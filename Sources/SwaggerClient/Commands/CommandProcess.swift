import FoundationEssentials
import SessionStorage
import SwaggerHTTP

/// What the program needs of the layers below to be a process: the command loop it runs its command on, its waits,
/// and whole writes to its standard streams. The program reaches HTTP and storage only through this and the
/// commands.
package enum CommandProcess {
    /// Runs `command` on the command loop, the HTTP client's event loop on this thread, until it ends the process.
    package static func run(_ command: @escaping @Sendable () async -> Never) -> Never {
        CommandLoop.run(command)
    }

    /// Waits for `duration` on a timer of the command loop, as every wait of a command does.
    package static func sleep(for duration: Duration) async throws {
        try await CommandLoop.sleep(for: duration)
    }

    /// Writes all of `data` to `descriptor`.
    /// - Returns: The system's error number when the write failed; `nil` when it was written.
    package static func write(_ data: Data, to descriptor: Int32) -> Int32? {
        do throws(DescriptorIO.Failure) {
            try DescriptorIO.writeAll(data, to: descriptor)
            return nil
        } catch {
            return error.code
        }
    }
}
