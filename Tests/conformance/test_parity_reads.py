"""Query / Scan messages measured against real DynamoDB by the dynamodb-conformance
suite (tests/tier3/error-messages/query.test.ts and scan.test.ts)."""

from __future__ import annotations

import pytest

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


def test_scan_words_a_malformed_start_key_as_query_does(ddb, range_table):
    # The 2026 wording: Scan's sentence lost its reason in a later wave (paritysuite
    # registry/splits.json scan-bad-start-key-message, eu-west-2 from 2026-09-26); the 2025
    # form, with ': The provided key element does not match the schema', is in corpus/scan.json.
    with expect_error("ValidationException", "The provided starting key is invalid"):
        ddb.scan(TableName=range_table, ExclusiveStartKey={"bad": {"S": "p"}})


# A start key naming an attribute the table's key does not have (a sort key on a table without
# one): the sentence of any start key that does not fit the schema (dynalite compares the start
# key's attribute count with the key schema's; its tests were recorded against the service).

def test_query_refuses_a_start_key_with_an_extra_attribute(ddb, hash_table):
    with expect_error("ValidationException", "The provided starting key is invalid"):
        ddb.query(TableName=hash_table, KeyConditionExpression="pk = :v",
                  ExpressionAttributeValues={":v": {"S": "a"}},
                  ExclusiveStartKey={"pk": {"S": "a"}, "sk": {"S": "x"}})


def test_scan_refuses_a_start_key_with_an_extra_attribute(ddb, hash_table):
    with expect_error("ValidationException", "The provided starting key is invalid"):
        ddb.scan(TableName=hash_table, ExclusiveStartKey={"pk": {"S": "a"}, "sk": {"S": "x"}})


# KeyConditionExpression checks measured against real DynamoDB by the paritysuite
# dynamodb-conformance suite (tests/tier3/error-messages/queryKeyConditionOperands.test.ts
# and tests/tier3/validation-ordering/queryKeyCondition.test.ts).

def _operand(op: str, type_: str) -> str:
    return ("Invalid KeyConditionExpression: Incorrect operand type for operator or function; "
            f"operator or function: {op}, operand type: {type_}")


def test_query_refuses_two_conditions_on_the_sort_key_as_an_invalid_expression(ddb, range_table):
    with expect_error("ValidationException",
                      "Invalid KeyConditionExpression: KeyConditionExpressions must only contain one condition per key"):
        ddb.query(TableName=range_table, KeyConditionExpression="pk = :p AND sk > :a AND sk < :b",
                  ExpressionAttributeValues={":p": {"S": "q"}, ":a": {"N": "1"}, ":b": {"N": "5"}})


def test_query_counts_conditions_against_the_key_attributes_before_matching_them(ddb, range_table):
    with expect_error("ValidationException",
                      "The number of query conditions (3) exceeds the number of key attributes defined in the schema (2)"):
        ddb.query(TableName=range_table, KeyConditionExpression="pk = :p AND sk > :a AND extra = :b",
                  ExpressionAttributeValues={":p": {"S": "q"}, ":a": {"N": "1"}, ":b": {"N": "5"}})


def test_query_with_as_many_conditions_as_keys_still_names_the_missed_key(ddb, range_table):
    with expect_error("ValidationException", "Query condition missed key schema element: sk"):
        ddb.query(TableName=range_table, KeyConditionExpression="pk = :p AND extra = :b",
                  ExpressionAttributeValues={":p": {"S": "q"}, ":b": {"N": "5"}})


def test_query_operand_types_no_key_could_match_fail_as_expression_errors(ddb, range_table):
    # Number sort key: begins_with on N, and BOOL in an ordering comparison, are expression
    # errors naming the operator; a string beside a number key fails the schema check.
    values = {":p": {"S": "q"}}
    with expect_error("ValidationException", _operand("begins_with", "N")):
        ddb.query(TableName=range_table, KeyConditionExpression="pk = :p AND begins_with(sk, :v)",
                  ExpressionAttributeValues={**values, ":v": {"N": "1"}})
    with expect_error("ValidationException", _operand(">=", "BOOL")):
        ddb.query(TableName=range_table, KeyConditionExpression="pk = :p AND :v >= sk",
                  ExpressionAttributeValues={**values, ":v": {"BOOL": True}})
    with expect_error("ValidationException", _operand("BETWEEN", "BOOL")):
        ddb.query(TableName=range_table, KeyConditionExpression="pk = :p AND sk BETWEEN :a AND :b",
                  ExpressionAttributeValues={**values, ":a": {"BOOL": False}, ":b": {"BOOL": True}})
    schema = "One or more parameter values were invalid: Condition parameter type does not match schema type"
    with expect_error("ValidationException", schema):
        ddb.query(TableName=range_table, KeyConditionExpression="pk = :p AND begins_with(sk, :v)",
                  ExpressionAttributeValues={**values, ":v": {"S": "a"}})
    with expect_error("ValidationException", schema):
        ddb.query(TableName=range_table, KeyConditionExpression="pk = :p AND sk = :v",
                  ExpressionAttributeValues={**values, ":v": {"BOOL": True}})


def test_query_reports_a_bad_operand_before_a_third_condition_or_a_missing_table(ddb, range_table):
    with expect_error("ValidationException", _operand("begins_with", "N")):
        ddb.query(TableName=range_table, KeyConditionExpression="pk = :p AND begins_with(sk, :n) AND sk > :s",
                  ExpressionAttributeValues={":p": {"S": "q"}, ":n": {"N": "1"}, ":s": {"N": "2"}})
    with expect_error("ValidationException", _operand("begins_with", "N")):
        ddb.query(TableName="parity_no_such_table", KeyConditionExpression="pk = :p AND begins_with(sk, :n)",
                  ExpressionAttributeValues={":p": {"S": "q"}, ":n": {"N": "1"}})


# Multi-attribute GSI keys, measured by paritysuite/dynamodb-conformance
# (tests/tier1/query/multiAttributeGsiKey.test.ts): one HASH and four RANGE attributes.

def _equality_needed(lacking: str, present: str) -> str:
    return (f"RANGE key attributes {lacking} must have equality conditions specified in the query "
            f"because a condition is present on key attribute {present}")


def test_multi_attribute_sort_conditions_need_equalities_to_their_left(ddb, make_table):
    table = make_table(
        ("pk", "S"),
        AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"} for n in ("pk", "h", "a", "b", "c", "d")],
        GlobalSecondaryIndexes=[{
            "IndexName": "gsi",
            "KeySchema": [{"AttributeName": "h", "KeyType": "HASH"}]
            + [{"AttributeName": n, "KeyType": "RANGE"} for n in "abcd"],
            "Projection": {"ProjectionType": "ALL"},
        }],
    )
    rows = [("p1", "T", "live", "b"), ("p2", "T", "live", "a"), ("p3", "T", "draft", "c"), ("p4", "F", "live", "a")]
    for pk, a, b, c in rows:
        ddb.put_item(TableName=table, Item={"pk": {"S": pk}, "h": {"S": "o"}, "a": {"S": a}, "b": {"S": b},
                                            "c": {"S": c}, "d": {"S": "r"}})
    values = {":h": {"S": "o"}, ":a": {"S": "T"}, ":b": {"S": "live"}, ":c": {"S": "a"}}

    def query(condition):
        used = {k: v for k, v in values.items() if k in condition}
        page = ddb.query(TableName=table, IndexName="gsi", KeyConditionExpression=condition,
                         ExpressionAttributeValues=used)
        return [item["pk"]["S"] for item in page["Items"]]

    assert query("b = :b AND h = :h AND a = :a") == ["p2", "p1"]
    assert query("h = :h AND a = :a AND b = :b AND c > :c") == ["p1"]
    with expect_error("ValidationException", _equality_needed("b", "c")):
        query("h = :h AND a = :a AND c = :c")
    with expect_error("ValidationException", _equality_needed("b", "c")):
        query("h = :h AND a = :a AND b > :b AND c = :c")
    with expect_error("ValidationException", _equality_needed("a", "b")):
        query("h = :h AND b = :b")


START_OUTSIDE = "The provided starting key is outside query boundaries based on provided conditions"
START_NOT_IN_RANGE = "The provided starting key does not match the range key predicate"


@pytest.mark.parametrize("condition, start_sk", [
    ("sk > :s", "5"), ("sk > :s", "4"), ("sk >= :s", "4"), ("sk < :s", "5"), ("sk <= :s", "6"),
    ("sk = :s", "6"), ("sk BETWEEN :s AND :t", "9"),
])
def test_query_start_key_outside_the_sort_condition_is_refused(ddb, range_table, condition, start_sk):
    # dynalite's capture of the service; a 2026 measurement of a forged cursor gives the same text.
    values = {":p": {"S": "esk"}, ":s": {"N": "5"}}
    if ":t" in condition:
        values[":t"] = {"N": "8"}
    with expect_error("ValidationException", START_NOT_IN_RANGE):
        ddb.query(TableName=range_table, KeyConditionExpression="pk = :p AND " + condition,
                  ExpressionAttributeValues=values, ExclusiveStartKey={"pk": {"S": "esk"}, "sk": {"N": start_sk}})


@pytest.mark.parametrize("condition, start_sk", [("sk > :s", "6"), ("sk >= :s", "5"), ("sk = :s", "5")])
def test_query_start_key_inside_the_sort_condition_is_accepted(ddb, range_table, condition, start_sk):
    ddb.query(TableName=range_table, KeyConditionExpression="pk = :p AND " + condition,
              ExpressionAttributeValues={":p": {"S": "esk"}, ":s": {"N": "5"}},
              ExclusiveStartKey={"pk": {"S": "esk"}, "sk": {"N": start_sk}})


def test_query_start_key_in_another_partition_is_outside_the_query(ddb, range_table):
    with expect_error("ValidationException", START_OUTSIDE):
        ddb.query(TableName=range_table, KeyConditionExpression="pk = :p",
                  ExpressionAttributeValues={":p": {"S": "esk"}},
                  ExclusiveStartKey={"pk": {"S": "other"}, "sk": {"N": "1"}})


def test_index_query_start_key_in_another_index_partition_is_outside_the_query(ddb, make_table):
    table = make_table(("pk", "S"), AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                                          {"AttributeName": "g", "AttributeType": "S"}],
                       GlobalSecondaryIndexes=[{"IndexName": "by-g", "Projection": {"ProjectionType": "ALL"},
                                                "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}]}])
    with expect_error("ValidationException", START_OUTSIDE):
        ddb.query(TableName=table, IndexName="by-g", KeyConditionExpression="g = :g",
                  ExpressionAttributeValues={":g": {"S": "one"}},
                  ExclusiveStartKey={"pk": {"S": "a"}, "g": {"S": "two"}})


def test_query_and_scan_word_a_zero_limit_alike(raw, range_table):
    # Both report the member capitalized and without its value in the 2026 wording (Scan since
    # a later wave: paritysuite registry/splits.json scan-limit-zero-message, eu-west-2 from
    # 2026-09-26); the 2025 forms are in the corpus. (Raw requests: boto3 refuses Limit 0.)
    query = raw.call("Query", {"TableName": range_table, "KeyConditionExpression": "pk = :v",
                               "ExpressionAttributeValues": {":v": {"S": "val"}}, "Limit": 0})
    assert query.status == 400 and query.json()["message"] == (
        "1 validation error detected: Value at 'Limit' failed to satisfy constraint: "
        "Member must have value greater than or equal to 1")
    scan = raw.call("Scan", {"TableName": range_table, "Limit": 0})
    assert scan.status == 400 and scan.json()["message"] == (
        "1 validation error detected: Value at 'Limit' failed to satisfy constraint: "
        "Member must have value greater than or equal to 1")
