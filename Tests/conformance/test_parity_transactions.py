"""TransactGetItems / TransactWriteItems behaviour measured against real DynamoDB by the
dynamodb-conformance suite (tests/tier2/transactions, tests/tier3/error-messages)."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError

from ddb_helpers import expect_error

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
