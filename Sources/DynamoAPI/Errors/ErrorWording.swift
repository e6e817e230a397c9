/// Which of DynamoDB's two `ValidationException` wordings the server answers in.
///
/// In June 2026 DynamoDB began rolling out a new wording of its request validation, region by
/// region (captured in four regions on 2026-06-09 by the dynamodb-conformance suite: eu-west-2
/// and eu-central-1 new, us-east-1 and ap-southeast-2 old; us-east-1 new by 2026-08-12): many
/// bespoke messages gained the `1 validation error detected: ` envelope, an empty `TableName`
/// reads `Value at 'TableName'` and is reported alone, `ReturnValues` became a bare enum
/// violation, duplicate set members are quoted. ``v2026`` is the default; ``v2025`` answers as the
/// regions that had not changed yet (eu-south-2 and me-central-1 on 2026-10-07).
///
/// A message the rollout changed is one ``DynamoError`` carrying both forms (its `message` in
/// 2026 words and `message2025`), written once in its module's message catalog; the server picks
/// the form when it renders the answer (``DynamoError/worded(_:)``); a list of constraint
/// violations is rendered in both forms (which violations are listed, in which order).
public enum ErrorWording: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The wording before the rollout (us-east-1 and ap-southeast-2 on 2026-06-09).
    case v2025 = "2025"
    /// The wording after the rollout (eu-west-2 and eu-central-1 on 2026-06-09, us-east-1 on
    /// 2026-08-12 and in the 2026-10 recordings). The default.
    case v2026 = "2026"

    /// The wording a server answers in unless told otherwise.
    public static let `default` = ErrorWording.v2026

    /// `2025` or `2026`, as `serve --error-wording` and `LOCALDYNAMO_ERROR_WORDING` spell it.
    public var description: String { rawValue }
}
