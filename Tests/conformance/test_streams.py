"""DynamoDB Streams and TTL through boto3's `dynamodbstreams` client, on the DynamoDB port.

These tests move the server's clock (`POST /_localdynamo/clock`), so they start their own
`localdynamo` process (in memory, TTL sweeper off: sweeps run on demand through
`POST /_localdynamo/ttl/sweep`) instead of sharing the session server.
"""

from __future__ import annotations

import json
import os
import re
import urllib.request
import uuid

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

from conftest import ServerProcess, _resolve_binary
from ddb_helpers import expect_error

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("LOCALDYNAMO_ENDPOINT")), reason="moves the clock: needs its own server process"
)

CONFIG = Config(retries={"max_attempts": 1, "mode": "standard"})


@pytest.fixture(scope="module")
def server():
    process = ServerProcess(_resolve_binary(), ["--in-memory", "--ttl-interval", "0"])
    process.start()
    yield process
    process.stop()


def _client(server, service):
    return boto3.client(service, endpoint_url=server.url, region_name="us-east-1",
                        aws_access_key_id="testing", aws_secret_access_key="testing", config=CONFIG)


@pytest.fixture(scope="module")
def ddb(server):
    return _client(server, "dynamodb")


@pytest.fixture(scope="module")
def streams(server):
    return _client(server, "dynamodbstreams")


def admin(server, path, body=None):
    data = json.dumps(body).encode() if body is not None else b""
    request = urllib.request.Request(server.url + path, data=data, method="POST" if body is not None else "GET")
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def advance(server, seconds):
    return admin(server, "/_localdynamo/clock", {"advanceSeconds": seconds})


def make_table(ddb, view="NEW_AND_OLD_IMAGES", gsi=False):
    name = "s" + uuid.uuid4().hex[:10]
    extra = {}
    definitions = [{"AttributeName": "pk", "AttributeType": "S"}]
    if gsi:
        definitions.append({"AttributeName": "g", "AttributeType": "S"})
        extra["GlobalSecondaryIndexes"] = [{"IndexName": "byG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                            "Projection": {"ProjectionType": "ALL"}}]
    if view:
        extra["StreamSpecification"] = {"StreamEnabled": True, "StreamViewType": view}
    description = ddb.create_table(TableName=name, AttributeDefinitions=definitions,
                                   KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                                   BillingMode="PAY_PER_REQUEST", **extra)["TableDescription"]
    return name, description.get("LatestStreamArn")


def read_all(streams, arn):
    """Every record, following shard lineage (parents first) from each shard's trim horizon."""
    shards = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]
    records = []
    done = set()
    while len(done) < len(shards):
        for shard in shards:
            parent = shard.get("ParentShardId")
            if shard["ShardId"] in done or (parent and parent not in done and any(s["ShardId"] == parent for s in shards)):
                continue
            iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                                                  ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
            while iterator:
                page = streams.get_records(ShardIterator=iterator, Limit=5)
                records += page["Records"]
                if not page["Records"] and "EndingSequenceNumber" not in shard["SequenceNumberRange"]:
                    break
                iterator = page.get("NextShardIterator")
            done.add(shard["ShardId"])
    return records


@pytest.mark.parametrize("view", ["KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"])
def test_each_view_type_carries_its_images(ddb, streams, view):
    name, arn = make_table(ddb, view)
    assert arn.startswith(f"arn:aws:dynamodb:us-east-1:000000000000:table/{name}/stream/")
    table = ddb.describe_table(TableName=name)["Table"]
    assert table["StreamSpecification"] == {"StreamEnabled": True, "StreamViewType": view}
    assert table["LatestStreamArn"] == arn
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "v": {"N": "1"}})
    ddb.update_item(TableName=name, Key={"pk": {"S": "a"}}, UpdateExpression="SET v = :v",
                    ExpressionAttributeValues={":v": {"N": "2"}})
    ddb.delete_item(TableName=name, Key={"pk": {"S": "a"}})
    records = read_all(streams, arn)
    assert [r["eventName"] for r in records] == ["INSERT", "MODIFY", "REMOVE"]
    for index, record in enumerate(records):
        assert record["eventSource"] == "aws:dynamodb"
        assert record["eventVersion"] == "1.1"
        assert record["awsRegion"] == "us-east-1"
        body = record["dynamodb"]
        assert body["Keys"] == {"pk": {"S": "a"}}
        assert body["StreamViewType"] == view
        assert body["SizeBytes"] > 0
        assert body["SequenceNumber"].isdigit()
        assert ("NewImage" in body) == (view in ("NEW_IMAGE", "NEW_AND_OLD_IMAGES") and index < 2)
        assert ("OldImage" in body) == (view in ("OLD_IMAGE", "NEW_AND_OLD_IMAGES") and index > 0)
    numbers = [int(r["dynamodb"]["SequenceNumber"]) for r in records]
    assert numbers == sorted(set(numbers))


def test_no_records_for_writes_that_change_nothing(ddb, streams):
    name, arn = make_table(ddb)
    item = {"pk": {"S": "a"}, "tags": {"SS": ["x", "y"]}}
    ddb.put_item(TableName=name, Item=item)
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "tags": {"SS": ["y", "x"]}})
    with expect_error("ConditionalCheckFailedException"):
        ddb.put_item(TableName=name, Item=item, ConditionExpression="attribute_not_exists(pk)")
    ddb.delete_item(TableName=name, Key={"pk": {"S": "missing"}})
    ddb.batch_write_item(RequestItems={name: [{"PutRequest": {"Item": item}}]})
    ddb.transact_write_items(TransactItems=[{"Put": {"TableName": name, "Item": item}}])
    assert [r["eventName"] for r in read_all(streams, arn)] == ["INSERT"]


def test_list_describe_and_stream_errors(ddb, streams):
    name, arn = make_table(ddb, "KEYS_ONLY")
    listed = streams.list_streams(TableName=name)["Streams"]
    assert listed == [{"StreamArn": arn, "TableName": name, "StreamLabel": arn.split("/stream/")[1]}]
    description = streams.describe_stream(StreamArn=arn)["StreamDescription"]
    assert description["StreamStatus"] == "ENABLED"
    assert description["KeySchema"] == [{"AttributeName": "pk", "KeyType": "HASH"}]
    assert description["TableName"] == name
    shard = description["Shards"][0]
    assert shard["ShardId"].startswith("shardId-") and "ParentShardId" not in shard
    missing = arn.rsplit("/", 1)[0] + "/2000-01-01T00:00:00.000"
    with expect_error("ResourceNotFoundException", f"Requested resource not found: Stream: {missing} not found"):
        streams.describe_stream(StreamArn=missing)
    with expect_error("ResourceNotFoundException", "Requested resource not found: Shard does not exist"):
        streams.get_shard_iterator(StreamArn=arn, ShardId="shardId-00000000000000000000-00000000",
                                   ShardIteratorType="LATEST")
    with expect_error("ValidationException", "Invalid ShardIterator"):
        streams.get_records(ShardIterator="not-an-iterator")
    with expect_error("ValidationException", f"Table already has an enabled stream: TableName: {name}"):
        ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
    ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": False})
    with expect_error("ValidationException", f"Table has no stream to disable: TableName: {name}"):
        ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": False})
    assert streams.describe_stream(StreamArn=arn)["StreamDescription"]["StreamStatus"] == "DISABLED"
    second = ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})
    assert second["TableDescription"]["LatestStreamArn"] != arn


def test_stream_specification_messages_are_the_services(ddb):
    """The StreamSpecification refusals of UpdateTable and CreateTable, as measured against
    DynamoDB in 2026 (docs/compatibility.md's wording table)."""
    invalid = "One or more parameter values were invalid: "
    unchecked = boto3.client("dynamodb", endpoint_url=ddb.meta.endpoint_url, region_name="us-east-1",
                             aws_access_key_id="testing", aws_secret_access_key="testing",
                             config=CONFIG.merge(Config(parameter_validation=False)))
    name, _ = make_table(ddb, "KEYS_ONLY")
    for spec in ({"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"},
                 {"StreamEnabled": True, "StreamViewType": "OLD_IMAGE"}):
        with expect_error("ValidationException", f"Table already has an enabled stream: TableName: {name}"):
            ddb.update_table(TableName=name, StreamSpecification=spec)
    with expect_error("ValidationException", invalid + "If stream is being enabled then UpdateViewType is required"):
        ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": True})
    with expect_error("ValidationException",
                      invalid + "If stream is being disabled, then UpdateViewType must not be specified"):
        ddb.update_table(TableName=name, StreamSpecification={"StreamEnabled": False, "StreamViewType": "KEYS_ONLY"})
    null_enabled = ("1 validation error detected: Value null at 'streamSpecification.streamEnabled' failed to satisfy "
                    "constraint: Member must not be null")
    for spec in ({}, {"StreamViewType": "KEYS_ONLY"}):
        with expect_error("ValidationException", null_enabled):
            unchecked.update_table(TableName=name, StreamSpecification=spec)
    keys = {"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "BillingMode": "PAY_PER_REQUEST"}
    with expect_error("ValidationException",
                      invalid + "Table is being created with a stream enabled, UpdateViewType is required"):
        ddb.create_table(TableName=name + "x", StreamSpecification={"StreamEnabled": True}, **keys)
    with expect_error("ValidationException", null_enabled):
        unchecked.create_table(TableName=name + "x", StreamSpecification={}, **keys)


def test_iterator_expiry_and_trimming_follow_the_clock(server, ddb, streams):
    name, arn = make_table(ddb)
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]
    iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                                          ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    advance(server, 15 * 60 + 1)
    with expect_error("ExpiredIteratorException") as raised:
        streams.get_records(ShardIterator=iterator)
    # Kinesis' wording, its times as Java's Date.toString() writes them in UTC.
    java_date = r"(Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2} UTC \d{4}"
    assert re.fullmatch(
        rf"Iterator expired\. The iterator was created at time {java_date} while right now it is {java_date} "
        r"which is further in the future than the tolerated delay of 900000 milliseconds\.",
        raised.value.response["Error"]["Message"])
    first = shard["SequenceNumberRange"]["StartingSequenceNumber"]
    advance(server, 24 * 3600)
    with expect_error("TrimmedDataAccessException"):
        streams.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"], ShardIteratorType="AT_SEQUENCE_NUMBER",
                                   SequenceNumber=first)
    assert read_all(streams, arn) == []


def test_ttl_expiry_after_advance_and_sweep(server, ddb, streams):
    name, arn = make_table(ddb, gsi=True)
    ddb.update_time_to_live(TableName=name, TimeToLiveSpecification={"Enabled": True, "AttributeName": "expires"})
    assert ddb.describe_time_to_live(TableName=name)["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "ENABLED", "AttributeName": "expires"}
    with expect_error("ValidationException", "TimeToLive is already enabled"):
        ddb.update_time_to_live(TableName=name, TimeToLiveSpecification={"Enabled": True, "AttributeName": "expires"})
    with expect_error("ValidationException", "Time to live has been modified multiple times within a fixed interval"):
        ddb.update_time_to_live(TableName=name, TimeToLiveSpecification={"Enabled": False, "AttributeName": "expires"})
    now = admin(server, "/_localdynamo/clock")["epochSeconds"]
    ddb.put_item(TableName=name, Item={"pk": {"S": "soon"}, "g": {"S": "x"}, "expires": {"N": str(int(now) + 60)}})
    ddb.put_item(TableName=name, Item={"pk": {"S": "text"}, "g": {"S": "x"}, "expires": {"S": str(int(now))}})
    assert admin(server, "/_localdynamo/ttl/sweep", {}) == {"deleted": 0}
    advance(server, 120)
    # Expired but not yet swept: still there.
    assert "Item" in ddb.get_item(TableName=name, Key={"pk": {"S": "soon"}})
    assert admin(server, "/_localdynamo/ttl/sweep", {}) == {"deleted": 1}
    assert "Item" not in ddb.get_item(TableName=name, Key={"pk": {"S": "soon"}})
    assert ddb.query(TableName=name, IndexName="byG", KeyConditionExpression="g = :g",
                     ExpressionAttributeValues={":g": {"S": "x"}})["Count"] == 1
    removal = [r for r in read_all(streams, arn) if r["eventName"] == "REMOVE"]
    assert len(removal) == 1
    assert removal[0]["userIdentity"] == {"Type": "Service", "PrincipalId": "dynamodb.amazonaws.com"}
    assert removal[0]["dynamodb"]["Keys"] == {"pk": {"S": "soon"}}


def test_streams_tail_prints_records_as_they_arrive(server, ddb):
    import queue
    import subprocess
    import threading

    name, _ = make_table(ddb, "NEW_IMAGE")
    ddb.put_item(TableName=name, Item={"pk": {"S": "before"}})
    port = server.url.rsplit(":", 1)[1].strip("/")
    tail = subprocess.Popen([str(_resolve_binary()), "streams", "tail", name, "--port", port, "--interval", "0.1",
                             "--from-start"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: "queue.Queue[str]" = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in tail.stdout], daemon=True).start()
    try:
        first = json.loads(lines.get(timeout=10))
        assert first["dynamodb"]["Keys"] == {"pk": {"S": "before"}}
        ddb.put_item(TableName=name, Item={"pk": {"S": "after"}})
        second = json.loads(lines.get(timeout=10))
        assert second["eventName"] == "INSERT"
        assert second["dynamodb"]["Keys"] == {"pk": {"S": "after"}}
        assert second["dynamodb"]["NewImage"] == {"pk": {"S": "after"}}
    finally:
        tail.terminate()
        tail.wait(timeout=5)


def test_aws_cli_dynamodbstreams_commands(server, ddb):
    import shutil
    import subprocess
    import sys

    name, arn = make_table(ddb, "KEYS_ONLY")
    ddb.put_item(TableName=name, Item={"pk": {"S": "cli"}})
    exe = shutil.which("aws")
    base = [exe] if exe else [sys.executable, "-m", "awscli"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update(AWS_ACCESS_KEY_ID="testing", AWS_SECRET_ACCESS_KEY="testing", AWS_DEFAULT_REGION="us-east-1",
               AWS_PAGER="", AWS_CONFIG_FILE=os.devnull, AWS_SHARED_CREDENTIALS_FILE=os.devnull)

    def cli(*args):
        proc = subprocess.run([*base, "dynamodbstreams", *args, "--endpoint-url", server.url, "--output", "json"],
                              env=env, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)

    assert [s["StreamArn"] for s in cli("list-streams", "--table-name", name)["Streams"]] == [arn]
    shard = cli("describe-stream", "--stream-arn", arn)["StreamDescription"]["Shards"][0]["ShardId"]
    iterator = cli("get-shard-iterator", "--stream-arn", arn, "--shard-id", shard,
                   "--shard-iterator-type", "TRIM_HORIZON")["ShardIterator"]
    records = cli("get-records", "--shard-iterator", iterator)["Records"]
    assert [r["dynamodb"]["Keys"] for r in records] == [{"pk": {"S": "cli"}}]


def test_tampered_and_foreign_iterators_are_refused(ddb, streams):
    name, arn = make_table(ddb)
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
    iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    assert len(streams.get_records(ShardIterator=iterator)["Records"]) == 1
    prefix, payload = iterator.rsplit("|", 1)
    for position in (0, 20, 47, 48, len(payload) - 1):
        digit = "0" if payload[position] != "0" else "1"
        tampered = prefix + "|" + payload[:position] + digit + payload[position + 1:]
        with expect_error("ValidationException", "Invalid ShardIterator"):
            streams.get_records(ShardIterator=tampered)
    other_name, other_arn = make_table(ddb)
    with expect_error("ValidationException", "Invalid ShardIterator"):
        streams.get_records(ShardIterator=iterator.replace(arn, other_arn))


def test_list_streams_limit_and_malformed_start_arn(ddb, streams):
    make_table(ddb, "KEYS_ONLY")
    assert len(streams.list_streams(Limit=100)["Streams"]) >= 1
    with expect_error("ValidationException", "1 validation error detected: Value '101' at 'limit' failed to satisfy "
                                             "constraint: Member must have value less than or equal to 100"):
        streams.list_streams(Limit=101)
    # The bound is one of the request's constraints: reported with the other members' violations.
    unchecked = boto3.client("dynamodbstreams", endpoint_url=streams.meta.endpoint_url, region_name="us-east-1",
                             aws_access_key_id="testing", aws_secret_access_key="testing",
                             config=CONFIG.merge(Config(parameter_validation=False)))
    with expect_error("ValidationException", "2 validation errors detected: Value '101' at 'limit' failed to satisfy "
                                             "constraint: Member must have value less than or equal to 100; Value 'ab' "
                                             "at 'tableName' failed to satisfy constraint: Member must have length "
                                             "greater than or equal to 3"):
        unchecked.list_streams(Limit=101, TableName="ab")
    with expect_error("ValidationException", "Invalid StreamArn"):
        streams.list_streams(ExclusiveStartStreamArn="kossaapaaasdafsdaasdasdasdasasdasfadfadfasdasdas")


def _keys(page):
    return [record["dynamodb"]["Keys"]["pk"]["S"] for record in page["Records"]]


def _at_timestamp(streams, arn, shard, timestamp):
    iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="AT_TIMESTAMP",
                                          Timestamp=timestamp)["ShardIterator"]
    return streams.get_records(ShardIterator=iterator)


def test_at_timestamp_iterators_start_at_the_first_record_at_or_after_the_time(server, ddb, streams):
    import datetime

    name, arn = make_table(ddb, "KEYS_ONLY")
    # Whole seconds ten apart: each write is made right after the clock is set, so its
    # ApproximateCreationDateTime (rounded down to the second) is the second the clock was set to.
    base = int(admin(server, "/_localdynamo/clock")["epochSeconds"]) + 100
    for index, key in enumerate("abc"):
        admin(server, "/_localdynamo/clock", {"epochSeconds": base + 10 * index})
        ddb.put_item(TableName=name, Item={"pk": {"S": key}})
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
    every = _at_timestamp(streams, arn, shard, base - 3600)
    assert [r["dynamodb"]["ApproximateCreationDateTime"].timestamp() for r in every["Records"]] == [
        base, base + 10, base + 20]
    cases = [
        (base - 2 * 86400, "abc"),           # before the trim horizon: the oldest retained record
        (base, "abc"),
        (base + 0.0004, "abc"),              # millisecond precision: still millisecond 0 of the second
        (base + 0.5, "bc"),
        (base + 10, "bc"),
        (base + 10.001, "c"),
        (datetime.datetime.fromtimestamp(base + 19.999, datetime.timezone.utc), "c"),
        (base + 20, "c"),
        (base + 20.001, ""),
    ]
    for timestamp, expected in cases:
        page = _at_timestamp(streams, arn, shard, timestamp)
        assert _keys(page) == list(expected), timestamp
        assert "NextShardIterator" in page  # the shard is open
    now = admin(server, "/_localdynamo/clock")["epochSeconds"]
    with expect_error("ValidationException") as raised:
        streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="AT_TIMESTAMP", Timestamp=now + 3600)
    words = re.fullmatch(r"The Timestamp must not be in the future\. Timestamp: (\d+) milliseconds, current time: (\d+) "
                         r"milliseconds", raised.value.response["Error"]["Message"])
    assert words and abs(int(words.group(1)) - int((now + 3600) * 1000)) <= 1 and int(words.group(2)) >= int(now * 1000)
    with expect_error("ValidationException", "Timestamp is required when ShardIteratorType is AT_TIMESTAMP"):
        streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="AT_TIMESTAMP")
    with expect_error("ValidationException", "Timestamp must not be given when ShardIteratorType is TRIM_HORIZON"):
        streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="TRIM_HORIZON", Timestamp=base)
    first = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["SequenceNumberRange"][
        "StartingSequenceNumber"]
    with expect_error("ValidationException", "SequenceNumber must not be given when ShardIteratorType is AT_TIMESTAMP"):
        streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="AT_TIMESTAMP", Timestamp=base,
                                   SequenceNumber=first)

    # The shard closes at the next write four hours on: its AT_TIMESTAMP iterators end there.
    advance(server, 4 * 3600)
    ddb.put_item(TableName=name, Item={"pk": {"S": "d"}})
    shards = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]
    assert len(shards) == 2 and "EndingSequenceNumber" in shards[0]["SequenceNumberRange"]
    closed = _at_timestamp(streams, arn, shard, base + 5)
    assert _keys(closed) == ["b", "c"] and "NextShardIterator" not in closed
    drained = _at_timestamp(streams, arn, shard, base + 30)
    assert _keys(drained) == [] and "NextShardIterator" not in drained
    assert _keys(_at_timestamp(streams, arn, shards[1]["ShardId"], base)) == ["d"]


def test_aws_cli_get_shard_iterator_at_timestamp(server, ddb):
    import shutil
    import subprocess
    import sys

    from conftest import botocore_data_path

    name, arn = make_table(ddb, "KEYS_ONLY")
    base = int(admin(server, "/_localdynamo/clock")["epochSeconds"]) + 100
    for index, key in enumerate("xy"):
        admin(server, "/_localdynamo/clock", {"epochSeconds": base + 10 * index})
        ddb.put_item(TableName=name, Item={"pk": {"S": key}})
    exe = shutil.which("aws")
    base_command = [exe] if exe else [sys.executable, "-m", "awscli"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    # The CLI's own botocore predates AT_TIMESTAMP: it loads the pinned models.
    env.update(AWS_ACCESS_KEY_ID="testing", AWS_SECRET_ACCESS_KEY="testing", AWS_DEFAULT_REGION="us-east-1",
               AWS_PAGER="", AWS_CONFIG_FILE=os.devnull, AWS_SHARED_CREDENTIALS_FILE=os.devnull,
               AWS_DATA_PATH=botocore_data_path())

    def cli(*args):
        return subprocess.run([*base_command, "dynamodbstreams", *args, "--endpoint-url", server.url, "--output", "json"],
                              env=env, capture_output=True, text=True, timeout=60)

    shard = json.loads(cli("describe-stream", "--stream-arn", arn).stdout)["StreamDescription"]["Shards"][0]["ShardId"]
    got = cli("get-shard-iterator", "--stream-arn", arn, "--shard-id", shard, "--shard-iterator-type", "AT_TIMESTAMP",
              "--timestamp", str(base + 5))
    assert got.returncode == 0, got.stderr
    iterator = json.loads(got.stdout)["ShardIterator"]
    records = json.loads(cli("get-records", "--shard-iterator", iterator).stdout)["Records"]
    assert [r["dynamodb"]["Keys"] for r in records] == [{"pk": {"S": "y"}}]
    missing = cli("get-shard-iterator", "--stream-arn", arn, "--shard-id", shard, "--shard-iterator-type", "AT_TIMESTAMP")
    assert missing.returncode != 0
    assert "ValidationException" in missing.stderr
    assert "Timestamp is required when ShardIteratorType is AT_TIMESTAMP" in missing.stderr
