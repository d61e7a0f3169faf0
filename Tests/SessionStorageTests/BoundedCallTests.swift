import Dispatch
import Foundation
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

    @Test("a call that ignores its cancellable still gives its caller a timeout at the deadline")
    func uncooperativeCall() async throws {
        let finished = DispatchSemaphore(value: 0)
        // Had run() waited for the thread, it would return the value instead of throwing.
        await #expect(throws: SecretServiceError.timedOut(.milliseconds(200))) {
            try await BoundedCall.run(until: .now + .milliseconds(200), timeout: .milliseconds(200)) { _ in
                // Blocks for far longer than the deadline, whatever the cancellable says.
                Thread.sleep(forTimeInterval: 3)
                finished.signal()
                return "waited for the thread"
            }
        }
        finished.wait()
    }

    @Test("the call's GCancellable is cancelled at the deadline, so libsecret can stop waiting")
    func cancelledAtDeadline() async throws {
        let seen = Seen()
        await #expect(throws: SecretServiceError.timedOut(.milliseconds(100))) {
            try await BoundedCall.run(until: .now + .milliseconds(100), timeout: .milliseconds(100)) { cancellable in
                for _ in 0..<1000 where !cancellable.isCancelled { Thread.sleep(forTimeInterval: 0.01) }
                seen.record(cancellable.isCancelled)
            }
        }
        #expect(seen.wait() == true)
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
        let seen = Seen()
        let started = Mutex(false)
        let task = Task {
            try await BoundedCall.run(until: .now + .seconds(30), timeout: .seconds(30)) { cancellable in
                started.withLock { $0 = true }
                for _ in 0..<1000 where !cancellable.isCancelled { Thread.sleep(forTimeInterval: 0.01) }
                seen.record(cancellable.isCancelled)
            }
        }
        while !started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        task.cancel()
        await #expect(throws: SecretServiceError.cancelled) { try await task.value }
        #expect(seen.wait() == true)
    }

    /// What the call's thread saw, handed to the test once.
    final class Seen: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var value: Bool?

        func record(_ value: Bool) {
            self.value = value
            done.signal()
        }

        func wait() -> Bool? {
            done.wait()
            return value
        }
    }
}
