import NIOCore
import NIOPosix
import Synchronization

/// The one thread a command runs on: the main thread, made NIO's event loop, runs the command as a task that
/// prefers it, so a request and the code that awaits it never change threads.
///
/// Without it, the command ran on Swift's cooperative pool and its connections on an event-loop thread of their
/// own: every step of a request, from connecting to the body's last byte, woke the other thread and waited for
/// it. Blocking calls stay off this thread as they stayed off the pool's: libsecret's run on threads of their
/// own (`BoundedCall`).
package enum CommandLoop {
    private static let installed = Mutex<(any EventLoop)?>(nil)
    private static let keptUntilExit = Mutex<[any Sendable]>([])

    /// The loop of ``run(_:)``, which every client and listener of the process uses; NIO's shared group where no
    /// command runs on one, as in the tests that call the API service in their own process.
    static var group: any EventLoopGroup {
        installed.withLock { $0 } ?? MultiThreadedEventLoopGroup.singleton
    }

    /// Suspends for `duration` on a timer of the loop. `Task.sleep` would wake the task from Dispatch's timer
    /// thread, which it starts for the purpose, through a worker of the cooperative pool: this loop is not an
    /// executor that Swift's clocks can schedule on.
    /// - Throws: `CancellationError` when the task is cancelled first.
    package static func sleep(for duration: Duration) async throws {
        let timer = group.next().scheduleTask(in: TimeAmount(duration)) {}
        do {
            try await withTaskCancellationHandler {
                try await timer.futureResult.get()
            } onCancel: {
                timer.cancel()
            }
        } catch {
            throw CancellationError()
        }
    }

    /// Whether the process runs on the loop, and so ends with its command.
    static var endsWithProcess: Bool {
        installed.withLock { $0 != nil }
    }

    /// Keeps `value` alive until the process exits, which ends it without its deinitialiser.
    static func keepUntilExit(_ value: any Sendable) {
        keptUntilExit.withLock { $0.append(value) }
    }

    /// Makes the calling thread the event loop and runs `command` on it; the command ends the process.
    package static func run(_ command: @escaping @Sendable () async -> Never) -> Never {
        MultiThreadedEventLoopGroup.withCurrentThreadAsEventLoop { loop in
            installed.withLock { $0 = loop }
            Task(executorPreference: LoopExecutor(loop: loop)) { await command() }
        }
        preconditionFailure("the command loop stopped before its command ended the process")
    }

    /// Runs each job of the task tree that prefers it on the loop, after what the loop has already queued.
    private final class LoopExecutor: TaskExecutor {
        let loop: any EventLoop

        init(loop: any EventLoop) {
            self.loop = loop
        }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }
    }
}
