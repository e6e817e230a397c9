import DynamoAPI
import Foundation

extension DynamoClient {
    /// The input with its idempotency token filled with a new UUID when the input has such a
    /// member (``IdempotentOperationInput``) and the caller left it `nil`; any other input as is.
    static func withIdempotencyToken<Input: DynamoShape>(_ input: Input) -> Input {
        guard let idempotent = input as? any IdempotentOperationInput else { return input }
        return filled(idempotent) as? Input ?? input
    }

    private static func filled<Input: IdempotentOperationInput>(_ input: Input) -> Input {
        guard input[keyPath: Input.idempotencyToken] == nil else { return input }
        var copy = input
        copy[keyPath: Input.idempotencyToken] = UUID().uuidString.lowercased()
        return copy
    }
}
