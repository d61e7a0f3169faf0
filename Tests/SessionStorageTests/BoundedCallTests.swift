import Dispatch
import SwaggerModel
import Synchronization
import TestSupport
import Testing

@testable import SessionStorage

@Suite("BoundedCall: a blocking keyring call never holds its caller past the deadline")
struct BoundedCallTests {
    @Test("a call that finishes in time returns its value")
    func inTime() async throws {
        let value = try await BoundedCall.run(until: .now + .seconds(30), timeout: .seconds(30)) { _ in 42 }
        #expect(value == 42)
    }

    // Had run() waited for the thread, the test would never end: the limit turns that into a failure.
    @Test(
        "a call that ignores its cancellable still gives its caller a timeout at the deadline",
        .timeLimit(.minutes(1)))
    func uncooperativeCall() async throws {
        // The call cannot return before the test lets it, so only the deadline can answer the caller, however
        // slow the machine.
        let release = DispatchSemaphore(value: 0)
        let reports = CallReports()
        await #expect(throws: SecretServiceError.timedOut(.milliseconds(200))) {
            try await BoundedCall.run(until: .now + .milliseconds(200), timeout: .milliseconds(200)) { _ in
                release.wait()
                reports.send(true)
                return "waited for the thread"
            }
        }
        release.signal()
        #expect(await reports.next() == true)
    }

    @Test("the call's GCancellable is cancelled at the deadline, so libsecret can stop waiting")
    func cancelledAtDeadline() async throws {
        let reports = CallReports()
        await #expect(throws: SecretServiceError.timedOut(.milliseconds(100))) {
            try await BoundedCall.run(until: .now + .milliseconds(100), timeout: .milliseconds(100)) { cancellable in
                reports.send(cancellable.waitUntilCancelled())
            }
        }
        #expect(await reports.next() == true)
    }

    @Test("a task cancelled before the call starts never starts it")
    func cancelledBeforeStart() async throws {
        let ran = Mutex(false)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await BoundedCall.run(until: .now + .seconds(30), timeout: .seconds(30)) { _ in
                ran.withLock { $0 = true }
            }
        }
        await #expect(throws: SecretServiceError.cancelled) { try await task.value }
        #expect(ran.withLock { $0 } == false)
    }

    @Test("cancelling the task cancels the call under way")
    func taskCancellation() async throws {
        let started = CallReports()
        let reports = CallReports()
        let task = Task {
            try await BoundedCall.run(until: .now + .seconds(600), timeout: .seconds(600)) { cancellable in
                started.send(true)
                reports.send(cancellable.waitUntilCancelled())
            }
        }
        _ = await started.next()
        task.cancel()
        await #expect(throws: SecretServiceError.cancelled) { try await task.value }
        #expect(await reports.next() == true)
    }

    /// What the call's thread saw, which the test awaits without blocking a thread of the cooperative pool.
    final class CallReports: Sendable {
        private let stream: AsyncStream<Bool>
        private let continuation: AsyncStream<Bool>.Continuation

        init() {
            (stream, continuation) = AsyncStream.makeStream()
        }

        func send(_ value: Bool) {
            continuation.yield(value)
        }

        func next() async -> Bool? {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        }
    }
}

extension BoundedCall.Cancellable {
    /// Blocks the call's own thread until the cancellable is cancelled, or a minute has passed: a bound for a
    /// broken test, not a measurement. Returns whether it was cancelled.
    fileprivate func waitUntilCancelled() -> Bool {
        let limit = ContinuousClock.now + .seconds(60)
        while !isCancelled, ContinuousClock.now < limit {
            _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(5))
        }
        return isCancelled
    }
}
