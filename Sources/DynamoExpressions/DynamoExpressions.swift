/// DynamoDB's expression language: condition, filter, key condition, update and projection
/// expressions, and the legacy parameters translated into the same forms.
public enum DynamoExpressions {}
