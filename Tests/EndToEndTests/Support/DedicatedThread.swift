import Foundation

/// Runs blocking work (a pseudo-terminal's reads and waits) on a thread of its own.
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
