"""TransactGetItems / TransactWriteItems behaviour measured against real DynamoDB by the
dynamodb-conformance suite (tests/tier2/transactions, tests/tier3/error-messages)."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError

from ddb_helpers import check_raw_error, expect_error

CANCELLED = "Transaction cancelled, please refer cancellation reasons for specific reasons "


def test_transact_get_with_an_empty_key_is_cancelled_with_a_validation_error(ddb, hash_table):
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "tg-present"}})
    with pytest.raises(ClientError) as caught:
        ddb.transact_get_items(TransactItems=[
            {"Get": {"TableName": hash_table, "Key": {"pk": {"S": "tg-present"}}}},
            {"Get": {"TableName": hash_table, "Key": {}}},
        ])
    response = caught.value.response
    assert response["Error"]["Code"] == "TransactionCanceledException"
    assert response["Error"]["Message"] == CANCELLED + "[None, ValidationError]"
    assert [reason["Code"] for reason in response["CancellationReasons"]] == ["None", "ValidationError"]


def test_transact_get_refuses_two_gets_of_one_item(ddb, hash_table):
    key = {"pk": {"S": "tg-twice"}}
    with expect_error("ValidationException"):
        ddb.transact_get_items(TransactItems=[
            {"Get": {"TableName": hash_table, "Key": key}},
            {"Get": {"TableName": hash_table, "Key": key}},
        ])


def test_cancellation_reasons_are_positional(ddb, hash_table):
    ddb.put_item(TableName=hash_table, Item={"pk": {"S": "tw-taken"}})
    with pytest.raises(ClientError) as caught:
        ddb.transact_write_items(TransactItems=[
            {"Put": {"TableName": hash_table, "Item": {"pk": {"S": k}},
                     "ConditionExpression": "attribute_not_exists(pk)"}}
            for k in ("tw-fresh", "tw-taken")
        ])
    response = caught.value.response
    assert response["Error"]["Message"] == CANCELLED + "[None, ConditionalCheckFailed]"
    reasons = response["CancellationReasons"]
    assert [reason["Code"] for reason in reasons] == ["None", "ConditionalCheckFailed"]
    assert reasons[1]["Message"] == "The conditional request failed"
    assert "Item" not in ddb.get_item(TableName=hash_table, Key={"pk": {"S": "tw-fresh"}})


EMPTY_STRING_KEY = ("One or more parameter values are not valid. The AttributeValue for a key attribute "
                    "cannot contain an empty string value. Key: pk")
SCHEMA_MISMATCH = "The provided key element does not match the schema"


def _cancelled_with_validation_error(ddb, items):
    with pytest.raises(ClientError) as caught:
        ddb.transact_write_items(TransactItems=items)
    response = caught.value.response
    assert response["Error"]["Code"] == "TransactionCanceledException"
    assert response["Error"]["Message"] == CANCELLED + "[ValidationError]"
    reasons = response["CancellationReasons"]
    assert [reason["Code"] for reason in reasons] == ["ValidationError"]
    return reasons[0]["Message"]


@pytest.mark.parametrize("value, actual", [({"N": "5"}, "N"), ({"L": [{"S": "x"}]}, "L")])
def test_put_with_a_wrongly_typed_key_is_cancelled(ddb, hash_table, value, actual):
    message = _cancelled_with_validation_error(ddb, [{"Put": {"TableName": hash_table, "Item": {"pk": value}}}])
    assert message == f"One or more parameter values were invalid: Type mismatch for key pk expected: S actual: {actual}"


def _keyed_action(kind, table, key):
    if kind == "Update":
        return {"Update": {"TableName": table, "Key": {"pk": key}, "UpdateExpression": "SET attr1 = :v",
                           "ExpressionAttributeValues": {":v": {"S": "x"}}}}
    if kind == "Delete":
        return {"Delete": {"TableName": table, "Key": {"pk": key}}}
    return {"ConditionCheck": {"TableName": table, "Key": {"pk": key},
                               "ConditionExpression": "attribute_not_exists(pk)"}}


@pytest.mark.parametrize("kind", ["Update", "Delete", "ConditionCheck"])
@pytest.mark.parametrize("value", [{"N": "5"}, {"L": [{"S": "x"}]}], ids=["number", "list"])
def test_a_wrongly_typed_key_cancels_with_the_schema_mismatch_reason(ddb, hash_table, kind, value):
    assert _cancelled_with_validation_error(ddb, [_keyed_action(kind, hash_table, value)]) == SCHEMA_MISMATCH


@pytest.mark.parametrize("kind", ["Update", "Delete", "ConditionCheck"])
def test_an_empty_key_value_fails_the_whole_request(ddb, hash_table, kind):
    with expect_error("ValidationException", EMPTY_STRING_KEY):
        ddb.transact_write_items(TransactItems=[_keyed_action(kind, hash_table, {"S": ""})])
    with expect_error("ValidationException", EMPTY_STRING_KEY):
        ddb.transact_write_items(TransactItems=[{"Put": {"TableName": hash_table, "Item": {"pk": {"S": ""}}}}])


def test_an_unused_value_on_a_later_action_fails_the_request_and_writes_nothing(ddb, hash_table):
    first = {"pk": {"S": "tw-unused-first"}}
    with expect_error("ValidationException",
                      "Value provided in ExpressionAttributeValues unused in expressions: keys: {:v}"):
        ddb.transact_write_items(TransactItems=[
            {"Put": {"TableName": hash_table, "Item": first}},
            {"ConditionCheck": {"TableName": hash_table, "Key": {"pk": {"S": "x"}},
                                "ConditionExpression": "attribute_not_exists(pk)",
                                "ExpressionAttributeValues": {":v": {"S": "x"}}}},
        ])
    assert "Item" not in ddb.get_item(TableName=hash_table, Key=first, ConsistentRead=True)


def test_an_action_with_no_operation_is_refused(raw, hash_table):
    check_raw_error(
        raw.call("TransactWriteItems", {"TransactItems": [{}]}),
        "ValidationException",
        "Invalid Request: TransactWriteRequest should contain Delete or Put or Update request",
        alternatives=["1 validation error detected: Value '' at 'transactItems' failed to satisfy constraint: "
                      "TransactWriteRequest should contain Delete or Put or Update or ConditionCheck"],
    )


# Which failure wins when a TransactWriteItems has several, measured by the paritysuite
# dynamodb-conformance suite (tests/tier3/validation-ordering/transactions.test.ts): every
# action's expressions and a Put's nesting depth are read, in request order, before any table
# is looked up.

SYNTAX = 'Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "("'
TOO_DEEP = ("Nesting Levels have exceeded supported limits: "
            "Attributes in the item have nested levels beyond supported limit")


def _malformed_check(table):
    return {"ConditionCheck": {"TableName": table, "Key": {"pk": {"S": "tw-order-cc"}},
                               "ConditionExpression": "attribute_not_exists("}}


def _deep_put(table):
    value = {"S": "leaf"}
    for _ in range(32):
        value = {"M": {"n": value}}
    return {"Put": {"TableName": table, "Item": {"pk": {"S": "tw-order-deep"}, "data": value}}}


def _missing_table_put():
    return {"Put": {"TableName": "tw_order_no_such_table", "Item": {"pk": {"S": "a"}}}}


def test_a_malformed_condition_on_a_later_action_wins_over_a_missing_table(ddb, hash_table):
    with expect_error("ValidationException", SYNTAX):
        ddb.transact_write_items(TransactItems=[_missing_table_put(), _malformed_check(hash_table)])


def test_an_unused_value_on_either_action_wins_over_a_missing_table(ddb, hash_table):
    unused = {"ConditionCheck": {"TableName": hash_table, "Key": {"pk": {"S": "tw-order-cc"}},
                                 "ConditionExpression": "attribute_not_exists(pk)",
                                 "ExpressionAttributeValues": {":v": {"S": "x"}}}}
    message = "Value provided in ExpressionAttributeValues unused in expressions: keys: {:v}"
    with expect_error("ValidationException", message):
        ddb.transact_write_items(TransactItems=[_missing_table_put(), unused])
    with expect_error("ValidationException", message):
        ddb.transact_write_items(TransactItems=[unused, _missing_table_put()])


def test_between_a_malformed_condition_and_a_too_deep_item_the_first_action_wins(ddb, hash_table):
    with expect_error("ValidationException", SYNTAX):
        ddb.transact_write_items(TransactItems=[_malformed_check(hash_table), _deep_put(hash_table)])
    with expect_error("ValidationException", TOO_DEEP):
        ddb.transact_write_items(TransactItems=[_deep_put(hash_table), _malformed_check(hash_table)])
    assert "Item" not in ddb.get_item(TableName=hash_table, Key={"pk": {"S": "tw-order-deep"}}, ConsistentRead=True)
