import ArgumentParser
import DynamoAPI
import DynamoServer
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `serve --sync`: how hard a commit waits for the disk.
enum SyncSetting: String, ExpressibleByArgument, CaseIterable {
    case normal
    case full
}

/// `serve --error-wording 2025|2026`.
extension ErrorWording: ExpressibleByArgument {}

/// The process limits `serve` adjusts before it listens.
enum ProcessLimits {
    /// Raises the open-file limit (see ``raiseFileDescriptorLimit()``) and ignores SIGXFSZ: a
    /// write past the file-size limit (`ulimit -f`) then fails with `EFBIG`, which SQLite reports
    /// as a full disk (the request gets `InternalServerError`), instead of killing the process.
    static func prepare() {
        signal(SIGXFSZ, SIG_IGN)
        raiseFileDescriptorLimit()
    }

    /// Raises the soft limit on open files to the hard limit (as Go's runtime does), so
    /// `--max-connections`, not a low default soft limit of 1024, decides how many clients fit.
    static func raiseFileDescriptorLimit() {
        var limit = rlimit()
        #if canImport(Glibc)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(resource, &limit)
    }
}

extension ServeCommand {
    /// Checks `--request-timeout`, `--idle-timeout` and `--max-connections`.
    func validateReliabilityFlags() throws {
        for (name, value) in [("--request-timeout", requestTimeout), ("--idle-timeout", idleTimeout)]
        where !value.isFinite || value < 0 {
            throw ValidationError("\(name) takes a number of seconds >= 0 (0: no limit).")
        }
        guard maxConnections >= 0 else { throw ValidationError("--max-connections takes a number >= 0 (0: no limit).") }
    }

    /// Puts the connection limits and `--sync` into the server's configuration and prepares the
    /// process limits (see ``ProcessLimits``).
    func applyReliabilityFlags(to configuration: inout LocalDynamoServer.Configuration) {
        configuration.requestTimeout = requestTimeout
        configuration.idleTimeout = idleTimeout
        configuration.maximumConnections = maxConnections
        configuration.syncFull = sync == .full
        ProcessLimits.prepare()
    }
}
