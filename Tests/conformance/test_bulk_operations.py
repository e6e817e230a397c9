"""The bulk operations (StartBulkPutItems, DescribeBulkOperation, ListBulkOperations,
CancelBulkOperation) driven by boto3 and the AWS CLI against LocalDynamo with --s3-endpoint
pointing at moto's S3: records with errors and a condition failure, pacing on the server clock,
a cancel, idempotent starts, listing, and the BulkOperationCompleted waiter."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError, WaiterError

from conftest import ServerProcess, _resolve_binary, botocore_data_path
from test_backups import advance_clock
from test_neighbours import moto  # noqa: F401 (the fixture: moto's server for the module)

KEYS = dict(aws_access_key_id="test", aws_secret_access_key="test", region_name="us-east-1")
FAST_WAIT = {"Delay": 0.1, "MaxAttempts": 600}


@pytest.fixture(scope="module")
def bulk(moto):
    server = ServerProcess(_resolve_binary(), ["--in-memory", "--s3-endpoint", moto.url])
    url = server.start()
    dynamodb = boto3.client("dynamodb", endpoint_url=url, config=Config(retries={"max_attempts": 1, "mode": "standard"}), **KEYS)
    s3 = boto3.client("s3", endpoint_url=moto.url, **KEYS)
    for bucket in ("input", "output"):
        s3.create_bucket(Bucket=bucket)
    try:
        yield dynamodb, s3, url
    finally:
        server.stop()


def make_table(client, name: str) -> None:
    client.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "g", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[{"IndexName": "byG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"}}])


def put_lines(s3, key: str, lines: list[str]) -> None:
    s3.put_object(Bucket="input", Key=key, Body=("\n".join(lines) + "\n").encode())


def item_line(number: int, **extra) -> str:
    return json.dumps({"Item": {"pk": {"S": f"item{number:06d}"}, "g": {"S": "group"}, "n": {"N": str(number)}}, **extra})


def start(client, table: str, prefix: str, **options) -> dict:
    return client.start_bulk_put_items(
        TableName=table,
        InputS3Configuration={"S3Bucket": "input", "S3KeyPrefix": prefix, "InputFormat": "DYNAMODB_JSON"},
        OutputS3Configuration={"S3Bucket": "output", "S3KeyPrefix": prefix, "OutputType": ["ERROR", "CONDITION_CHECK_FAILURE"]},
        **options)["BulkOperationDescription"]


def describe(client, arn: str) -> dict:
    return client.describe_bulk_operation(BulkOperationArn=arn)["BulkOperationDescription"]


def poll(client, arn: str, done, timeout: float = 60.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        description = describe(client, arn)
        if done(description) or time.monotonic() > deadline:
            return description
        time.sleep(0.05)


def output_records(s3, prefix: str, arn: str, output_type: str) -> list[dict]:
    operation_id = arn.rsplit("/", 1)[1]
    body = s3.get_object(Bucket="output", Key=f"{prefix}/AWSDynamoDB/{operation_id}/{output_type}/part-00000.json")["Body"].read()
    return [json.loads(line) for line in body.decode().splitlines()]


def test_a_bulk_put_writes_items_reports_errors_and_a_condition_failure(bulk):
    client, s3, _ = bulk
    make_table(client, "Loaded")
    client.put_item(TableName="Loaded", Item={"pk": {"S": "taken"}, "g": {"S": "old"}, "v": {"N": "1"}})
    put_lines(s3, "mixed/part-1.json", [
        item_line(1), item_line(2), "{not json", json.dumps({"Item": {"n": {"N": "5"}}}),
        json.dumps({"Item": {"pk": {"S": "taken"}, "g": {"S": "new"}}, "ConditionExpression": "attribute_not_exists(pk)"}),
        json.dumps({"Item": {"pk": {"S": "fresh"}, "g": {"S": "new"}}, "ConditionExpression": "attribute_not_exists(#k)",
                    "ExpressionAttributeNames": {"#k": "pk"}}),
    ])
    put_lines(s3, "mixed/part-2.json", [item_line(3)])
    started = start(client, "Loaded", "mixed")
    assert started["BulkOperationStatus"] == "IN_PROGRESS"
    assert started["BulkOperationArn"].startswith("arn:aws:dynamodb:us-east-1:000000000000:table/Loaded/bulk-operation/")
    assert started["PerformanceTier"] == "STANDARD"
    assert started["InputS3Configuration"]["InputCompressionType"] == "NONE"
    client.get_waiter("bulk_operation_completed").wait(BulkOperationArn=started["BulkOperationArn"], WaiterConfig=FAST_WAIT)
    done = describe(client, started["BulkOperationArn"])
    assert done["BulkOperationStatus"] == "COMPLETED_WITH_ERRORS"
    assert done["ProcessedItemCount"] == 7 and done["FailedItemCount"] == 2
    assert done["ProcessedInputBytes"] == done["TotalInputBytes"] > 0
    assert "EndTime" in done and "FailureCode" not in done
    usage = done["BulkOperationUsage"][0]
    assert usage["TableName"] == "Loaded" and usage["Table"]["BulkPutBytes"] > 0
    assert usage["GlobalSecondaryIndexes"]["byG"]["BulkPutBytes"] > 0
    assert usage["BulkPutBytes"] == usage["Table"]["BulkPutBytes"] + usage["GlobalSecondaryIndexes"]["byG"]["BulkPutBytes"]
    # The items went through the ordinary write path: the index sees them, the condition held.
    assert client.get_item(TableName="Loaded", Key={"pk": {"S": "taken"}})["Item"]["g"] == {"S": "old"}
    assert client.get_item(TableName="Loaded", Key={"pk": {"S": "fresh"}})["Item"]["g"] == {"S": "new"}
    assert client.query(TableName="Loaded", IndexName="byG", KeyConditionExpression="g = :g",
                        ExpressionAttributeValues={":g": {"S": "group"}})["Count"] == 3
    errors = output_records(s3, "mixed", started["BulkOperationArn"], "ERROR")
    assert [(record["S3Object"], record["Line"]) for record in errors] == [("mixed/part-1.json", 3), ("mixed/part-1.json", 4)]
    assert all(record["OutputType"] == "ERROR" and record["ErrorMessage"] for record in errors)
    assert errors[1]["ErrorCode"] == "ValidationException" and errors[1]["Record"] == json.dumps({"Item": {"n": {"N": "5"}}})
    failures = output_records(s3, "mixed", started["BulkOperationArn"], "CONDITION_CHECK_FAILURE")
    assert len(failures) == 1
    assert failures[0]["Item"]["g"] == {"S": "new"} and failures[0]["ExistingItem"]["g"] == {"S": "old"}


def test_max_write_request_units_paces_the_job_on_the_server_clock(bulk):
    client, s3, url = bulk
    make_table(client, "Paced")
    total = 20480
    put_lines(s3, "paced/items.json", [item_line(number) for number in range(total)])
    begun = time.monotonic()
    started = start(client, "Paced", "paced", MaxWriteRequestUnits=1024)
    assert started["MaxWriteRequestUnits"] == 1024
    seen = poll(client, started["BulkOperationArn"], lambda d: d["ProcessedItemCount"] >= 1024)
    elapsed = time.monotonic() - begun
    # 1,024 one-unit items a second of the server clock: far from done after a few seconds.
    assert 1024 <= seen["ProcessedItemCount"] <= 1024 * (int(elapsed) + 2)
    assert seen["BulkOperationStatus"] == "IN_PROGRESS" and seen["TotalInputBytes"] > seen["ProcessedInputBytes"]
    advance_clock(url, 60)
    client.get_waiter("bulk_operation_completed").wait(BulkOperationArn=started["BulkOperationArn"], WaiterConfig=FAST_WAIT)
    done = describe(client, started["BulkOperationArn"])
    assert done["BulkOperationStatus"] == "COMPLETED" and done["ProcessedItemCount"] == total
    assert client.describe_table(TableName="Paced")["Table"]["ItemCount"] == total


def test_cancel_stops_the_job_and_keeps_what_it_wrote(bulk):
    client, s3, _ = bulk
    make_table(client, "Cancelled")
    put_lines(s3, "cancel/items.json", [item_line(number) for number in range(20480)])
    started = start(client, "Cancelled", "cancel", MaxWriteRequestUnits=1024)
    arn = started["BulkOperationArn"]
    poll(client, arn, lambda d: d["ProcessedItemCount"] > 0)
    answer = client.cancel_bulk_operation(BulkOperationArn=arn)
    assert answer == {"BulkOperationArn": arn, "BulkOperationStatus": "CANCELLING", "ResponseMetadata": answer["ResponseMetadata"]}
    with pytest.raises(WaiterError):
        client.get_waiter("bulk_operation_completed").wait(BulkOperationArn=arn, WaiterConfig=FAST_WAIT)
    done = describe(client, arn)
    assert done["BulkOperationStatus"] == "CANCELLED" and done["FailureCode"] and done["FailureMessage"]
    assert 0 < done["ProcessedItemCount"] < 20480
    assert client.describe_table(TableName="Cancelled")["Table"]["ItemCount"] == done["ProcessedItemCount"]
    with pytest.raises(ClientError) as refused:
        client.cancel_bulk_operation(BulkOperationArn=arn)
    assert refused.value.response["Error"]["Code"] == "ValidationException"


def test_a_client_token_returns_the_same_operation_and_refuses_other_parameters(bulk):
    client, s3, _ = bulk
    make_table(client, "Tokened")
    put_lines(s3, "token/items.json", [item_line(1)])
    first = start(client, "Tokened", "token", ClientToken="token-1")
    again = start(client, "Tokened", "token", ClientToken="token-1")
    assert again["BulkOperationArn"] == first["BulkOperationArn"]
    with pytest.raises(ClientError) as refused:
        start(client, "Tokened", "token", ClientToken="token-1", MaxWriteRequestUnits=2048)
    assert refused.value.response["Error"]["Code"] == "IdempotentParameterMismatchException"


def test_requests_are_checked(bulk):
    client, _, url = bulk
    unchecked = boto3.client("dynamodb", endpoint_url=url, config=Config(parameter_validation=False), **KEYS)
    make_table(client, "Checked")
    with pytest.raises(ClientError) as missing:
        start(client, "NoSuchTable", "x")
    assert missing.value.response["Error"]["Code"] == "ResourceNotFoundException"
    with pytest.raises(ClientError) as slow:
        start(unchecked, "Checked", "x", MaxWriteRequestUnits=1023)
    assert slow.value.response["Error"]["Code"] == "ValidationException"
    assert "maxWriteRequestUnits" in slow.value.response["Error"]["Message"]
    with pytest.raises(ClientError) as unknown:
        describe(client, "arn:aws:dynamodb:us-east-1:000000000000:table/Checked/bulk-operation/00000000000000-00000000")
    assert unknown.value.response["Error"]["Code"] == "ResourceNotFoundException"


def test_list_bulk_operations_is_newest_first_and_paginated(bulk):
    client, s3, _ = bulk
    make_table(client, "Listed")
    put_lines(s3, "list/items.json", [item_line(1)])
    arns = [start(client, "Listed", "list")["BulkOperationArn"] for _ in range(3)]
    listed = [summary["BulkOperationArn"] for page in client.get_paginator("list_bulk_operations").paginate(PaginationConfig={"PageSize": 2})
              for summary in page["BulkOperationsSummaryList"]]
    assert listed[:3] == arns[::-1]
    first = client.list_bulk_operations(MaxResults=1)
    assert len(first["BulkOperationsSummaryList"]) == 1 and first["NextToken"]
    summary = first["BulkOperationsSummaryList"][0]
    assert set(summary) <= {"BulkOperationArn", "BulkOperationStatus", "StartTime", "EndTime"}
    with pytest.raises(ClientError) as bad:
        client.list_bulk_operations(NextToken="0123456789abcdef")
    assert bad.value.response["Error"]["Code"] == "ValidationException"


def aws(url: str, *args: str) -> dict:
    exe = shutil.which("aws")
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update(AWS_ACCESS_KEY_ID="test", AWS_SECRET_ACCESS_KEY="test", AWS_DEFAULT_REGION="us-east-1", AWS_PAGER="",
               AWS_MAX_ATTEMPTS="1", AWS_CONFIG_FILE=os.devnull, AWS_SHARED_CREDENTIALS_FILE=os.devnull,
               AWS_DATA_PATH=botocore_data_path())
    command = [exe] if exe else [sys.executable, "-m", "awscli"]
    proc = subprocess.run([*command, "dynamodb", *args, "--endpoint-url", url, "--output", "json"],
                          env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout) if proc.stdout.strip() else {}


def test_the_aws_cli_drives_a_bulk_put(bulk):
    client, s3, url = bulk
    make_table(client, "FromCli")
    put_lines(s3, "cli/items.json", [item_line(number) for number in range(20480)])
    started = aws(url, "start-bulk-put-items", "--table-name", "FromCli",
                  "--input-s3-configuration", "S3Bucket=input,S3KeyPrefix=cli,InputFormat=DYNAMODB_JSON",
                  "--output-s3-configuration", "S3Bucket=output,S3KeyPrefix=cli,OutputType=ERROR",
                  "--max-write-request-units", "1024")["BulkOperationDescription"]
    arn = started["BulkOperationArn"]
    described = aws(url, "describe-bulk-operation", "--bulk-operation-arn", arn)["BulkOperationDescription"]
    assert described["BulkOperationArn"] == arn and described["MaxWriteRequestUnits"] == 1024
    listed = aws(url, "list-bulk-operations")["BulkOperationsSummaryList"]
    assert listed[0]["BulkOperationArn"] == arn
    assert aws(url, "cancel-bulk-operation", "--bulk-operation-arn", arn)["BulkOperationStatus"] == "CANCELLING"
    done = poll(client, arn, lambda d: d["BulkOperationStatus"] != "CANCELLING")
    assert done["BulkOperationStatus"] == "CANCELLED"
