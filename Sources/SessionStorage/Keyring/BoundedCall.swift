internal import CSecret
import FoundationEssentials
import Glibc
import SwaggerModel
import Synchronization

/// Runs one blocking libsecret call so that it can never hold the process up.
///
/// libsecret's `_sync` functions block their thread while they iterate a private GLib main context, and a
/// Secret Service that never answers (or a prompt that nobody sees) blocks them for as long as D-Bus lets it:
/// 25 seconds per method call, and forever for a prompt. So each call:
/// - runs on a thread of its own, never on the thread of the command's tasks;
/// - gets a fresh `GCancellable`, which is cancelled at the deadline. libsecret honours it: the pending
///   D-Bus call fails with `G_IO_ERROR_CANCELLED`, and an open prompt is dismissed;
/// - returns to its caller at the deadline even if the thread has not come back yet. The thread is detached,
///   so nothing waits for it, and a process that is done exits at once.
///
/// The deadline is a child task that sleeps with `sleep`: the command loop's timer in a command, which starts no
/// thread, where `Task.sleep` would start Dispatch's; a test's own in its tests.
enum BoundedCall {
    /// Runs `call` with a cancellable that is cancelled at `deadline` or when the current task is cancelled.
    /// - Parameters:
    ///   - timeout: The whole allowance, for the error.
    ///   - sleep: Suspends for the time it is given, or until its task is cancelled.
    /// - Throws: ``SecretServiceError/timedOut(_:)`` at the deadline, ``SecretServiceError/cancelled`` when the
    ///   task was cancelled, or what `call` threw.
    static func run<Value: Sendable>(
        until deadline: ContinuousClock.Instant, timeout: Duration,
        sleep: @escaping @Sendable (Duration) async throws -> Void,
        _ call: @escaping @Sendable (Cancellable) throws(SecretServiceError) -> Value
    ) async throws(SecretServiceError) -> Value {
        let now = ContinuousClock.now
        guard now < deadline else { throw .timedOut(timeout) }
        let cancellable = try Cancellable(library: LibSecretLibrary.shared.get())
        let outcome = Outcome<Value>()
        let result = await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // Cancelled, the sleep throws: the call's own outcome came first.
                guard (try? await sleep(deadline - now)) != nil else { return }
                // The deadline is the outcome before the cancellation can make the call return one of its own.
                outcome.finish(.failure(.timedOut(timeout)))
                cancellable.cancel()
            }
            defer { group.cancelAll() }
            return await withTaskCancellationHandler {
                await withCheckedContinuation {
                    (continuation: CheckedContinuation<Result<Value, SecretServiceError>, Never>) in
                    guard outcome.install(continuation) else { return }
                    detachThread {
                        let result = Result { () throws(SecretServiceError) in try call(cancellable) }
                        outcome.finish(result)
                    }
                }
            } onCancel: {
                outcome.finish(.failure(.cancelled))
                cancellable.cancel()
            }
        }
        return try result.get()
    }

    /// A `GCancellable` that Swift can pass between threads. GLib's cancellables are thread-safe; this holds
    /// one reference and drops it when the last of the call's thread, its timer and its caller lets go.
    final class Cancellable: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<GCancellable>
        /// The loaded library, which the call uses too.
        let library: LibSecretLibrary

        init(library: LibSecretLibrary) throws(SecretServiceError) {
            guard let pointer = library.cancellableNew() else { throw .failed("GLib made no GCancellable") }
            self.library = library
            self.pointer = pointer
        }

        deinit {
            library.objectUnref(pointer)
        }

        func cancel() {
            library.cancellableCancel(pointer)
        }

        var isCancelled: Bool {
            library.cancellableIsCancelled(pointer) != 0
        }
    }

    /// The first of the call's result, its deadline and its task's cancellation; later ones are ignored.
    private final class Outcome<Value: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Result<Value, SecretServiceError>, Never>?
            var early: Result<Value, SecretServiceError>?
            var finished = false
        }

        private let state = Mutex(State())

        /// Hands over the continuation; `false` when the call was cancelled before it started, in which case
        /// the continuation has been resumed already.
        func install(_ continuation: CheckedContinuation<Result<Value, SecretServiceError>, Never>) -> Bool {
            let early = state.withLock { state -> Result<Value, SecretServiceError>? in
                guard let early = state.early else {
                    state.continuation = continuation
                    return nil
                }
                return early
            }
            guard let early else { return true }
            continuation.resume(returning: early)
            return false
        }

        func finish(_ result: Result<Value, SecretServiceError>) {
            let continuation = state.withLock {
                state -> CheckedContinuation<Result<Value, SecretServiceError>, Never>? in
                guard !state.finished else { return nil }
                state.finished = true
                guard let continuation = state.continuation else {
                    state.early = result
                    return nil
                }
                state.continuation = nil
                return continuation
            }
            continuation?.resume(returning: result)
        }
    }
}

/// Runs `body` on a new, detached thread: a blocking call that may outlive its deadline must not hold one of
/// the cooperative pool's few threads. A plain pthread, because Foundation's `Thread` would bring in the
/// whole of Foundation.
private func detachThread(_ body: @escaping @Sendable () -> Void) {
    final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let created = pthread_create(
        &thread, nil,
        { context in
            guard let context else { return nil }
            Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
            return nil
        }, box)
    guard created == 0 else {
        // No thread to be had: run here rather than never; the caller's deadline still answers first.
        Unmanaged<Box>.fromOpaque(box).takeRetainedValue().body()
        return
    }
    pthread_detach(thread)
}
