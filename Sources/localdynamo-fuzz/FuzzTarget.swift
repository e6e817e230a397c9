/// One part of the request path under fuzzing: takes any bytes and says how it answered.
///
/// Every answer is fine except a crash (the process dies; `CrashGuard` saves the input) or a
/// hang (`CrashGuard`'s watchdog); a target also reports a broken property (for example, JSON
/// that does not read back as written) by returning a label starting with `BUG`.
protocol FuzzTarget {
    /// The target's name on the command line and its corpus folder.
    var name: String { get }
    /// The folders of `Tests/fuzz/corpus/` it starts from (its name, unless it shares another's).
    var corpusFolders: [String] { get }
    /// The longest input worth trying: a little past the longest text the server lets through to
    /// this part (DynamoDB's limits: 8,192 characters a PartiQL statement, 4,096 bytes an
    /// expression), 64 KiB otherwise.
    var maximumInputSize: Int { get }
    /// Tokens the mutator inserts (keywords, punctuation, type names).
    var dictionary: [String] { get }
    /// Turns a corpus file into the bytes `run` takes (most targets use the file as it is).
    func prepare(corpusEntry: [UInt8], fileName: String) -> [UInt8]
    /// Runs one input; returns a short outcome label (`ok`, an error code, `BUG: ...`).
    func run(_ input: [UInt8]) -> String
    /// A mutation that knows the input's structure, or `nil` to use the byte mutator's.
    func mutateStructurally(_ input: [UInt8], using mutator: inout Mutator) -> [UInt8]?
}

extension FuzzTarget {
    var corpusFolders: [String] { [name] }
    var maximumInputSize: Int { Mutator.maximumSize }

    func prepare(corpusEntry: [UInt8], fileName: String) -> [UInt8] { corpusEntry }

    func mutateStructurally(_ input: [UInt8], using mutator: inout Mutator) -> [UInt8]? { nil }
}
