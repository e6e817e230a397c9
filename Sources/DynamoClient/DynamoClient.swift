/// A DynamoDB client over libcurl with SigV4 signing.
public enum DynamoClientModule {}
