"""Many connections at once against a server on disk (WAL, parallel readers): no lost update,
no transfer seen half done, no writer held up by a long Scan."""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from pathlib import Path

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

from conftest import ServerProcess, _resolve_binary

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("LOCALDYNAMO_ENDPOINT")), reason="needs to start its own server process"
)


@pytest.fixture(scope="module")
def url():
    directory = Path(tempfile.mkdtemp(prefix="localdynamo-concurrency-"))
    server = ServerProcess(_resolve_binary(), ["--db-path", str(directory)])
    yield server.start()
    server.stop()
    shutil.rmtree(directory, ignore_errors=True)


def clients(url: str, count: int) -> list:
    """`count` clients (each its own connection pool) made from one session."""
    session = boto3.session.Session()
    return [session.client("dynamodb", endpoint_url=url, region_name="us-east-1", aws_access_key_id="k",
                           aws_secret_access_key="s",
                           config=Config(retries={"max_attempts": 1, "mode": "standard"}, read_timeout=60))
            for _ in range(count)]


def make_table(ddb, name: str) -> str:
    ddb.create_table(TableName=name, AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}], BillingMode="PAY_PER_REQUEST")
    return name


def run_all(workers) -> None:
    """Runs each callable in its own thread; re-raises the first failure."""
    failures: list[BaseException] = []

    def guarded(work):
        try:
            work()
        except BaseException as error:  # noqa: BLE001
            failures.append(error)

    threads = [threading.Thread(target=guarded, args=(work,)) for work in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    if failures:
        raise failures[0]


def is_error(error: ClientError, code: str) -> bool:
    return error.response["Error"]["Code"] == code


def test_conditional_increments_from_many_connections_lose_no_update(url):
    """Read-then-conditional-write (optimistic locking) and ADD, 8 connections each."""
    connections = clients(url, 8)
    table = make_table(connections[0], "Counters")
    key = {"pk": {"S": "optimistic"}}
    connections[0].put_item(TableName=table, Item=dict(key, v={"N": "0"}))
    rounds, refused = 12, [0]

    def optimistic(ddb):
        done = 0
        while done < rounds:
            current = ddb.get_item(TableName=table, Key=key, ConsistentRead=True)["Item"]["v"]["N"]
            try:
                ddb.update_item(TableName=table, Key=key, UpdateExpression="SET v = :new", ConditionExpression="v = :old",
                                ExpressionAttributeValues={":new": {"N": str(int(current) + 1)}, ":old": {"N": current}})
                done += 1
            except ClientError as error:
                assert is_error(error, "ConditionalCheckFailedException"), error
                refused[0] += 1

    def atomic(ddb):
        for _ in range(rounds):
            ddb.update_item(TableName=table, Key={"pk": {"S": "atomic"}}, UpdateExpression="ADD v :one",
                            ExpressionAttributeValues={":one": {"N": "1"}})

    run_all([lambda ddb=ddb: optimistic(ddb) for ddb in connections]
            + [lambda ddb=ddb: atomic(ddb) for ddb in connections])
    final = connections[0].get_item(TableName=table, Key=key, ConsistentRead=True)["Item"]["v"]["N"]
    assert int(final) == rounds * len(connections)
    atomic_total = connections[0].get_item(TableName=table, Key={"pk": {"S": "atomic"}}, ConsistentRead=True)["Item"]["v"]["N"]
    assert int(atomic_total) == rounds * len(connections)
    assert refused[0] > 0, "no two connections ever raced: the test proved nothing"


def test_concurrent_transfers_keep_the_total_constant_at_every_moment(url):
    connections = clients(url, 7)
    table = make_table(connections[0], "Accounts")
    accounts = [f"a{n}" for n in range(10)]
    for account in accounts:
        connections[0].put_item(TableName=table, Item={"pk": {"S": account}, "balance": {"N": "1000"}})
    total = 1000 * len(accounts)
    stop = threading.Event()
    transfers, observations = [0], [0]

    def transfer(ddb, seed: int):
        import random
        rng = random.Random(seed)
        for _ in range(20):
            source, target = rng.sample(accounts, 2)
            amount = str(rng.randrange(1, 300))
            try:
                ddb.transact_write_items(TransactItems=[
                    {"Update": {"TableName": table, "Key": {"pk": {"S": source}},
                                "UpdateExpression": "SET balance = balance - :x", "ConditionExpression": "balance >= :x",
                                "ExpressionAttributeValues": {":x": {"N": amount}}}},
                    {"Update": {"TableName": table, "Key": {"pk": {"S": target}},
                                "UpdateExpression": "SET balance = balance + :x",
                                "ExpressionAttributeValues": {":x": {"N": amount}}}}])
                transfers[0] += 1
            except ClientError as error:
                assert is_error(error, "TransactionCanceledException"), error

    def audit(ddb):
        while not stop.is_set():
            items = ddb.transact_get_items(TransactItems=[{"Get": {"TableName": table, "Key": {"pk": {"S": a}}}}
                                                          for a in accounts])["Responses"]
            assert sum(int(item["Item"]["balance"]["N"]) for item in items) == total
            observations[0] += 1

    auditor = connections[-1]
    audit_failure: list[BaseException] = []

    def guarded_audit():
        try:
            audit(auditor)
        except BaseException as error:  # noqa: BLE001
            audit_failure.append(error)

    checker = threading.Thread(target=guarded_audit)
    checker.start()
    try:
        run_all([lambda ddb=ddb, n=n: transfer(ddb, n) for n, ddb in enumerate(connections[:-1])])
    finally:
        stop.set()
        checker.join(timeout=60)
    if audit_failure:
        raise audit_failure[0]
    assert transfers[0] > 0 and observations[0] > 0
    items = connections[0].scan(TableName=table, ConsistentRead=True)["Items"]
    assert sum(int(item["balance"]["N"]) for item in items) == total


def test_a_long_scan_never_blocks_writers(url):
    scanner, writer = clients(url, 2)
    table = make_table(scanner, "Scanned")
    filler = "x" * 3000
    for start in range(0, 1000, 25):  # about 3 MB: a Scan of several 1 MB pages
        scanner.batch_write_item(RequestItems={table: [
            {"PutRequest": {"Item": {"pk": {"S": f"k{n}"}, "pad": {"S": filler}}}} for n in range(start, start + 25)]})
    scanning = threading.Event()
    stop = threading.Event()
    overlapped: list[float] = []  # latencies of the puts that ran while a Scan page was being read

    def scan_repeatedly():
        while not stop.is_set():
            start_key = None
            while True:
                scanning.set()
                page = scanner.scan(TableName=table, **({"ExclusiveStartKey": start_key} if start_key else {}))
                scanning.clear()
                start_key = page.get("LastEvaluatedKey")
                if not start_key or stop.is_set():
                    break

    thread = threading.Thread(target=scan_repeatedly)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        number = 0
        while len(overlapped) < 20 and time.monotonic() < deadline:
            number += 1
            during = scanning.is_set()
            started = time.monotonic()
            writer.put_item(TableName=table, Item={"pk": {"S": f"w{number}"}, "v": {"N": str(number)}})
            if during and scanning.is_set():
                overlapped.append(time.monotonic() - started)
    finally:
        stop.set()
        thread.join(timeout=60)
    assert len(overlapped) >= 20, "the writes never overlapped a Scan page"
    assert max(overlapped) < 1.0, f"writes waited behind a Scan: {sorted(overlapped)[-5:]}"
