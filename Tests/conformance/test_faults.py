"""Faults on purpose (`serve --fault`, `/_localdynamo/faults`): DynamoDB's errors for matching
requests, a latency, transaction conflicts, and boto3's own retries riding them out."""

from __future__ import annotations

import os
import shutil
import tempfile
import time

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

from conftest import ServerProcess, _resolve_binary
from ddb_helpers import admin_call as admin

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("LOCALDYNAMO_ENDPOINT")), reason="needs to start its own server process"
)


@pytest.fixture
def server():
    process = ServerProcess(_resolve_binary(), ["--in-memory", "--fault-seed", "7",
                                                "--fault", "table=Flaky,operation=GetItem,error=ServiceUnavailable,count=1"])
    process.start()
    yield process
    process.stop()


def client(url: str, attempts: int = 1):
    return boto3.client("dynamodb", endpoint_url=url, region_name="us-east-1", aws_access_key_id="k",
                        aws_secret_access_key="s", config=Config(retries={"total_max_attempts": attempts, "mode": "standard"}))


def make_table(ddb, name: str) -> None:
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])


def test_errors_hit_matching_requests_then_retire(server):
    ddb = client(server.url)
    make_table(ddb, "Orders")
    status, rule = admin(server.url, "POST", "/_localdynamo/faults",
                         {"table": "Orders", "operation": "PutItem", "error": "InternalServerError", "count": 2})
    assert status == 200 and rule["count"] == 2
    for _ in range(2):
        with pytest.raises(ClientError) as raised:
            ddb.put_item(TableName="Orders", Item={"pk": {"S": "a"}})
        assert raised.value.response["Error"]["Code"] == "InternalServerError"
        assert raised.value.response["ResponseMetadata"]["HTTPStatusCode"] == 500
    ddb.put_item(TableName="Orders", Item={"pk": {"S": "a"}})  # retired
    ddb.get_item(TableName="Orders", Key={"pk": {"S": "a"}})   # other operations were never affected
    remaining = admin(server.url, "GET", "/_localdynamo/faults")[1]["faults"]
    assert [rule.get("table") for rule in remaining] == ["Flaky"]  # only the command line's rule is left


def test_the_command_line_fault_and_boto3_retries(server):
    ddb = client(server.url)
    make_table(ddb, "Flaky")
    with pytest.raises(ClientError) as raised:
        ddb.get_item(TableName="Flaky", Key={"pk": {"S": "a"}})
    assert raised.value.response["Error"]["Code"] == "ServiceUnavailable"
    admin(server.url, "POST", "/_localdynamo/faults",
          {"table": "Flaky", "error": "ProvisionedThroughputExceededException", "count": 2})
    retrying = client(server.url, attempts=5)
    answer = retrying.put_item(TableName="Flaky", Item={"pk": {"S": "b"}})
    assert answer["ResponseMetadata"]["RetryAttempts"] == 2


def test_latency_delays_the_answer(server):
    ddb = client(server.url)
    make_table(ddb, "Slow")
    admin(server.url, "POST", "/_localdynamo/faults", {"table": "Slow", "latencyMs": 400, "count": 1})
    started = time.monotonic()
    ddb.get_item(TableName="Slow", Key={"pk": {"S": "a"}})
    assert time.monotonic() - started >= 0.4


def test_transaction_conflicts(server):
    ddb = client(server.url)
    make_table(ddb, "Accounts")
    admin(server.url, "POST", "/_localdynamo/faults", {"table": "Accounts", "error": "TransactionConflict", "count": 2})
    with pytest.raises(ClientError) as raised:
        ddb.transact_write_items(TransactItems=[{"Put": {"TableName": "Accounts", "Item": {"pk": {"S": "a"}}}}])
    assert raised.value.response["Error"]["Code"] == "TransactionCanceledException"
    assert [reason["Code"] for reason in raised.value.response["CancellationReasons"]] == ["TransactionConflict"]
    with pytest.raises(ClientError) as raised:
        ddb.put_item(TableName="Accounts", Item={"pk": {"S": "a"}})
    assert raised.value.response["Error"]["Code"] == "TransactionConflictException"
    ddb.put_item(TableName="Accounts", Item={"pk": {"S": "a"}})


def test_bad_rules_are_refused(server):
    assert admin(server.url, "POST", "/_localdynamo/faults", {"error": "Boom"})[0] == 400
    assert admin(server.url, "POST", "/_localdynamo/faults", {"table": "T"})[0] == 400
    assert admin(server.url, "POST", "/_localdynamo/faults", {"error": "InternalServerError", "rate": 3})[0] == 400
    assert admin(server.url, "POST", "/_localdynamo/faults", {"error": "InternalServerError", "colour": 1})[0] == 400
    status, cleared = admin(server.url, "DELETE", "/_localdynamo/faults")
    assert status == 200


def test_a_malformed_command_line_fault_is_refused():
    import subprocess
    result = subprocess.run([str(_resolve_binary()), "serve", "--in-memory", "--fault", "error=Boom"],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode != 0 and "--fault 'error=Boom'" in result.stderr
