import AWSSigV4
import Foundation

/// Where the client reads its outside configuration: environment variables and files (the
/// shared `~/.aws/config` and `~/.aws/credentials`, token files).
///
/// The default reads the real process environment and file system; tests inject both, so they
/// never depend on (or read) the machine's own `~/.aws`.
///
/// ```swift
/// let sources = ConfigurationSources(
///     environment: ["AWS_PROFILE": "dev", "HOME": "/home/me"],
///     files: ["/home/me/.aws/config": "[profile dev]\nregion = eu-west-1\n"])
/// ```
public struct ConfigurationSources: Sendable {
    /// Environment variables by name.
    public var environment: [String: String]
    /// Reads a whole text file, or returns `nil` when it does not exist or cannot be read.
    public var readFile: @Sendable (String) -> String?
    /// Replaces a whole file with text, readable by its owner only; returns whether it worked
    /// (used to write back a refreshed IAM Identity Center token as the AWS CLI does). The
    /// default for injected sources writes nothing.
    public var writeFile: @Sendable (_ path: String, _ text: String) -> Bool = { _, _ in false }

    /// Creates sources from an environment and a file reader.
    ///
    /// - Parameters:
    ///   - environment: Environment variables.
    ///   - readFile: Returns a file's text, `nil` if absent.
    public init(environment: [String: String], readFile: @escaping @Sendable (String) -> String?) {
        self.environment = environment
        self.readFile = readFile
    }

    /// Creates sources from an environment and in-memory files keyed by path.
    ///
    /// - Parameters:
    ///   - environment: Environment variables.
    ///   - files: File contents by absolute path; every other path reads as absent.
    public init(environment: [String: String], files: [String: String] = [:]) {
        self.init(environment: environment, readFile: { files[$0] })
    }

    /// The running process's environment and file system.
    public static var process: ConfigurationSources {
        var sources = ConfigurationSources(environment: ProcessInfo.processInfo.environment) { path in
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
        sources.writeFile = { path, text in
            let url = URL(fileURLWithPath: path)
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard (try? Data(text.utf8).write(to: url, options: .atomic)) != nil else { return false }
            try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
            return true
        }
        return sources
    }

    /// An environment variable, `nil` when unset or empty.
    func value(_ name: String) -> String? {
        guard let value = environment[name]?.trimmingASCIIWhitespace(), !value.isEmpty else { return nil }
        return value
    }

    /// Whether a variable is set to `true` (case-insensitively).
    func flag(_ name: String) -> Bool {
        value(name)?.lowercased() == "true"
    }

    /// The home directory: `HOME`, else (Windows-style) `USERPROFILE`.
    var homeDirectory: String? {
        value("HOME") ?? value("USERPROFILE")
    }

    /// Expands a leading `~/` with the home directory.
    func expandingHome(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = homeDirectory else { return path }
        return home + path.dropFirst()
    }
}
