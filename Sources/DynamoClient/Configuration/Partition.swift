/// An AWS partition as botocore's `partitions.json` describes it: the regions it holds and the
/// DNS suffixes of their endpoints.
struct Partition: Sendable, Hashable {
    /// `aws`, `aws-cn`, `aws-us-gov` …
    var name: String
    /// `amazonaws.com`, `amazonaws.com.cn` …
    var dnsSuffix: String
    /// `api.aws`, `api.amazonwebservices.com.cn` …
    var dualStackDnsSuffix: String

    /// The partitions other than `aws`, each with the region prefix its `regionRegex` matches
    /// (`^cn\-\w+\-\d+$` and so on).
    private static let others: [(prefix: String, partition: Partition)] = [
        ("cn-", Partition(name: "aws-cn", dnsSuffix: "amazonaws.com.cn", dualStackDnsSuffix: "api.amazonwebservices.com.cn")),
        ("eusc-de-", Partition(name: "aws-eusc", dnsSuffix: "amazonaws.eu", dualStackDnsSuffix: "api.amazonwebservices.eu")),
        ("us-iso-", Partition(name: "aws-iso", dnsSuffix: "c2s.ic.gov", dualStackDnsSuffix: "api.aws.ic.gov")),
        ("us-isob-", Partition(name: "aws-iso-b", dnsSuffix: "sc2s.sgov.gov", dualStackDnsSuffix: "api.aws.scloud")),
        ("eu-isoe-", Partition(name: "aws-iso-e", dnsSuffix: "cloud.adc-e.uk", dualStackDnsSuffix: "api.cloud-aws.adc-e.uk")),
        ("us-isof-", Partition(name: "aws-iso-f", dnsSuffix: "csp.hci.ic.gov", dualStackDnsSuffix: "api.aws.hci.ic.gov")),
        ("us-gov-", Partition(name: "aws-us-gov", dnsSuffix: "amazonaws.com", dualStackDnsSuffix: "api.aws")),
    ]

    /// The `aws` partition, also of any region no other partition claims (as botocore's
    /// resolver falls back to it).
    static let aws = Partition(name: "aws", dnsSuffix: "amazonaws.com", dualStackDnsSuffix: "api.aws")

    /// The partition of a region.
    static func of(region: String) -> Partition {
        others.first { region.hasPrefix($0.prefix) }?.partition ?? aws
    }

    /// The suffix of an endpoint host, dual-stack or not.
    func suffix(dualStack: Bool) -> String { dualStack ? dualStackDnsSuffix : dnsSuffix }
}
