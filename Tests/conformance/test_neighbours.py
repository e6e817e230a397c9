"""Export and import through S3, and Kinesis streaming destinations, against moto's server:
LocalDynamo started with --s3-endpoint and --kinesis-endpoint (loopback: fixed test keys),
everything read back with boto3's S3 and Kinesis clients.

LOCALDYNAMO_ROUND_TRIP_ITEMS sets the size of the export/import round trip: 20,000 by default
(about a minute on a loaded 2-core machine); the full size of the issue is 100,000 (six minutes
there, 18 tests in 393 s)."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import os
import subprocess
import time
from decimal import Decimal

import boto3
import pytest
from botocore.config import Config

from conftest import ServerProcess, _resolve_binary
from moto_server import MotoServer
from test_backups import advance_clock
from test_export_import import wait_for

REGION = "us-east-1"
ROUND_TRIP_ITEMS = int(os.environ.get("LOCALDYNAMO_ROUND_TRIP_ITEMS", "20000"))
# Small parts, so the round trip's data file goes up as a multipart upload (moto is told to
# accept parts this small; S3 wants at least 5 MiB).
PART_SIZE = 256 * 1024
KEYS = dict(aws_access_key_id="test", aws_secret_access_key="test", region_name=REGION)


@pytest.fixture(scope="module")
def moto():
    server = MotoServer({"S3_UPLOAD_PART_MIN_SIZE": str(PART_SIZE)})
    try:
        server.wait_until_ready()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def neighbours(moto):
    server = ServerProcess(_resolve_binary(), [
        "--in-memory", "--s3-endpoint", moto.url, "--kinesis-endpoint", moto.url,
        "--s3-part-size", str(PART_SIZE)])
    url = server.start()
    config = Config(retries={"max_attempts": 2, "mode": "standard"})
    dynamodb = boto3.client("dynamodb", endpoint_url=url, config=config, **KEYS)
    s3 = boto3.client("s3", endpoint_url=moto.url, **KEYS)
    kinesis = boto3.client("kinesis", endpoint_url=moto.url, **KEYS)
    try:
        yield dynamodb, s3, kinesis, url, server
    finally:
        server.stop()


def number(text: str) -> str:
    """A number by value (DynamoDB prints `-1.5E+30` as `-1500000000000000000000000000000`)."""
    return format(Decimal(text).normalize(), "f")


def canonical(value):
    """An attribute value with binaries as base64, numbers by value and sets sorted, comparable
    across sources."""
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(bytes(value)).decode()
    if isinstance(value, dict):
        out = {}
        for name, inner in value.items():
            inner = canonical(inner)
            if name == "N":
                inner = number(inner)
            elif name == "NS":
                inner = [number(text) for text in inner]
            if name in ("SS", "NS", "BS"):
                inner = sorted(inner)
            out[name] = inner
        return out
    if isinstance(value, list):
        return [canonical(inner) for inner in value]
    return value


def as_set(items) -> set[str]:
    return {json.dumps(canonical(item), sort_keys=True) for item in items}


def scan_all(client, name: str) -> list[dict]:
    items = []
    for page in client.get_paginator("scan").paginate(TableName=name):
        items += page["Items"]
    return items


def sample_items(count: int = 30) -> list[dict]:
    return [{
        "pk": {"S": f"p{number % 7}"}, "sk": {"N": str(number)},
        "s": {"S": "quote \" backslash \\ newline \n é"}, "n": {"N": "-1.5E+30" if number % 2 else "0.001"},
        "b": {"B": bytes([number, 0, 255])}, "bool": {"BOOL": number % 3 == 0}, "null": {"NULL": True},
        "ss": {"SS": ["a", "b c"]}, "ns": {"NS": ["1", "2.5"]}, "bs": {"BS": [b"x", b"\x00y"]},
        "m": {"M": {"inner key": {"L": [{"N": "7"}, {"S": "x"}, {"M": {}}]}}},
    } for number in range(count)]


KEY_SCHEMA = dict(
    AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"}],
    KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}])


def make_table(client, name: str, items: list[dict]) -> str:
    client.create_table(TableName=name, BillingMode="PAY_PER_REQUEST", **KEY_SCHEMA)
    client.update_continuous_backups(TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    for start in range(0, len(items), 25):
        batch = [{"PutRequest": {"Item": item}} for item in items[start:start + 25]]
        while batch:
            answer = client.batch_write_item(RequestItems={name: batch})
            batch = answer.get("UnprocessedItems", {}).get(name, [])
    return client.describe_table(TableName=name)["Table"]["TableArn"]


def export(client, table_arn: str, bucket: str, **options) -> dict:
    started = client.export_table_to_point_in_time(TableArn=table_arn, S3Bucket=bucket, **options)["ExportDescription"]
    return wait_for(lambda: client.describe_export(ExportArn=started["ExportArn"]), "ExportDescription", "ExportStatus",
                    timeout=600)


def import_table(client, name: str, bucket: str, prefix: str, input_format: str, compression: str, **options) -> dict:
    started = client.import_table(
        S3BucketSource={"S3Bucket": bucket, "S3KeyPrefix": prefix}, InputFormat=input_format,
        InputCompressionType=compression,
        TableCreationParameters={"TableName": name, "BillingMode": "PAY_PER_REQUEST", **KEY_SCHEMA},
        **options)["ImportTableDescription"]
    return wait_for(lambda: client.describe_import(ImportArn=started["ImportArn"]), "ImportTableDescription", "ImportStatus",
                    timeout=600)


def objects(s3, bucket: str, prefix: str = "") -> dict[str, bytes]:
    found = {}
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
        for entry in page.get("Contents", []):
            found[entry["Key"]] = s3.get_object(Bucket=bucket, Key=entry["Key"])["Body"].read()
    return found


def md5_base64(data: bytes) -> str:
    return base64.b64encode(hashlib.md5(data).digest()).decode()


def test_export_writes_aws_layout_read_back_by_boto3(neighbours):
    dynamodb, s3, _, _, _ = neighbours
    s3.create_bucket(Bucket="exports")
    items = sample_items()
    table_arn = make_table(dynamodb, "Layout", items)
    done = export(dynamodb, table_arn, "exports", S3Prefix="runs/one")
    assert done["ExportStatus"] == "COMPLETED", done
    assert done["ItemCount"] == len(items)
    export_id = done["ExportArn"].rsplit("/", 1)[-1]
    base = f"runs/one/AWSDynamoDB/{export_id}/"
    written = objects(s3, "exports", "runs/one/")
    names = {key[len(base):] for key in written}
    data_names = {name for name in names if name.startswith("data/")}
    assert names - data_names == {"_started", "manifest-files.json", "manifest-files.md5",
                                  "manifest-summary.json", "manifest-summary.md5"}
    assert len(data_names) == 1 and next(iter(data_names)).endswith(".json.gz")
    assert written[base + "_started"] == b""
    for manifest in ("manifest-files", "manifest-summary"):
        assert written[base + manifest + ".md5"].decode().strip() == md5_base64(written[base + manifest + ".json"])
    summary = json.loads(written[base + "manifest-summary.json"])
    assert summary["exportArn"] == done["ExportArn"] and summary["itemCount"] == len(items)
    assert summary["s3Bucket"] == "exports" and summary["s3Prefix"] == "runs/one"
    assert summary["manifestFilesS3Key"] == base + "manifest-files.json"
    assert summary["outputFormat"] == "DYNAMODB_JSON"
    assert done["ExportManifest"] == base + "manifest-summary.json"
    lines = [json.loads(line) for line in written[base + "manifest-files.json"].decode().splitlines() if line]
    assert len(lines) == 1
    data = written[lines[0]["dataFileS3Key"]]
    assert lines[0]["md5Checksum"] == md5_base64(data)
    assert lines[0]["etag"] == hashlib.md5(data).hexdigest()
    exported = [json.loads(line)["Item"] for line in gzip.decompress(data).decode().splitlines() if line]
    assert lines[0]["itemCount"] == len(exported)
    assert as_set(exported) == as_set(items)


def mapped_libraries(pid: int) -> set[str]:
    """The file names of the shared libraries mapped into a process (Linux's /proc/PID/maps)."""
    with open(f"/proc/{pid}/maps") as maps:
        return {os.path.basename(line.split()[-1]) for line in maps if ".so" in line.split()[-1]}


def test_libcurl_is_loaded_on_the_first_call_to_s3_not_at_start(moto):
    """The server links neither libcurl nor FoundationNetworking: serving maps none of libcurl's
    TLS, LDAP or Kerberos chain (a third of the libraries the start used to load); the first
    export to S3 opens libcurl, and it works."""
    server = ServerProcess(_resolve_binary(), ["--in-memory", "--s3-endpoint", moto.url])
    url = server.start()
    try:
        dynamodb = boto3.client("dynamodb", endpoint_url=url, **KEYS)
        table_arn = make_table(dynamodb, "Lazy", sample_items(3))
        before = mapped_libraries(server.proc.pid)
        assert not {name for name in before if name.startswith(("libcurl", "libFoundationNetworking", "libssl"))}, before
        assert any(name.startswith("libsqlite3") for name in before)
        boto3.client("s3", endpoint_url=moto.url, **KEYS).create_bucket(Bucket="lazy")
        assert export(dynamodb, table_arn, "lazy")["ExportStatus"] == "COMPLETED"
        after = mapped_libraries(server.proc.pid)
        assert any(name.startswith("libcurl.so") for name in after), after
        assert not any(name.startswith("libFoundationNetworking") for name in after)
    finally:
        server.stop()


def test_export_in_ion_writes_ion_gz(neighbours):
    dynamodb, s3, _, _, _ = neighbours
    s3.create_bucket(Bucket="ion-exports")
    table_arn = make_table(dynamodb, "IonLayout", sample_items(5))
    done = export(dynamodb, table_arn, "ion-exports", ExportFormat="ION")
    assert done["ExportStatus"] == "COMPLETED", done
    keys = objects(s3, "ion-exports")
    data = [key for key in keys if "/data/" in key]
    assert len(data) == 1 and data[0].startswith("AWSDynamoDB/") and data[0].endswith(".ion.gz")
    assert gzip.decompress(keys[data[0]]).decode().startswith("$ion_1_0")


def test_export_to_a_missing_bucket_fails_as_dynamodb_does(neighbours):
    dynamodb, _, _, _, _ = neighbours
    table_arn = make_table(dynamodb, "NoBucket", sample_items(2))
    done = export(dynamodb, table_arn, "no-such-bucket")
    assert done["ExportStatus"] == "FAILED"
    assert done["FailureCode"] == "S3NoSuchBucket"
    assert done["FailureMessage"] == "The specified bucket does not exist"


def dynamodb_json_lines(items: list[dict]) -> bytes:
    return "".join(json.dumps({"Item": canonical(item)}) + "\n" for item in items).encode()


def csv_text(items: list[dict], delimiter: str, header: bool) -> bytes:
    lines = [delimiter.join(["pk", "sk", "text"])] if header else []
    lines += [delimiter.join([item["pk"]["S"], item["sk"]["N"], f"t{item['sk']['N']}"]) for item in items]
    return ("\n".join(lines) + "\n").encode()


def compress(data: bytes, compression: str) -> bytes:
    if compression == "GZIP":
        return gzip.compress(data)
    if compression == "ZSTD":
        # The zstd tool (scripts/bootstrap installs it); streamed, so the frame has no content size.
        return subprocess.run(["zstd", "-q", "-c"], input=data, capture_output=True, check=True).stdout
    return data


@pytest.mark.parametrize("compression", ["GZIP", "NONE", "ZSTD"])
@pytest.mark.parametrize("input_format", ["DYNAMODB_JSON", "CSV", "ION"])
def test_import_reads_every_format_and_compression_from_s3(neighbours, input_format, compression):
    dynamodb, s3, _, _, _ = neighbours
    bucket = f"sources-{input_format.lower().replace('_', '-')}-{compression.lower()}"
    s3.create_bucket(Bucket=bucket)
    items = sample_items(12)
    if input_format == "ION":
        # LocalDynamo's own ION export is the source (moto's S3 holds it).
        done = export(dynamodb, make_table(dynamodb, f"IonSource{compression}", items), bucket, ExportFormat="ION")
        assert done["ExportStatus"] == "COMPLETED", done
        (key,) = [key for key in objects(s3, bucket) if "/data/" in key]
        body = gzip.decompress(s3.get_object(Bucket=bucket, Key=key)["Body"].read())
        s3.put_object(Bucket=bucket, Key="in/part-1", Body=compress(body, compression))
        expected, options = items, {}
    elif input_format == "CSV":
        s3.put_object(Bucket=bucket, Key="in/part-1", Body=compress(csv_text(items[:6], ";", True), compression))
        s3.put_object(Bucket=bucket, Key="in/part-2", Body=compress(csv_text(items[6:], ";", True), compression))
        expected = [{"pk": item["pk"], "sk": item["sk"], "text": {"S": f"t{item['sk']['N']}"}} for item in items]
        options = {"InputFormatOptions": {"Csv": {"Delimiter": ";"}}}
    else:
        s3.put_object(Bucket=bucket, Key="in/part-1", Body=compress(dynamodb_json_lines(items[:5]), compression))
        s3.put_object(Bucket=bucket, Key="in/part-2", Body=compress(dynamodb_json_lines(items[5:]), compression))
        expected, options = items, {}
    name = f"Imported{input_format.replace('_', '')}{compression}"
    done = import_table(dynamodb, name, bucket, "in/", input_format, compression, **options)
    assert done["ImportStatus"] == "COMPLETED", done
    assert done["ImportedItemCount"] == len(expected) and done["ProcessedItemCount"] == len(expected)
    assert done["ErrorCount"] == 0
    assert as_set(scan_all(dynamodb, name)) == as_set(expected)


def test_import_csv_with_header_list_reads_the_first_line_as_data(neighbours):
    dynamodb, s3, _, _, _ = neighbours
    s3.create_bucket(Bucket="headerless")
    items = sample_items(4)
    s3.put_object(Bucket="headerless", Key="rows.csv", Body=csv_text(items, ",", False))
    done = import_table(dynamodb, "Headerless", "headerless", "rows", "CSV", "NONE",
                        InputFormatOptions={"Csv": {"HeaderList": ["pk", "sk", "text"]}})
    assert done["ImportStatus"] == "COMPLETED", done
    assert done["ImportedItemCount"] == 4


def test_import_reads_only_the_prefix(neighbours):
    dynamodb, s3, _, _, _ = neighbours
    s3.create_bucket(Bucket="prefixed")
    items = sample_items(6)
    s3.put_object(Bucket="prefixed", Key="wanted/a.json", Body=dynamodb_json_lines(items[:3]))
    s3.put_object(Bucket="prefixed", Key="other/b.json", Body=dynamodb_json_lines(items[3:]))
    done = import_table(dynamodb, "Prefixed", "prefixed", "wanted/", "DYNAMODB_JSON", "NONE")
    assert done["ImportStatus"] == "COMPLETED", done
    assert as_set(scan_all(dynamodb, "Prefixed")) == as_set(items[:3])


def test_a_bad_line_fails_the_import_keeps_the_items_before_it_and_is_logged(neighbours):
    """Through S3 as from --s3-dir (test_export_import): a line that is not an item fails the
    import with ItemValidationError, ends the reading of its DynamoDB JSON object, and the items
    read before it stay in the table."""
    dynamodb, s3, _, _, server = neighbours
    s3.create_bucket(Bucket="badline")
    items = sample_items(4)
    body = dynamodb_json_lines(items[:2]) + b"{not json\n" + dynamodb_json_lines(items[2:])
    s3.put_object(Bucket="badline", Key="dump/data.json", Body=body)
    done = import_table(dynamodb, "BadLine", "badline", "dump/", "DYNAMODB_JSON", "NONE")
    assert (done["ImportStatus"], done.get("FailureCode")) == ("FAILED", "ItemValidationError"), done
    assert (done["ErrorCount"], done["ImportedItemCount"], done["ProcessedItemCount"]) == (1, 2, 3), done
    assert as_set(dynamodb.scan(TableName="BadLine")["Items"]) == as_set(items[:2])
    log = server.stderr_text()
    assert "dump/data.json" in log and "line=3" in log


def test_export_and_import_round_trip_every_item(neighbours):
    dynamodb, s3, _, _, _ = neighbours
    s3.create_bucket(Bucket="round-trip")
    items = [{"pk": {"S": f"user-{number % 997}"}, "sk": {"N": str(number)},
              "payload": {"S": f"value {number} " + "x" * (number % 50)},
              "tags": {"SS": [f"t{number % 5}", "all"]}} for number in range(ROUND_TRIP_ITEMS)]
    table_arn = make_table(dynamodb, "RoundTrip", items)
    done = export(dynamodb, table_arn, "round-trip", S3Prefix="big")
    assert done["ExportStatus"] == "COMPLETED", done
    assert done["ItemCount"] == ROUND_TRIP_ITEMS
    export_id = done["ExportArn"].rsplit("/", 1)[-1]
    imported = import_table(dynamodb, "RoundTripCopy", "round-trip", f"big/AWSDynamoDB/{export_id}/data/",
                            "DYNAMODB_JSON", "GZIP")
    assert imported["ImportStatus"] == "COMPLETED", imported
    assert imported["ImportedItemCount"] == ROUND_TRIP_ITEMS
    assert as_set(scan_all(dynamodb, "RoundTripCopy")) == as_set(items)


def read_stream(kinesis, name: str, count: int, timeout: float = 30.0) -> list[dict]:
    """Every record of the stream's shards, waiting until `count` arrived (delivery is async)."""
    shards = kinesis.list_shards(StreamName=name)["Shards"]
    iterators = [kinesis.get_shard_iterator(StreamName=name, ShardId=shard["ShardId"],
                                            ShardIteratorType="TRIM_HORIZON")["ShardIterator"] for shard in shards]
    records: list[dict] = []
    deadline = time.monotonic() + timeout
    while len(records) < count and time.monotonic() < deadline:
        for position, iterator in enumerate(iterators):
            answer = kinesis.get_records(ShardIterator=iterator)
            records += answer["Records"]
            iterators[position] = answer["NextShardIterator"]
        if len(records) < count:
            time.sleep(0.1)
    return records


def test_changes_arrive_in_the_kinesis_stream_in_order(neighbours):
    dynamodb, _, kinesis, url, _ = neighbours
    kinesis.create_stream(StreamName="changes", ShardCount=1)
    stream_arn = kinesis.describe_stream_summary(StreamName="changes")["StreamDescriptionSummary"]["StreamARN"]
    dynamodb.create_table(TableName="Tracked", BillingMode="PAY_PER_REQUEST",
                          AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
                          KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}])
    answer = dynamodb.enable_kinesis_streaming_destination(
        TableName="Tracked", StreamArn=stream_arn,
        EnableKinesisStreamingConfiguration={"ApproximateCreationDateTimePrecision": "MICROSECOND"})
    assert answer["DestinationStatus"] == "ENABLING"
    advance_clock(url, 2)
    (destination,) = dynamodb.describe_kinesis_streaming_destination(TableName="Tracked")["KinesisDataStreamDestinations"]
    assert destination["DestinationStatus"] == "ACTIVE"
    dynamodb.put_item(TableName="Tracked", Item={"id": {"S": "a"}, "v": {"N": "1"}})
    dynamodb.update_item(TableName="Tracked", Key={"id": {"S": "a"}}, UpdateExpression="SET v = :v",
                         ExpressionAttributeValues={":v": {"N": "2"}})
    dynamodb.put_item(TableName="Tracked", Item={"id": {"S": "b"}})
    dynamodb.delete_item(TableName="Tracked", Key={"id": {"S": "a"}})
    records = [json.loads(record["Data"]) for record in read_stream(kinesis, "changes", 4)]
    assert [(r["eventName"], r["dynamodb"]["Keys"]["id"]["S"]) for r in records] == [
        ("INSERT", "a"), ("MODIFY", "a"), ("INSERT", "b"), ("REMOVE", "a")]
    first, modify, _, remove = records
    for record in records:
        assert record["awsRegion"] == REGION and record["tableName"] == "Tracked"
        assert record["recordFormat"] == "application/json" and record["eventSource"] == "aws:dynamodb"
        assert record["userIdentity"] is None and record["dynamodb"]["SizeBytes"] > 0
        # MICROSECOND precision: microseconds since 1970.
        assert record["dynamodb"]["ApproximateCreationDateTime"] > 10 ** 15
    assert first["dynamodb"]["NewImage"] == {"id": {"S": "a"}, "v": {"N": "1"}} and "OldImage" not in first["dynamodb"]
    assert modify["dynamodb"]["OldImage"]["v"] == {"N": "1"} and modify["dynamodb"]["NewImage"]["v"] == {"N": "2"}
    assert remove["dynamodb"]["OldImage"]["v"] == {"N": "2"} and "NewImage" not in remove["dynamodb"]
    assert len({record["eventID"] for record in records}) == 4


def test_a_missing_stream_makes_the_destination_enable_failed(neighbours):
    dynamodb, _, _, url, _ = neighbours
    dynamodb.create_table(TableName="Untracked", BillingMode="PAY_PER_REQUEST",
                          AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
                          KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}])
    missing = f"arn:aws:kinesis:{REGION}:123456789012:stream/not-there"
    answer = dynamodb.enable_kinesis_streaming_destination(TableName="Untracked", StreamArn=missing)
    assert answer["DestinationStatus"] == "ENABLING"
    advance_clock(url, 2)
    (destination,) = dynamodb.describe_kinesis_streaming_destination(TableName="Untracked")["KinesisDataStreamDestinations"]
    assert destination["DestinationStatus"] == "ENABLE_FAILED"


def test_without_s3_an_export_fails_naming_the_flags():
    assert not any(os.environ.get(name) for name in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3")), \
        "this test needs a server without an S3 endpoint"
    server = ServerProcess(_resolve_binary(), ["--in-memory"])
    url = server.start()
    try:
        dynamodb = boto3.client("dynamodb", endpoint_url=url, **KEYS)
        done = export(dynamodb, make_table(dynamodb, "Nowhere", sample_items(1)), "any-bucket")
        assert done["ExportStatus"] == "FAILED"
        assert done["FailureCode"] == "S3NoSuchBucket"
        assert done["FailureMessage"].startswith("The specified bucket does not exist")
        assert "--s3-endpoint" in done["FailureMessage"] and "--s3-dir" in done["FailureMessage"]
    finally:
        server.stop()
