import NIOCore

/// Runs Swift tasks on a NIO event loop (SE-0417 task executor preference).
///
/// A request's dispatch task prefers its connection's event loop, so a dispatcher that finishes
/// without suspending never leaves the loop thread: no hop to the cooperative pool and back, and
/// the response is written from the thread that read the request. Work that suspends (an actor,
/// SQLite on its own thread) resumes on the loop afterwards.
///
/// NIO 2.101 offers event loops as serial executors (`EventLoop.executor`) but not yet as task
/// executors; this is the small adapter. One exists per connection.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
