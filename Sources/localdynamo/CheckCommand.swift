import ArgumentParser
import DynamoServer

/// `localdynamo check`: verifies the stored data of a (stopped) server.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the storage invariants of every database in a data directory.",
        discussion: """
            Runs SQLite's integrity check and verifies that every item is stored under its own key \
            with its own size, that every index entry matches its item (and none is missing or left \
            over), and that no storage is orphaned. Exits 1 when anything is wrong. Run it on the \
            directory of a stopped server (a running one may be mid-write).
            """
    )

    @Option(name: .customLong("db-path"), help: "The data directory (serve's --db-path).")
    var dbPath = ".localdynamo"

    func run() throws {
        let reports = try StorageCheck.run(directory: dbPath)
        var broken = 0
        for report in reports {
            let summary = "\(report.tables) tables, \(report.items) items, \(report.indexEntries) index entries"
            if report.violations.isEmpty {
                print("ok      \(report.file): \(summary)")
            } else {
                broken += 1
                print("BROKEN  \(report.file): \(summary), \(report.violations.count) problems")
                for violation in report.violations { print("        \(violation)") }
            }
        }
        if reports.isEmpty { print("no database files in \(dbPath)") }
        if broken > 0 { throw ExitCode(1) }
    }
}
