"""The admin API under /_localdynamo/ on a real binary with data on disk: the clock, and
snapshots restored in place (WAL files), checked with `localdynamo check` afterwards."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

import boto3
import pytest
from botocore.config import Config

from conftest import ServerProcess, _resolve_binary

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("LOCALDYNAMO_ENDPOINT")), reason="needs to start its own server process"
)


def admin(url: str, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.fixture
def server():
    directory = Path(tempfile.mkdtemp(prefix="localdynamo-admin-"))
    process = ServerProcess(_resolve_binary(), ["--db-path", str(directory), "--clock-start", "1767225600"])
    process.start()
    yield process, directory
    if process.alive():
        process.stop()
    shutil.rmtree(directory, ignore_errors=True)


def dynamodb(url: str):
    return boto3.client("dynamodb", endpoint_url=url, region_name="us-east-1", aws_access_key_id="k",
                        aws_secret_access_key="s", config=Config(retries={"max_attempts": 1}))


def test_clock_moves_forward_and_table_times_follow(server):
    process, _ = server
    status, reading = admin(process.url, "GET", "/_localdynamo/clock")
    assert status == 200
    assert 1767225600 <= reading["epochSeconds"] < 1767225600 + 60
    status, moved = admin(process.url, "POST", "/_localdynamo/clock", {"advanceSeconds": 86400})
    assert status == 200 and moved["epochSeconds"] >= reading["epochSeconds"] + 86400
    status, refused = admin(process.url, "POST", "/_localdynamo/clock", {"epochSeconds": 0})
    assert status == 400 and "backwards" in refused["error"]
    ddb = dynamodb(process.url)
    created = ddb.create_table(TableName="Clocked", BillingMode="PAY_PER_REQUEST",
                               AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                               KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
    assert created["TableDescription"]["CreationDateTime"].timestamp() >= 1767225600 + 86400


def test_snapshot_restore_on_disk_keeps_storage_consistent(server):
    process, directory = server
    ddb = dynamodb(process.url)
    ddb.create_table(
        TableName="Seeded", BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "g", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[{"IndexName": "byG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"}}])
    for n in range(20):
        ddb.put_item(TableName="Seeded", Item={"pk": {"S": f"k{n}"}, "g": {"S": f"g{n % 3}"}})
    status, taken = admin(process.url, "POST", "/_localdynamo/snapshots", {"name": "seeded"})
    assert status == 200 and taken["namespaces"] == {"us-east-1": ["Seeded"]}

    for round_number in range(3):
        for n in range(10):
            ddb.put_item(TableName="Seeded", Item={"pk": {"S": f"x{round_number}-{n}"}, "g": {"S": "g9"}})
        ddb.delete_item(TableName="Seeded", Key={"pk": {"S": "k0"}})
        ddb.create_table(TableName=f"Extra{round_number}", BillingMode="PAY_PER_REQUEST",
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        status, restored = admin(process.url, "POST", "/_localdynamo/snapshots/seeded/restore")
        assert status == 200 and restored["restored"] == {"us-east-1": ["Seeded"]}
        assert ddb.list_tables()["TableNames"] == ["Seeded"]
        assert ddb.scan(TableName="Seeded", Select="COUNT")["Count"] == 20
        assert ddb.query(TableName="Seeded", IndexName="byG", KeyConditionExpression="g = :g",
                         ExpressionAttributeValues={":g": {"S": "g9"}})["Count"] == 0
        assert ddb.describe_table(TableName="Seeded")["Table"]["ItemCount"] == 20

    process.stop()
    check = subprocess.run([str(_resolve_binary()), "check", "--db-path", str(directory)],
                           capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "1 tables, 20 items, 20 index entries" in check.stdout
