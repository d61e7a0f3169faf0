import Dispatch
import SwaggerModel
import Synchronization
import TestSupport
import Testing

@testable import SessionStorage

@Suite("BoundedCall: a blocking keyring call never holds its caller past the deadline", .timeLimit(.minutes(5)))
struct BoundedCallTests {
    @Test("a call that finishes in time returns its value")
    func inTime() async throws {
        let deadline = TestDeadline()
        let value = try await BoundedCall.run(
            until: .now + .seconds(600), timeout: .seconds(3), sleep: deadline.sleep
        ) { _ in 42 }
        #expect(value == 42)
    }

    // Had run() waited for the thread, the test would never end: the limit turns that into a failure.
    @Test(
        "a call that ignores its cancellable still gives its caller a timeout at the deadline",
        .timeLimit(.minutes(1)))
    func uncooperativeCall() async throws {
        // The call cannot return before the test lets it, so only the deadline can answer the caller.
        let release = DispatchSemaphore(value: 0)
        let reports = CallReports()
        let deadline = TestDeadline()
        deadline.pass()
        await #expect(throws: SecretServiceError.timedOut(.seconds(3))) {
            try await BoundedCall.run(until: .now + .seconds(600), timeout: .seconds(3), sleep: deadline.sleep) { _ in
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
        let deadline = TestDeadline()
        deadline.pass()
        await #expect(throws: SecretServiceError.timedOut(.seconds(3))) {
            try await BoundedCall.run(until: .now + .seconds(600), timeout: .seconds(3), sleep: deadline.sleep) {
                cancellable in
                reports.send(cancellable.waitUntilCancelled())
            }
        }
        #expect(await reports.next() == true)
    }

    @Test("a deadline already past fails at once, without a call")
    func pastDeadline() async throws {
        let ran = Mutex(false)
        await #expect(throws: SecretServiceError.timedOut(.seconds(3))) {
            try await BoundedCall.run(until: .now - .seconds(1), timeout: .seconds(3), sleep: TestDeadline().sleep) {
                _ in ran.withLock { $0 = true }
            }
        }
        #expect(ran.withLock { $0 } == false)
    }

    @Test("a task cancelled before the call starts never starts it")
    func cancelledBeforeStart() async throws {
        let ran = Mutex(false)
        let deadline = TestDeadline()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await BoundedCall.run(until: .now + .seconds(600), timeout: .seconds(3), sleep: deadline.sleep) {
                _ in ran.withLock { $0 = true }
            }
        }
        await #expect(throws: SecretServiceError.cancelled) { try await task.value }
        #expect(ran.withLock { $0 } == false)
    }

    @Test("cancelling the task cancels the call under way")
    func taskCancellation() async throws {
        let started = CallReports()
        let reports = CallReports()
        let deadline = TestDeadline()
        let task = Task {
            try await BoundedCall.run(until: .now + .seconds(600), timeout: .seconds(3), sleep: deadline.sleep) {
                cancellable in
                started.send(true)
                reports.send(cancellable.waitUntilCancelled())
            }
        }
        _ = await started.next()
        task.cancel()
        await #expect(throws: SecretServiceError.cancelled) { try await task.value }
        #expect(await reports.next() == true)
    }

    /// A deadline that passes when the test says so: the sleep that the call's deadline waits on.
    final class TestDeadline: Sendable {
        private let passes: AsyncStream<Void>
        private let continuation: AsyncStream<Void>.Continuation

        init() {
            (passes, continuation) = AsyncStream.makeStream()
        }

        /// Lets the sleep return, now or as soon as it starts.
        func pass() {
            continuation.yield()
        }

        /// Returns once the deadline has passed; throws when its task is cancelled first.
        @Sendable func sleep(_: Duration) async throws {
            var iterator = passes.makeAsyncIterator()
            guard await iterator.next() != nil else { throw CancellationError() }
            try Task.checkCancellation()
        }
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
