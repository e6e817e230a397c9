"""BatchWriteItem / BatchGetItem messages measured against real DynamoDB by the
dynamodb-conformance suite (tests/tier3/error-messages, captures/2026-08-12-*)."""

from __future__ import annotations

import pytest

from ddb_helpers import check_raw_error, expect_error


def test_empty_request_items_has_its_own_message(raw):
    # Never the generic Value '{}' dump. BatchWriteItem keeps its own sentence (28 of 33
    # regions, paritysuite 2026-10-07); BatchGetItem's moved to the length violation in the 2026
    # wording (paritysuite batchGetItem.test.ts: every region but me-central-1 by 2026-09-02).
    # The 2025 forms are the corpus's (batch_get_item.json, run under --error-wording 2025).
    check_raw_error(
        raw.call("BatchWriteItem", {"RequestItems": {}}),
        "ValidationException",
        "The requestItems parameter is required for BatchWriteItem",
    )
    check_raw_error(
        raw.call("BatchGetItem", {"RequestItems": {}}),
        "ValidationException",
        "1 validation error detected: Value at 'RequestItems' failed to satisfy constraint: "
        "Member must have length greater than or equal to 1",
    )


def test_batch_get_over_100_keys_of_one_table_names_no_value(raw, hash_table):
    keys = [{"pk": {"S": f"k{i}"}} for i in range(101)]
    response = raw.call("BatchGetItem", {"RequestItems": {hash_table: {"Keys": keys}}})
    suffix = "failed to satisfy constraint: Member must have length less than or equal to 100"
    check_raw_error(
        response,
        "ValidationException",
        f"1 validation error detected: Value at 'RequestItems.{hash_table}.member.Keys' {suffix}",
        alternatives=[f"1 validation error detected: Value at 'requestItems.{hash_table}.member.keys' {suffix}"],
    )


def test_batch_write_over_25_requests_dumps_the_map(raw, hash_table):
    requests = [{"PutRequest": {"Item": {"pk": {"S": f"k{i}"}}}} for i in range(26)]
    body = check_raw_error(raw.call("BatchWriteItem", {"RequestItems": {hash_table: requests}}),
                           "ValidationException")
    message = body["message"]
    assert message.startswith(f"1 validation error detected: Value '{{{hash_table}=[")
    assert message.endswith(
        "]}' at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: "
        "[Member must have length less than or equal to 25, Member must have length greater than or equal to 1]"
    )


@pytest.mark.parametrize("value", [{"N": "5"}, {"L": [{"S": "x"}]}], ids=["number", "list"])
def test_batch_write_put_with_a_wrongly_typed_key_is_a_schema_mismatch(ddb, hash_table, value):
    with expect_error("ValidationException", "The provided key element does not match the schema"):
        ddb.batch_write_item(RequestItems={hash_table: [
            {"PutRequest": {"Item": {"pk": {"S": "bw-first"}}}},
            {"PutRequest": {"Item": {"pk": value}}},
        ]})
    assert "Item" not in ddb.get_item(TableName=hash_table, Key={"pk": {"S": "bw-first"}})


def test_batch_write_empty_key_values_keep_their_own_message(ddb, hash_table):
    with expect_error("ValidationException",
                      "One or more parameter values are not valid. The AttributeValue for a key attribute "
                      "cannot contain an empty string value. Key: pk"):
        ddb.batch_write_item(RequestItems={hash_table: [{"PutRequest": {"Item": {"pk": {"S": ""}}}}]})


def test_batch_get_refuses_projection_styles_mixed_across_tables(ddb, hash_table, range_table):
    with expect_error("ValidationException", contains=["Can not use both expression and non-expression parameters"]):
        ddb.batch_get_item(RequestItems={
            hash_table: {"Keys": [{"pk": {"S": "a"}}], "ProjectionExpression": "pk"},
            range_table: {"Keys": [{"pk": {"S": "b"}, "sk": {"N": "1"}}], "AttributesToGet": ["pk"]},
        })


def test_batch_get_empty_keys_names_no_value(raw, hash_table):
    suffix = "failed to satisfy constraint: Member must have length greater than or equal to 1"
    check_raw_error(
        raw.call("BatchGetItem", {"RequestItems": {hash_table: {"Keys": []}}}),
        "ValidationException",
        f"1 validation error detected: Value at 'RequestItems.{hash_table}.member.Keys' {suffix}",
        alternatives=[f"1 validation error detected: Value at 'requestItems.{hash_table}.member.keys' {suffix}"],
    )
