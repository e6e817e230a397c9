"""`serve --throttle`: provisioned tables throttle at their capacity (with 300 seconds of burst),
global indexes at theirs, on-demand tables at their maximum, with DynamoDB's errors and
`ThrottlingReasons`. Time moves through the admin clock, never by sleeping."""

from __future__ import annotations

import itertools
import os

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

from conftest import ServerProcess, _resolve_binary
from ddb_helpers import admin_call

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("LOCALDYNAMO_ENDPOINT")), reason="needs to start its own server process"
)

TABLE_MESSAGE = ("The level of configured provisioned throughput for the table was exceeded. "
                 "Consider increasing your provisioning level with the UpdateTable API.")
ARN = "arn:aws:dynamodb:us-east-1:000000000000:table/"
KEYS = itertools.count()


@pytest.fixture
def server():
    process = ServerProcess(_resolve_binary(), ["--in-memory", "--throttle"])
    process.start()
    yield process
    process.stop()


@pytest.fixture
def ddb(server):
    # No retries: the test sees every throttle.
    return boto3.client("dynamodb", endpoint_url=server.url, region_name="us-east-1", aws_access_key_id="k",
                        aws_secret_access_key="s", config=Config(retries={"total_max_attempts": 1}))


def create(ddb, name: str, read: int = 5, write: int = 5, **extra) -> None:
    ddb.create_table(TableName=name, AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     ProvisionedThroughput={"ReadCapacityUnits": read, "WriteCapacityUnits": write}, **extra)


def clock(server) -> float:
    return admin_call(server.url, "GET", "/_localdynamo/clock")[1]["epochSeconds"]


def advance(server, seconds: float) -> None:
    status, _ = admin_call(server.url, "POST", "/_localdynamo/clock", {"advanceSeconds": seconds})
    assert status == 200


def put_until_throttled(ddb, table: str, kilobytes: int = 1, limit: int = 10_000) -> tuple[int, ClientError]:
    """Puts items of `kilobytes` KB (that many write units each) until one is throttled."""
    payload = "x" * (kilobytes * 1024 - 100)
    for accepted in range(limit):
        # A new key each time: overwriting a larger item would cost that item's size.
        try:
            ddb.put_item(TableName=table, Item={"pk": {"S": f"k{next(KEYS)}"}, "v": {"S": payload}})
        except ClientError as error:
            assert error.response["Error"]["Code"] in ("ProvisionedThroughputExceededException", "ThrottlingException")
            return accepted, error
    raise AssertionError(f"{table} never throttled after {limit} writes")


def test_observed_write_rate_matches_provisioned_capacity(server, ddb):
    create(ddb, "Rate", write=10)
    put_until_throttled(ddb, "Rate", kilobytes=100)   # drain the 3,000 units of burst
    advance(server, 10)
    put_until_throttled(ddb, "Rate")                  # settle at a balance just below zero
    started = clock(server)
    accepted = 0
    for _ in range(10):
        advance(server, 10)
        accepted += put_until_throttled(ddb, "Rate")[0]
    elapsed = clock(server) - started
    expected = 10 * elapsed
    assert abs(accepted - expected) <= 0.1 * expected, f"{accepted} writes in {elapsed:.1f}s at 10 WCU"


def test_burst_keeps_at_most_300_seconds_of_unused_capacity(server, ddb):
    create(ddb, "Burst", write=5)

    def writes(units: float) -> None:
        """10-unit writes until throttled: `units` available plus what the clock ticked meanwhile."""
        started = clock(server)
        accepted, _ = put_until_throttled(ddb, "Burst", kilobytes=10)
        ticked = 5 * (clock(server) - started)
        assert units / 10 <= accepted <= (units + ticked) / 10 + 1, (accepted, units, ticked)

    writes(1500)        # a new table starts with its full burst: 300 s x 5 units
    advance(server, 60)
    writes(300)         # 60 s x 5 units
    advance(server, 3600)
    writes(1500)        # an hour unused: only 300 s of it is kept


def test_update_table_raises_capacity_at_once(server, ddb):
    create(ddb, "Grow", write=1)
    put_until_throttled(ddb, "Grow")   # 300 one-unit writes drain the burst to just below zero
    ddb.update_table(TableName="Grow", ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 20})
    started = clock(server)
    advance(server, 10)
    accepted, _ = put_until_throttled(ddb, "Grow")
    expected = 20 * (clock(server) - started)
    assert abs(accepted - expected) <= 0.1 * expected, (accepted, expected)


def test_throttling_error_shape(server, ddb):
    create(ddb, "Shape", write=1)
    _, error = put_until_throttled(ddb, "Shape", kilobytes=100)
    response = error.response
    assert response["Error"]["Code"] == "ProvisionedThroughputExceededException"
    assert response["Error"]["Message"] == TABLE_MESSAGE
    assert response["ResponseMetadata"]["HTTPStatusCode"] == 400
    assert response["ThrottlingReasons"] == [{"reason": "TableWriteProvisionedThroughputExceeded", "resource": ARN + "Shape"}]
    ddb.get_item(TableName="Shape", Key={"pk": {"S": "k0"}})  # reads have their own capacity


def test_reads_throttle_at_read_capacity(server, ddb):
    create(ddb, "Reads", read=1, write=1000)
    ddb.put_item(TableName="Reads", Item={"pk": {"S": "big"}, "v": {"S": "x" * 390_000}})  # 96 RCU a strong read
    reads = 0
    with pytest.raises(ClientError) as raised:
        while True:
            ddb.get_item(TableName="Reads", Key={"pk": {"S": "big"}}, ConsistentRead=True)
            reads += 1
    assert reads == 4  # 300 units of burst: 300, 204, 108, 12 admitted; -84 is not
    assert raised.value.response["ThrottlingReasons"] == [
        {"reason": "TableReadProvisionedThroughputExceeded", "resource": ARN + "Reads"}]


def test_a_global_index_out_of_capacity_throttles_the_table_write(server, ddb):
    ddb.create_table(
        TableName="Indexed", AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                                   {"AttributeName": "g", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        ProvisionedThroughput={"ReadCapacityUnits": 100, "WriteCapacityUnits": 1000},
        GlobalSecondaryIndexes=[{"IndexName": "ByG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"},
                                 "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}])
    payload = "x" * 9_000
    accepted = 0
    with pytest.raises(ClientError) as raised:
        while True:
            ddb.put_item(TableName="Indexed", Item={"pk": {"S": f"k{accepted}"}, "g": {"S": "g"}, "v": {"S": payload}})
            accepted += 1
    assert accepted == 34  # 300 units of the index's burst at 9 units a write
    response = raised.value.response
    assert response["Error"]["Code"] == "ProvisionedThroughputExceededException"
    assert response["Error"]["Message"].startswith(
        "The level of configured provisioned throughput for one or more global secondary indexes of the table was exceeded.")
    assert response["ThrottlingReasons"] == [
        {"reason": "IndexWriteProvisionedThroughputExceeded", "resource": ARN + "Indexed/index/ByG"}]


def test_on_demand_tables_throttle_at_their_maximum(server, ddb):
    ddb.create_table(TableName="OnDemand", BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     OnDemandThroughput={"MaxReadRequestUnits": 10, "MaxWriteRequestUnits": 5})
    accepted, error = put_until_throttled(ddb, "OnDemand")
    assert 5 <= accepted <= 6  # one second of the maximum (plus what the clock ticked meanwhile)
    response = error.response
    assert response["Error"]["Code"] == "ThrottlingException"
    assert response["Error"]["Message"].startswith("Throughput exceeds the current capacity of your table or index.")
    assert response["throttlingReasons"] == [
        {"reason": "TableWriteMaxOnDemandThroughputExceeded", "resource": ARN + "OnDemand"}]
    advance(server, 1)
    assert 5 <= put_until_throttled(ddb, "OnDemand")[0] <= 6
    # Without a maximum, on-demand tables get DynamoDB's 40,000 units per second.
    ddb.create_table(TableName="Unbounded", BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
    for index in range(200):
        ddb.put_item(TableName="Unbounded", Item={"pk": {"S": f"k{index}"}})
