"""`serve --consistency service` through boto3: eventually consistent reads, a global index and
PartiQL lag a write, ConsistentRead, transactions and conditions never do, statuses take time,
and the admin API settles it all; `exact` (the default) answers every read at once."""

from __future__ import annotations

import os
import subprocess

import boto3
import pytest
from botocore.exceptions import ClientError

from conftest import ServerProcess, _resolve_binary
from ddb_helpers import admin_call as admin

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("LOCALDYNAMO_ENDPOINT")), reason="needs to start its own server process"
)

# Every write lags by up to an hour of the server clock: the real time the test takes never ends
# a lag, only a settle or a move of the clock does.
SERVICE = ["--in-memory", "--consistency", "service", "--consistency-seed", "5",
           "--consistency-stale-probability", "1", "--consistency-window", "3600"]


def client(url: str):
    return boto3.client("dynamodb", endpoint_url=url, region_name="us-east-1",
                        aws_access_key_id="k", aws_secret_access_key="s")


@pytest.fixture
def service():
    process = ServerProcess(_resolve_binary(), SERVICE)
    process.start()
    yield process
    process.stop()


def make_table(ddb) -> None:
    ddb.create_table(
        TableName="Orders", BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "customer", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[{"IndexName": "byCustomer", "Projection": {"ProjectionType": "ALL"},
                                 "KeySchema": [{"AttributeName": "customer", "KeyType": "HASH"}]}])


ORDER = {"pk": {"S": "o1"}, "customer": {"S": "c1"}}


def reads(ddb) -> dict:
    """Every kind of read of the order, each reduced to whether it found it."""
    key = {"pk": {"S": "o1"}}
    statement = "SELECT * FROM Orders WHERE pk = 'o1'"
    return {
        "GetItem": "Item" in ddb.get_item(TableName="Orders", Key=key),
        "BatchGetItem": bool(ddb.batch_get_item(RequestItems={"Orders": {"Keys": [key]}})["Responses"]["Orders"]),
        "Query byCustomer": ddb.query(TableName="Orders", IndexName="byCustomer", KeyConditionExpression="customer = :c",
                                      ExpressionAttributeValues={":c": {"S": "c1"}})["Count"] == 1,
        "Scan": ddb.scan(TableName="Orders")["Count"] == 1,
        "ExecuteStatement": bool(ddb.execute_statement(Statement=statement)["Items"]),
        "GetItem consistent": "Item" in ddb.get_item(TableName="Orders", Key=key, ConsistentRead=True),
        "Scan consistent": ddb.scan(TableName="Orders", ConsistentRead=True)["Count"] == 1,
        "ExecuteStatement consistent": bool(ddb.execute_statement(Statement=statement, ConsistentRead=True)["Items"]),
        "TransactGetItems": "Item" in ddb.transact_get_items(
            TransactItems=[{"Get": {"TableName": "Orders", "Key": key}}])["Responses"][0],
    }


STRONG = {"GetItem consistent", "Scan consistent", "ExecuteStatement consistent", "TransactGetItems"}


def test_service_mode_lags_eventual_reads_only_until_settled(service):
    ddb = client(service.url)
    make_table(ddb)
    assert ddb.describe_table(TableName="Orders")["Table"]["TableStatus"] == "CREATING"
    ddb.put_item(TableName="Orders", Item=ORDER)
    found = reads(ddb)
    assert found == {name: name in STRONG for name in found}
    # A condition judges the item as it is, whatever an eventually consistent read saw.
    with pytest.raises(ClientError) as refused:
        ddb.put_item(TableName="Orders", Item=ORDER, ConditionExpression="attribute_not_exists(pk)")
    assert refused.value.response["Error"]["Code"] == "ConditionalCheckFailedException"

    status, pending = admin(service.url, "GET", "/_localdynamo/consistency")
    assert status == 200 and pending["mode"] == "service" and pending["windowSeconds"] == 3600
    [namespace] = pending["namespaces"]
    assert namespace["namespace"] == "us-east-1" and namespace["pending"][0]["table"] == "Orders"
    assert namespace["staleAnswers"] == len(found) - len(STRONG)

    status, settled = admin(service.url, "POST", "/_localdynamo/consistency/settle")
    assert status == 200 and settled["settled"] == 1
    assert all(reads(ddb).values())
    assert ddb.describe_table(TableName="Orders")["Table"]["TableStatus"] == "ACTIVE"


def test_moving_the_clock_past_the_window_ends_the_lag(service):
    ddb = client(service.url)
    make_table(ddb)
    ddb.put_item(TableName="Orders", Item=ORDER)
    assert not reads(ddb)["Query byCustomer"]
    assert admin(service.url, "POST", "/_localdynamo/clock", {"advanceSeconds": 3600})[0] == 200
    assert all(reads(ddb).values())


def test_exact_mode_answers_at_once(ddb):
    make_table(ddb)
    ddb.put_item(TableName="Orders", Item=ORDER)
    assert all(reads(ddb).values())
    ddb.delete_table(TableName="Orders")


def test_the_environment_variable_sets_the_mode(monkeypatch):
    monkeypatch.setenv("LOCALDYNAMO_CONSISTENCY", "service")
    process = ServerProcess(_resolve_binary(), ["--in-memory"])
    process.start()
    try:
        status, answer = admin(process.url, "GET", "/_localdynamo/consistency")
        assert status == 200 and answer["mode"] == "service" and answer["staleProbability"] == 0.5
    finally:
        process.stop()


@pytest.mark.parametrize("flags, message", [
    (["--consistency", "eventual"], "--consistency takes exact or service."),
    (["--consistency-stale-probability", "2"], "--consistency-stale-probability takes a number from 0 to 1."),
    (["--consistency-window=-1"], "--consistency-window takes a number of seconds >= 0."),
])
def test_bad_flags_are_refused(flags, message):
    result = subprocess.run([str(_resolve_binary()), "serve", "--in-memory", *flags],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode != 0
    assert message in result.stderr
