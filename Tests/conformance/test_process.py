"""The server as a process: data on disk across restarts and kill -9, clean stops, namespaces.

These tests start their own `localdynamo` processes (not the session server), each with a
temporary data directory.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import boto3
import pytest
from botocore.config import Config

from conftest import ServerProcess, _resolve_binary

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("LOCALDYNAMO_ENDPOINT")), reason="needs to start its own server processes"
)


@pytest.fixture
def data_dir():
    path = Path(tempfile.mkdtemp(prefix="localdynamo-data-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def start(args: list[str]) -> ServerProcess:
    server = ServerProcess(_resolve_binary(), args)
    server.start()
    return server


def client(url: str, region: str = "us-east-1", key: str = "testing"):
    return boto3.client(
        "dynamodb", endpoint_url=url, region_name=region, aws_access_key_id=key,
        aws_secret_access_key="secret", config=Config(retries={"max_attempts": 1, "mode": "standard"}),
    )


def create_table(ddb, name: str = "Durable") -> None:
    ddb.create_table(
        TableName=name,
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        BillingMode="PAY_PER_REQUEST",
    )


def test_data_survives_a_clean_restart(data_dir):
    server = start(["--db-path", str(data_dir)])
    try:
        ddb = client(server.url)
        create_table(ddb)
        ddb.put_item(TableName="Durable", Item={"pk": {"S": "a"}, "n": {"N": "1.50"}})
    finally:
        server.stop()
    assert server.proc.returncode == 0, server.stderr_text()

    again = start(["--db-path", str(data_dir)])
    try:
        ddb = client(again.url)
        assert ddb.list_tables()["TableNames"] == ["Durable"]
        item = ddb.get_item(TableName="Durable", Key={"pk": {"S": "a"}})["Item"]
        assert item == {"pk": {"S": "a"}, "n": {"N": "1.5"}}
        assert ddb.describe_table(TableName="Durable")["Table"]["ItemCount"] == 1
    finally:
        again.stop()


def test_kill_9_loses_no_acknowledged_write(data_dir):
    server = start(["--db-path", str(data_dir)])
    ddb = client(server.url)
    create_table(ddb)
    acknowledged = []
    for index in range(200):
        ddb.put_item(TableName="Durable", Item={"pk": {"S": f"k{index}"}, "v": {"N": str(index)}})
        acknowledged.append(index)
    ddb.update_item(TableName="Durable", Key={"pk": {"S": "k0"}},
                    AttributeUpdates={"v": {"Action": "ADD", "Value": {"N": "1000"}}})
    ddb.delete_item(TableName="Durable", Key={"pk": {"S": "k1"}})
    server.kill()  # right after the last acknowledged write, no shutdown

    again = start(["--db-path", str(data_dir)])
    try:
        ddb = client(again.url)
        for index in acknowledged[2:]:
            item = ddb.get_item(TableName="Durable", Key={"pk": {"S": f"k{index}"}}, ConsistentRead=True)
            assert item["Item"]["v"] == {"N": str(index)}
        assert ddb.get_item(TableName="Durable", Key={"pk": {"S": "k0"}})["Item"]["v"] == {"N": "1000"}
        assert "Item" not in ddb.get_item(TableName="Durable", Key={"pk": {"S": "k1"}})
        assert ddb.describe_table(TableName="Durable")["Table"]["ItemCount"] == 199
    finally:
        again.stop()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_signals_stop_the_server_cleanly(data_dir, signum):
    server = start(["--db-path", str(data_dir)])
    client(server.url).list_tables()
    server.proc.send_signal(signum)
    assert server.proc.wait(timeout=10) == 0, server.stderr_text()
    server.stderr_file.close()


def test_in_memory_writes_nothing_to_disk(data_dir):
    server = start(["--in-memory", "--db-path", str(data_dir / "unused")])
    try:
        create_table(client(server.url))
    finally:
        server.stop()
    assert not (data_dir / "unused").exists()


def test_default_namespace_is_per_region(data_dir):
    server = start(["--db-path", str(data_dir)])
    try:
        assert "tables per region" in "".join(server.stdout_lines)
        create_table(client(server.url, region="us-east-1", key="alice"))
        # Same region, other credentials: same account view, same tables.
        assert client(server.url, region="us-east-1", key="bob").list_tables()["TableNames"] == ["Durable"]
        # Other region: its own tables.
        assert client(server.url, region="eu-west-1", key="alice").list_tables()["TableNames"] == []
        arn = client(server.url, region="us-east-1").describe_table(TableName="Durable")["Table"]["TableArn"]
        assert arn.startswith("arn:aws:dynamodb:us-east-1:")
    finally:
        server.stop()


def test_shared_db_is_one_namespace(data_dir):
    server = start(["--db-path", str(data_dir), "--shared-db"])
    try:
        assert "one shared set of tables" in "".join(server.stdout_lines)
        create_table(client(server.url, region="us-east-1", key="alice"))
        assert client(server.url, region="ap-south-1", key="bob").list_tables()["TableNames"] == ["Durable"]
    finally:
        server.stop()


def test_per_access_key_separates_credentials(data_dir):
    server = start(["--db-path", str(data_dir), "--per-access-key"])
    try:
        assert "tables per access key and region" in "".join(server.stdout_lines)
        create_table(client(server.url, key="alice"))
        assert client(server.url, key="alice").list_tables()["TableNames"] == ["Durable"]
        assert client(server.url, key="bob").list_tables()["TableNames"] == []
    finally:
        server.stop()


def test_conflicting_namespace_flags_are_refused():
    import subprocess

    result = subprocess.run([str(_resolve_binary()), "serve", "--shared-db", "--per-access-key"],
                            capture_output=True, text=True, timeout=10)
    assert result.returncode != 0
    assert "cannot be used together" in result.stderr


def test_kill_9_during_transactions_leaves_all_or_nothing(data_dir):
    """Kill the server while 100-action transactions commit, repeatedly: each batch of items
    is either entirely there or entirely absent after a restart."""
    import random
    import threading

    rng = random.Random(7)
    server = start(["--db-path", str(data_dir)])
    create_table(client(server.url))
    batches = 0
    for round_number in range(5):
        ddb = client(server.url)
        stop = threading.Event()

        def writer():
            nonlocal batches
            while not stop.is_set():
                batch = batches
                items = [{"Put": {"TableName": "Durable",
                                  "Item": {"pk": {"S": f"b{batch}-{i}"}, "batch": {"N": str(batch)}}}}
                         for i in range(100)]
                try:
                    ddb.transact_write_items(TransactItems=items)
                except Exception:
                    return  # the server went away mid-request
                batches += 1

        thread = threading.Thread(target=writer)
        thread.start()
        threading.Event().wait(0.05 + rng.random() * 0.3)
        server.kill()
        stop.set()
        thread.join(timeout=10)
        server = start(["--db-path", str(data_dir)])
    try:
        ddb = client(server.url)
        counts: dict[str, int] = {}
        start_key = None
        while True:
            extra = {"ExclusiveStartKey": start_key} if start_key else {}
            page = ddb.scan(TableName="Durable", **extra)
            for item in page["Items"]:
                counts[item["batch"]["N"]] = counts.get(item["batch"]["N"], 0) + 1
            start_key = page.get("LastEvaluatedKey")
            if not start_key:
                break
        assert batches > 0
        assert all(count == 100 for count in counts.values()), counts
        # Every acknowledged transaction is there.
        assert all(str(batch) in counts for batch in range(batches))
    finally:
        server.stop()


def run_check(data_dir) -> subprocess.CompletedProcess:
    return subprocess.run([_resolve_binary(), "check", "--db-path", str(data_dir)],
                          capture_output=True, text=True, timeout=60)


def test_kill_9_during_indexed_writes_leaves_consistent_storage(data_dir):
    """Kill the server while puts, updates, deletes, batches and transactions hit a table with a
    local and two global indexes, three times; then `localdynamo check` (every index entry
    matches its item, counts, sizes, SQLite's integrity check) finds nothing wrong."""
    import random
    import threading

    rng = random.Random(11)
    server = start(["--db-path", str(data_dir)])
    client(server.url).create_table(
        TableName="Indexed",
        AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"} for n in ("pk", "sk", "l", "g")],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        LocalSecondaryIndexes=[{"IndexName": "byL", "Projection": {"ProjectionType": "ALL"},
                                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                              {"AttributeName": "l", "KeyType": "RANGE"}]}],
        GlobalSecondaryIndexes=[
            {"IndexName": "byG", "Projection": {"ProjectionType": "KEYS_ONLY"},
             "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}]},
            {"IndexName": "byGL", "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["v"]},
             "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}, {"AttributeName": "l", "KeyType": "RANGE"}]},
        ],
        BillingMode="PAY_PER_REQUEST",
    )
    for _ in range(3):
        ddb = client(server.url)
        stop = threading.Event()

        def writer(seed: int):
            local = random.Random(seed)
            try:
                while not stop.is_set():
                    key = {"pk": {"S": f"p{local.randrange(5)}"}, "sk": {"S": f"s{local.randrange(20)}"}}
                    item = dict(key, l={"S": f"l{local.randrange(4)}"}, g={"S": f"g{local.randrange(3)}"},
                                v={"N": str(local.randrange(100))})
                    kind = local.randrange(5)
                    if kind == 0:
                        ddb.put_item(TableName="Indexed", Item=item)
                    elif kind == 1:
                        ddb.update_item(TableName="Indexed", Key=key, UpdateExpression="SET g = :g REMOVE l",
                                        ExpressionAttributeValues={":g": {"S": f"g{local.randrange(3)}"}})
                    elif kind == 2:
                        ddb.delete_item(TableName="Indexed", Key=key)
                    elif kind == 3:
                        keys = {f"s{n}" for n in local.sample(range(20), 5)}
                        ddb.batch_write_item(RequestItems={"Indexed": [
                            {"PutRequest": {"Item": dict(item, sk={"S": sk})}} for sk in keys]})
                    else:
                        ddb.transact_write_items(TransactItems=[
                            {"Put": {"TableName": "Indexed", "Item": dict(item, sk={"S": f"t{n}"})}} for n in range(10)])
            except Exception:
                return  # the server went away mid-request

        threads = [threading.Thread(target=writer, args=(rng.randrange(1 << 30),)) for _ in range(3)]
        for thread in threads:
            thread.start()
        threading.Event().wait(0.2 + rng.random() * 0.4)
        server.kill()
        stop.set()
        for thread in threads:
            thread.join(timeout=10)
        result = run_check(data_dir)
        assert result.returncode == 0, result.stdout + result.stderr
        assert "ok " in result.stdout and "BROKEN" not in result.stdout
        server = start(["--db-path", str(data_dir)])
    server.stop()
    result = run_check(data_dir)
    assert result.returncode == 0, result.stdout
    assert " 0 items" not in result.stdout and " 0 index entries" not in result.stdout, result.stdout


def test_check_reports_damage(data_dir):
    import sqlite3

    server = start(["--db-path", str(data_dir)])
    ddb = client(server.url)
    create_table(ddb)
    ddb.put_item(TableName="Durable", Item={"pk": {"S": "a"}, "v": {"S": "x"}})
    server.stop()
    assert run_check(data_dir).returncode == 0
    with sqlite3.connect(data_dir / "us-east-1.db") as connection:
        connection.execute("UPDATE items_1 SET size = size + 5")
    result = run_check(data_dir)
    assert result.returncode == 1
    assert "BROKEN  us-east-1.db" in result.stdout and "has size" in result.stdout
