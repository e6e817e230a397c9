import DynamoAPI

/// An operation input whose members DynamoDB's endpoint rules read: the `contextParam` members
/// and `operationContextParams` of the model (a table or resource ARN, the tables of a batch or
/// transaction) and its `staticContextParams` (`IsSearchOperation`). The conformances are
/// generated (`Generated/EndpointParameters.swift`).
protocol EndpointParameterInput {
    /// The rules' `ResourceArn`: the table (name or ARN) or resource the request names.
    var endpointResourceArn: String? { get }
    /// The rules' `ResourceArnList`: the tables of a batch or transaction, in request order.
    var endpointResourceArnList: [String] { get }
    /// The rules' `IsSearchOperation`: `SearchVectors`, which has a host of its own.
    static var isSearchOperation: Bool { get }
}

extension EndpointParameterInput {
    var endpointResourceArn: String? { nil }
    var endpointResourceArnList: [String] { [] }
    static var isSearchOperation: Bool { false }
}

/// What DynamoDB's endpoint rules read from one request.
package struct EndpointParameters: Sendable, Hashable {
    var resourceArn: String?
    var resourceArnList: [String] = []
    var isSearchOperation = false

    /// A request that offers the rules nothing (a body sent as it is, a Streams request).
    package static let none = EndpointParameters()

    init(resourceArn: String? = nil, resourceArnList: [String] = [], isSearchOperation: Bool = false) {
        self.resourceArn = resourceArn
        self.resourceArnList = resourceArnList
        self.isSearchOperation = isSearchOperation
    }

    /// The parameters of an input (none for an input the rules read nothing from).
    ///
    /// - Parameter readsResources: Whether the resource ARNs are wanted: only account-based
    ///   endpoints read them, so a client with a configured endpoint does not build a
    ///   transaction's list of tables per request.
    init(of input: some DynamoShape, readsResources: Bool = true) {
        guard let input = input as? any EndpointParameterInput else {
            self.init()
            return
        }
        self.init(
            resourceArn: readsResources ? input.endpointResourceArn : nil,
            resourceArnList: readsResources ? input.endpointResourceArnList : [],
            isSearchOperation: type(of: input).isSearchOperation)
    }
}
