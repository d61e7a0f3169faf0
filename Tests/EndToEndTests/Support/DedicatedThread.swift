import Foundation

/// Runs blocking work (waiting for a child process, reading its pipes) on a thread of its own.
///
/// On Linux, Swift's global concurrent executor and `DispatchQueue.global()` share libdispatch's default
/// root queue, whose width is about the number of cores. Blocking those threads would starve the tasks of
/// the in-process fault server, so blocking waits never run there.
func onDedicatedThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result<Value, any Error> { try work() })
        }
    }
}

extension Process {
    /// Starts the process with no signal blocked, as a shell would start it.
    ///
    /// A child inherits the signal mask of the thread that starts it, and the test runner's threads block
    /// nearly every signal. A child started from one of them could not be stopped with SIGTERM: a
    /// `dbus-daemon` would outlive its `dbus-run-session`, and a `gnome-keyring-daemon` its session.
    func runWithDefaultSignalMask() throws {
        var empty = sigset_t()
        var saved = sigset_t()
        sigemptyset(&empty)
        pthread_sigmask(SIG_SETMASK, &empty, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        try run()
    }
}
