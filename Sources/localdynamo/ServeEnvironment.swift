import ArgumentParser
import DynamoAPI

/// `LOCALDYNAMO_*` environment variables for every `serve` flag, for containers and CI where
/// a command line is awkward to change.
///
/// Each `--some-flag` of `serve` reads `LOCALDYNAMO_SOME_FLAG` when the command line does not
/// give it (the command line wins). A flag without a value is on when its variable is `1`,
/// `true` or `yes`; a repeatable option takes several values separated by newlines or `;`.
/// The flags are read from argument-parser's own description of `serve`, so a flag added to
/// ``ServeCommand`` gets its variable with no list to keep up to date.
enum ServeEnvironment {
    /// One `serve` flag.
    struct Flag: Equatable {
        var name: String
        var takesValue: Bool
        var repeatable: Bool

        /// `LOCALDYNAMO_DB_PATH` for `db-path`.
        var variable: String {
            "LOCALDYNAMO_" + String(name.map { $0 == "-" ? "_" : Character($0.uppercased()) })
        }
    }

    /// The flags of `serve`, from argument-parser's description of the command (the JSON of
    /// `--experimental-dump-help`): each long name, whether it takes a value, whether it repeats.
    static var flags: [Flag] { parse(toolInfo: ServeCommand._dumpHelp()) }

    static func parse(toolInfo: String) -> [Flag] {
        guard let json = try? JSONValue(parsing: toolInfo), case .array(let arguments)? = json["command"]?["arguments"] else {
            return []
        }
        return arguments.compactMap { argument in
            guard let kind = argument["kind"]?.stringValue, kind == "option" || kind == "flag",
                case .array(let names)? = argument["names"],
                let name = names.first(where: { $0["kind"]?.stringValue == "long" })?["name"]?.stringValue,
                name != "help", name != "version"
            else { return nil }
            return Flag(name: name, takesValue: kind == "option", repeatable: argument["isRepeating"] == .bool(true))
        }
    }

    /// `arguments` (those after `serve`) with the settings of the environment's variables
    /// appended for flags the arguments leave out.
    static func apply(to arguments: [String], environment: [String: String], flags: [Flag] = flags) throws -> [String] {
        var result = arguments
        for flag in flags {
            guard let value = environment[flag.variable] else { continue }
            let given = arguments.contains { $0 == "--\(flag.name)" || $0.hasPrefix("--\(flag.name)=") }
            guard !given else { continue }
            if !flag.takesValue {
                switch value.lowercased() {
                case "1", "true", "yes": result.append("--\(flag.name)")
                case "0", "false", "no", "": break
                default: throw EnvironmentError(description: "\(flag.variable)=\(value): say 1 or 0 (true or false)")
                }
            } else if flag.repeatable {
                for part in value.split(whereSeparator: { $0 == "\n" || $0 == ";" }) where !part.allSatisfy(\.isWhitespace) {
                    result += ["--\(flag.name)", String(part)]
                }
            } else {
                result += ["--\(flag.name)", value]
            }
        }
        return result
    }

    struct EnvironmentError: Error, CustomStringConvertible {
        var description: String
    }
}
