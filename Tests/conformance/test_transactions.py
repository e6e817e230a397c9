"""TransactWriteItems and TransactGetItems: all or nothing, cancellation reasons, idempotency."""

from __future__ import annotations

import uuid

import pytest
from botocore.exceptions import ClientError

from ddb_helpers import expect_error


@pytest.fixture
def accounts(ddb, make_table):
    table = make_table(("pk", "S"))
    ddb.put_item(TableName=table, Item={"pk": {"S": "a"}, "balance": {"N": "100"}})
    ddb.put_item(TableName=table, Item={"pk": {"S": "b"}, "balance": {"N": "0"}})
    return table


def transfer(table: str, amount: int) -> list[dict]:
    value = {":amount": {"N": str(amount)}}
    return [
        {"Update": {"TableName": table, "Key": {"pk": {"S": "a"}}, "UpdateExpression": "SET balance = balance - :amount",
                    "ConditionExpression": "balance >= :amount", "ExpressionAttributeValues": value}},
        {"Update": {"TableName": table, "Key": {"pk": {"S": "b"}}, "UpdateExpression": "SET balance = balance + :amount",
                    "ExpressionAttributeValues": value}},
    ]


def balance(ddb, table: str, pk: str) -> str:
    return ddb.get_item(TableName=table, Key={"pk": {"S": pk}}, ConsistentRead=True)["Item"]["balance"]["N"]


def test_transaction_commits_every_action(ddb, accounts):
    result = ddb.transact_write_items(TransactItems=transfer(accounts, 30), ReturnConsumedCapacity="TOTAL")
    assert result["ConsumedCapacity"] == [{"TableName": accounts, "CapacityUnits": 4.0}]
    assert (balance(ddb, accounts, "a"), balance(ddb, accounts, "b")) == ("70", "30")


def test_failed_condition_cancels_everything_with_reasons_in_order(ddb, accounts):
    items = transfer(accounts, 500)
    items[0]["Update"]["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD"
    with pytest.raises(ClientError) as caught:
        ddb.transact_write_items(TransactItems=items)
    error = caught.value.response
    assert error["Error"]["Code"] == "TransactionCanceledException"
    assert error["Error"]["Message"] == (
        "Transaction cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None]")
    assert error["CancellationReasons"] == [
        {"Code": "ConditionalCheckFailed", "Message": "The conditional request failed",
         "Item": {"pk": {"S": "a"}, "balance": {"N": "100"}}},
        {"Code": "None"},
    ]
    assert (balance(ddb, accounts, "a"), balance(ddb, accounts, "b")) == ("100", "0")


def test_condition_check_put_and_delete(ddb, accounts):
    ddb.transact_write_items(TransactItems=[
        {"ConditionCheck": {"TableName": accounts, "Key": {"pk": {"S": "a"}}, "ConditionExpression": "attribute_exists(pk)"}},
        {"Put": {"TableName": accounts, "Item": {"pk": {"S": "c"}, "balance": {"N": "5"}},
                 "ConditionExpression": "attribute_not_exists(pk)"}},
        {"Delete": {"TableName": accounts, "Key": {"pk": {"S": "b"}}}},
    ])
    assert balance(ddb, accounts, "c") == "5"
    assert "Item" not in ddb.get_item(TableName=accounts, Key={"pk": {"S": "b"}})


def test_two_actions_on_one_item_are_rejected(ddb, accounts):
    with expect_error("ValidationException", "Transaction request cannot include multiple operations on one item"):
        ddb.transact_write_items(TransactItems=[
            {"Delete": {"TableName": accounts, "Key": {"pk": {"S": "a"}}}},
            {"ConditionCheck": {"TableName": accounts, "Key": {"pk": {"S": "a"}}, "ConditionExpression": "attribute_exists(pk)"}},
        ])


def test_client_request_token_makes_retries_idempotent(ddb, accounts):
    token = str(uuid.uuid4())
    ddb.transact_write_items(TransactItems=transfer(accounts, 10), ClientRequestToken=token)
    ddb.transact_write_items(TransactItems=transfer(accounts, 10), ClientRequestToken=token)
    assert balance(ddb, accounts, "a") == "90"
    with expect_error("IdempotentParameterMismatchException"):
        ddb.transact_write_items(TransactItems=transfer(accounts, 20), ClientRequestToken=token)
    assert balance(ddb, accounts, "a") == "90"


def test_transact_get_items_reads_a_snapshot(ddb, accounts):
    response = ddb.transact_get_items(TransactItems=[
        {"Get": {"TableName": accounts, "Key": {"pk": {"S": "a"}}, "ProjectionExpression": "balance"}},
        {"Get": {"TableName": accounts, "Key": {"pk": {"S": "missing"}}}},
    ], ReturnConsumedCapacity="TOTAL")
    assert response["Responses"] == [{"Item": {"balance": {"N": "100"}}}, {}]
    assert response["ConsumedCapacity"] == [{"TableName": accounts, "CapacityUnits": 4.0}]


def test_transaction_on_missing_table(ddb):
    with expect_error("ResourceNotFoundException", "Requested resource not found"):
        ddb.transact_write_items(TransactItems=[{"Delete": {"TableName": "no-such-table", "Key": {"pk": {"S": "a"}}}}])


def test_injected_conflicts_cancel_the_next_transactions(ddb, accounts):
    """X-LocalDynamo-Transaction-Conflicts arms conflicts so retry code can be tested."""
    import boto3
    from botocore.config import Config

    armed = boto3.client("dynamodb", endpoint_url=ddb.meta.endpoint_url, region_name="us-east-1",
                         aws_access_key_id="testing", aws_secret_access_key="testing",
                         config=Config(retries={"max_attempts": 1, "mode": "standard"}))
    armed.meta.events.register(
        "before-sign.dynamodb.DescribeTable",
        lambda request, **_: request.headers.add_header("X-LocalDynamo-Transaction-Conflicts", f"{accounts}=2"))
    armed.describe_table(TableName=accounts)
    for _ in range(2):
        with pytest.raises(ClientError) as caught:
            ddb.transact_write_items(TransactItems=transfer(accounts, 10))
        assert caught.value.response["Error"]["Code"] == "TransactionCanceledException"
        assert caught.value.response["CancellationReasons"] == [
            {"Code": "TransactionConflict", "Message": "Transaction is ongoing for the item"},
            {"Code": "TransactionConflict", "Message": "Transaction is ongoing for the item"},
        ]
    assert balance(ddb, accounts, "a") == "100"
    ddb.transact_write_items(TransactItems=transfer(accounts, 10))
    assert balance(ddb, accounts, "a") == "90"


def _armed_client(ddb, header_value: str):
    """A client whose DescribeTable calls carry X-LocalDynamo-Transaction-Conflicts, without retries."""
    import boto3
    from botocore.config import Config

    armed = boto3.client("dynamodb", endpoint_url=ddb.meta.endpoint_url, region_name="us-east-1",
                         aws_access_key_id="testing", aws_secret_access_key="testing",
                         config=Config(retries={"max_attempts": 1, "mode": "standard"}))
    armed.meta.events.register(
        "before-sign.dynamodb.DescribeTable",
        lambda request, **_: request.headers.add_header("X-LocalDynamo-Transaction-Conflicts", header_value))
    return armed


def test_injected_conflicts_refuse_plain_writes(ddb, accounts):
    """An armed table stands for another transaction holding its items: plain writes conflict too."""
    armed = _armed_client(ddb, f"{accounts}=3")
    armed.describe_table(TableName=accounts)
    key = {"pk": {"S": "a"}}
    attempts = [
        lambda client: client.put_item(TableName=accounts, Item={"pk": {"S": "a"}, "balance": {"N": "0"}}),
        lambda client: client.update_item(TableName=accounts, Key=key, UpdateExpression="SET balance = :z",
                                          ExpressionAttributeValues={":z": {"N": "0"}}),
        lambda client: client.delete_item(TableName=accounts, Key=key),
    ]
    for attempt in attempts:
        with expect_error("TransactionConflictException", "Transaction is ongoing for the item"):
            attempt(armed)
    # Reads never conflict, and nothing was written.
    assert balance(ddb, accounts, "a") == "100"
    # Each refused write used up one conflict: the next write goes through.
    ddb.update_item(TableName=accounts, Key=key, UpdateExpression="SET balance = :b",
                    ExpressionAttributeValues={":b": {"N": "99"}})
    assert balance(ddb, accounts, "a") == "99"


@pytest.mark.skipif(bool(__import__("os").environ.get("LOCALDYNAMO_ENDPOINT")),
                    reason="needs to start its own server process")
def test_transaction_conflicts_flag_arms_tables_at_startup():
    import boto3
    from botocore.config import Config

    from conftest import ServerProcess, _resolve_binary

    server = ServerProcess(_resolve_binary(), ["--in-memory", "--transaction-conflicts", "Ledger=1",
                                               "--transaction-conflicts", "Other=0"])
    url = server.start()
    try:
        client = boto3.client("dynamodb", endpoint_url=url, region_name="eu-west-1", aws_access_key_id="k",
                              aws_secret_access_key="s", config=Config(retries={"max_attempts": 1, "mode": "standard"}))
        client.create_table(TableName="Ledger", AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}], BillingMode="PAY_PER_REQUEST")
        put = {"Put": {"TableName": "Ledger", "Item": {"pk": {"S": "a"}}}}
        with pytest.raises(ClientError) as caught:
            client.transact_write_items(TransactItems=[put])
        assert caught.value.response["CancellationReasons"] == [
            {"Code": "TransactionConflict", "Message": "Transaction is ongoing for the item"}]
        client.transact_write_items(TransactItems=[put])
        assert client.get_item(TableName="Ledger", Key={"pk": {"S": "a"}})["Item"] == {"pk": {"S": "a"}}
    finally:
        server.stop()


def test_transaction_aggregate_size_is_limited_to_4mb(ddb, make_table):
    table = make_table(("pk", "S"))
    # 11 items of 390,000 bytes: 4.29 MB in all, over 4 MB (4,194,304 bytes); each under 400 KB.
    big = [{"Put": {"TableName": table, "Item": {"pk": {"S": f"k{i:02d}"}, "v": {"S": "x" * (390_000 - 6)}}}}
           for i in range(11)]
    with expect_error("ValidationException", "The aggregate size of the items in the transaction cannot exceed 4 MB"):
        ddb.transact_write_items(TransactItems=big)
    assert ddb.scan(TableName=table, Select="COUNT")["Count"] == 0
    # 10 of them (3.9 MB) commit.
    ddb.transact_write_items(TransactItems=big[:10])
    pages = ddb.get_paginator("scan").paginate(TableName=table, Select="COUNT")
    assert sum(page["Count"] for page in pages) == 10
