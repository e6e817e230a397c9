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


def test_a_hot_partition_key_gets_1000_write_units_in_a_second(server, ddb):
    # 25 items of 100 KB under one partition key in one batch: the partition admits 1,000 units
    # at one instant (10 items), however much the table has (on demand: 40,000 a second;
    # provisioned here: 1,500,000 of burst). The rate over time is PartitionThrottleTests'
    # (a frozen clock; here the clock ticks 1,000 units a second on a busy machine).
    ddb.create_table(TableName="Hot", BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                           {"AttributeName": "sk", "AttributeType": "N"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}])
    ddb.create_table(TableName="HotProvisioned",
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                           {"AttributeName": "sk", "AttributeType": "N"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
                     ProvisionedThroughput={"ReadCapacityUnits": 10_000, "WriteCapacityUnits": 5_000})
    payload = "x" * (100 * 1024 - 100)
    for table in ("Hot", "HotProvisioned"):
        requests = [{"PutRequest": {"Item": {"pk": {"S": "hot"}, "sk": {"N": str(index)}, "v": {"S": payload}}}}
                    for index in range(25)]
        response = ddb.batch_write_item(RequestItems={table: requests})
        assert response["UnprocessedItems"][table] == requests[10:], table
        # Other partition keys are not held up by the hot one.
        cold = [{"PutRequest": {"Item": {"pk": {"S": f"cold{index}"}, "sk": {"N": "0"}, "v": {"S": payload}}}}
                for index in range(25)]
        assert ddb.batch_write_item(RequestItems={table: cold})["UnprocessedItems"] == {}


def batch_of_puts(table: str, first: int, count: int = 25, kilobytes: int = 90) -> list[dict]:
    payload = "x" * (kilobytes * 1024 - 100)
    return [{"PutRequest": {"Item": {"pk": {"S": f"b{index}"}, "v": {"S": payload}}}}
            for index in range(first, first + count)]


def count(ddb, table: str) -> int:
    """Items in `table` (a Scan page stops at 1 MB: these items are 90 KB)."""
    return sum(page["Count"] for page in ddb.get_paginator("scan").paginate(TableName=table, Select="COUNT"))


def test_batch_write_returns_throttled_items_as_unprocessed(server, ddb):
    create(ddb, "BatchThrottle", read=100, write=1)
    requests = batch_of_puts("BatchThrottle", 0)
    # 300 units of burst at 90 units an item: 300, 210, 120, 30 admitted; the rest unprocessed.
    response = ddb.batch_write_item(RequestItems={"BatchThrottle": requests}, ReturnConsumedCapacity="TOTAL")
    unprocessed = response["UnprocessedItems"]["BatchThrottle"]
    assert unprocessed == requests[4:]
    assert response["ConsumedCapacity"] == [{"TableName": "BatchThrottle", "CapacityUnits": 360.0}]
    stored = {item["pk"]["S"] for item in ddb.scan(TableName="BatchThrottle", ProjectionExpression="pk")["Items"]}
    assert stored == {f"b{index}" for index in range(4)}
    # With the balance at -60, no item of the next batch has room: the whole batch fails.
    with pytest.raises(ClientError) as raised:
        ddb.batch_write_item(RequestItems={"BatchThrottle": unprocessed})
    assert raised.value.response["Error"]["Code"] == "ProvisionedThroughputExceededException"
    assert raised.value.response["Error"]["Message"] == TABLE_MESSAGE
    assert count(ddb, "BatchThrottle") == 4
    # The documented loop (resend UnprocessedItems after a wait) writes everything.
    rounds = 0
    while unprocessed:
        rounds += 1
        assert rounds <= 10
        advance(server, 300)
        unprocessed = ddb.batch_write_item(RequestItems={"BatchThrottle": unprocessed})["UnprocessedItems"].get(
            "BatchThrottle", [])
    assert count(ddb, "BatchThrottle") == 25


def test_batch_get_returns_throttled_keys_as_unprocessed(server, ddb):
    create(ddb, "BatchReads", read=1, write=10_000)
    for first in range(0, 100, 25):
        ddb.batch_write_item(RequestItems={"BatchReads": [{"PutRequest": {"Item": {"pk": {"S": f"k{index}"}}}}
                                                          for index in range(first, first + 25)]})
    ddb.put_item(TableName="BatchReads", Item={"pk": {"S": "big"}, "v": {"S": "x" * 390_000}})
    ddb.get_item(TableName="BatchReads", Key={"pk": {"S": "big"}}, ConsistentRead=True)   # 96 of 300 units
    keys = [{"pk": {"S": f"k{index}"}} for index in range(100)]
    request = {"BatchReads": {"Keys": keys, "ConsistentRead": True, "ProjectionExpression": "pk"}}
    for _ in range(2):   # 204 units: two batches of 100 strong reads of small items fit
        response = ddb.batch_get_item(RequestItems=request)
        assert len(response["Responses"]["BatchReads"]) == 100 and response["UnprocessedKeys"] == {}
    response = ddb.batch_get_item(RequestItems=request)   # 4 units left, and what the clock ticked (1 a second)
    read = response["Responses"]["BatchReads"]
    pending = response["UnprocessedKeys"]["BatchReads"]
    assert 4 <= len(read) <= 20
    assert pending["Keys"] == keys[len(read):]
    assert pending["ConsistentRead"] is True and pending["ProjectionExpression"] == "pk"
    assert sorted(item["pk"]["S"] for item in read) == sorted(key["pk"]["S"] for key in keys[:len(read)])
    # The balance is now about zero: a batch admits a key while it is above zero (the clock
    # ticks one unit a second), and the first batch with no room at all fails as a whole.
    with pytest.raises(ClientError) as raised:
        for _ in range(3):
            assert len(ddb.batch_get_item(RequestItems=request)["Responses"]["BatchReads"]) <= 20
    assert raised.value.response["Error"]["Code"] == "ProvisionedThroughputExceededException"
    assert raised.value.response["ThrottlingReasons"] == [
        {"reason": "TableReadProvisionedThroughputExceeded", "resource": ARN + "BatchReads"}]
