"""Query / Scan messages measured against real DynamoDB by the dynamodb-conformance
suite (tests/tier3/error-messages/query.test.ts and scan.test.ts)."""

from __future__ import annotations

from ddb_helpers import expect_error


def test_query_names_no_reason_for_a_malformed_start_key(ddb, range_table):
    # Query gives the bare sentence; Scan adds the reason (test_reads.py).
    with expect_error("ValidationException", "The provided starting key is invalid"):
        ddb.query(TableName=range_table, KeyConditionExpression="pk = :v",
                  ExpressionAttributeValues={":v": {"S": "val"}},
                  ExclusiveStartKey={"bad": {"S": "p"}})


def test_query_on_an_index_names_no_reason_for_a_malformed_start_key(ddb, make_table):
    table = make_table(
        ("pk", "S"), ("sk", "S"),
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"} for a in ("pk", "sk", "g")],
        GlobalSecondaryIndexes=[{"IndexName": "gsi1", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"}}],
    )
    with expect_error("ValidationException", "The provided starting key is invalid"):
        ddb.query(TableName=table, IndexName="gsi1", KeyConditionExpression="g = :v",
                  ExpressionAttributeValues={":v": {"S": "val"}},
                  ExclusiveStartKey={"pk": {"S": "p"}})


def test_scan_keeps_the_reason_for_a_malformed_start_key(ddb, range_table):
    with expect_error("ValidationException",
                      "The provided starting key is invalid: The provided key element does not match the schema"):
        ddb.scan(TableName=range_table, ExclusiveStartKey={"bad": {"S": "p"}})
