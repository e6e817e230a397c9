/// A reply and the operation it answers, as the request log and metrics name it (`GetItem`,
/// `console`, `admin /_localdynamo/clock` …).
struct Answer: Sendable {
    /// The response before framing.
    var reply: HTTPReply
    /// The operation label for the request log and metrics.
    var operation: String
}
