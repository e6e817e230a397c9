#if canImport(CCurl)
    import Foundation

    /// Dedicated threads that run blocking libcurl transfers, each on its own ``CurlEasy``.
    ///
    /// Blocking calls never run on Swift's cooperative thread pool: a job is queued here and one of
    /// at most `maximumThreads` threads picks it up. Threads start on demand (when no idle or
    /// finishing thread is there for a job) and live until the pool is released, so their easy handles keep connections alive. Jobs beyond
    /// the thread count wait in FIFO order: that is the transport's bound on concurrency.
    ///
    /// Handing a job to an idle thread reserves that thread at once, before it has woken: a burst
    /// of N jobs after an idle period therefore wakes one idle thread per job and starts new threads
    /// for the rest, running min(N, `maximumThreads`) transfers at once instead of queueing all of
    /// them behind the one thread that was idle.
    ///
    /// A job returns its completion (resuming the caller) instead of running it: the thread
    /// counts itself as available first, so a caller's next request, submitted as soon as it
    /// is resumed, goes to that thread instead of starting another one (with another
    /// connection): N callers in a loop use N threads and N connections.
    final class CurlWorkerPool: Sendable {
        /// A unit of work; it receives the thread's easy handle, or `nil` if none could be
        /// created, and returns what to run once the thread is available again (resuming the caller).
        typealias Job = @Sendable (CurlEasy?) -> Completion
        /// Runs after the job, on the same thread.
        typealias Completion = @Sendable () -> Void

        private let state: State

        /// Creates a pool that runs at most `maximumThreads` transfers at once.
        init(maximumThreads: Int) {
            state = State(maximumThreads: max(1, maximumThreads))
        }

        deinit {
            state.shutDown()
        }

        /// Queues a job; it runs on a pool thread.
        func submit(_ job: @escaping Job) {
            state.submit(job)
        }

        /// The shared queue. Safe to share: every mutable member is read and written with
        /// `condition` locked.
        ///
        /// Invariants: `idleCount + wakeups` is the number of threads inside `condition.wait()`;
        /// `idleCount` of them are free, `wakeups` are woken for jobs submitted meanwhile.
        /// `committed` is the number of threads that will look at the queue before they next
        /// wait: started or woken for a job, or done with a job (counted before the job's
        /// completion resumes its caller). A job starts or wakes a thread only when the queued
        /// jobs outnumber the committed threads.
        private final class State: @unchecked Sendable {
            private let condition = NSCondition()
            private var jobs: [Job] = []
            private var nextJob = 0
            private var threadCount = 0
            private var idleCount = 0
            private var wakeups = 0
            private var committed = 0
            private var isShutDown = false
            private let maximumThreads: Int

            init(maximumThreads: Int) {
                self.maximumThreads = maximumThreads
            }

            func submit(_ job: @escaping Job) {
                condition.lock()
                jobs.append(job)
                var startThread = false
                if jobs.count - nextJob > committed {
                    if idleCount > 0 {
                        idleCount -= 1
                        wakeups += 1
                        committed += 1
                        condition.signal()
                    } else if threadCount < maximumThreads {
                        threadCount += 1
                        committed += 1
                        startThread = true
                    }
                }
                condition.unlock()
                if startThread {
                    let thread = Thread { [self] in run() }
                    thread.name = "DynamoClient.curl"
                    thread.stackSize = 1 << 20
                    thread.start()
                }
            }

            func shutDown() {
                condition.lock()
                isShutDown = true
                condition.broadcast()
                condition.unlock()
            }

            /// A worker thread's loop: take the oldest job, run it, count this thread as
            /// committed, run the job's completion, repeat until shut down.
            private func run() {
                let easy = CurlEasy()
                while let job = take() {
                    let completion = job(easy)
                    condition.lock()
                    committed += 1
                    condition.unlock()
                    completion()
                }
            }

            /// The oldest job, waiting for one if none is queued; `nil` once shut down. The
            /// calling thread is committed on entry and no longer on return.
            private func take() -> Job? {
                condition.lock()
                defer { condition.unlock() }
                while nextJob == jobs.count {
                    committed -= 1
                    if isShutDown {
                        threadCount -= 1
                        return nil
                    }
                    idleCount += 1
                    condition.wait()
                    // Woken for a job (`submit` moved one idle thread to committed), or
                    // spuriously: this thread now counts as committed either way.
                    if wakeups > 0 {
                        wakeups -= 1
                    } else {
                        idleCount -= 1
                        committed += 1
                    }
                }
                committed -= 1
                let job = jobs[nextJob]
                nextJob += 1
                if nextJob > 64, nextJob * 2 > jobs.count {
                    jobs.removeFirst(nextJob)
                    nextJob = 0
                }
                return job
            }
        }
    }
#endif
