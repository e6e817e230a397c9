"""scripts/crash-test: SIGKILL the server at random moments while it writes, then prove nothing
acknowledged was lost and nothing was half applied.

Writers (one thread each, each owning its own keys, so a model of every key is exact) drive puts,
conditional updates, deletes, BatchWriteItem and 100-action TransactWriteItems on a table with a
local index, two global indexes, a stream (NEW_AND_OLD_IMAGES) and TTL. Every answered request
updates the model; a request without an answer (the server died under it) leaves its keys
"either before or after". After each SIGKILL:

  * `localdynamo check` (indexes agree with items, counts and sizes exact, orphans) and
    `PRAGMA integrity_check` pass on the stopped server's files;
  * after a restart, every key reads exactly as the model says (an unanswered write: either
    state), and an unanswered transaction is in all of its 100 items or in none;
  * DescribeTable's ItemCount is the number of items a Scan finds;
  * replaying the whole stream, record by record, gives exactly the table's items;
  * a bulk put (StartBulkPutItems, paced at 1,024 write units a second, from the server's
    --s3-dir) that each round starts on a table of its own and the kill cuts short ends FAILED
    with counts that are exactly what it wrote: ProcessedItemCount items (the first ones of
    its input, in order) in the table, DescribeTable's count and ProcessedInputBytes agreeing.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import shutil
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import boto3
from botocore.exceptions import ClientError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import Server, check_storage, client  # noqa: E402

TABLE = "Crash"
PARTITIONS = 8
SORT_KEYS = 40
FAR_FUTURE = str(4_000_000_000)  # TTL on, but nothing of ours expires
BULK_ITEMS = 20_000  # about 20 s of server clock at 1,024 units a second: a kill always cuts it short


def create_table(ddb) -> None:
    ddb.create_table(
        TableName=TABLE,
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
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
        BillingMode="PAY_PER_REQUEST",
    )
    ddb.update_time_to_live(TableName=TABLE, TimeToLiveSpecification={"Enabled": True, "AttributeName": "exp"})


def key_of(item: dict) -> tuple[str, str]:
    return item["pk"]["S"], item["sk"]["S"]


class Model:
    """What each key must hold: a list of acceptable items (None: absent). One entry once a
    write was answered; two or more while a write went unanswered."""

    def __init__(self) -> None:
        self.states: dict[tuple[str, str], list[dict | None]] = {}
        self.lock = threading.Lock()
        self.pending_transactions: list[list[tuple[tuple[str, str], dict]]] = []
        self.acknowledged = 0
        self.unanswered = 0

    def known(self, key) -> dict | None:
        return self.states.get(key, [None])[-1]

    def acknowledge(self, key, item: dict | None) -> None:
        with self.lock:
            self.states[key] = [item]

    def maybe(self, key, item: dict | None) -> None:
        with self.lock:
            self.states[key] = self.states.get(key, [None]) + [item]


class Writer(threading.Thread):
    """Writes to its own partitions until the server dies under a request."""

    def __init__(self, number: int, ddb, model: Model, seed: int, counter) -> None:
        super().__init__(daemon=True)
        self.number, self.model, self.rng, self.counter = number, model, random.Random(seed), counter
        self.ddb = ddb
        self.error: BaseException | None = None

    def key(self) -> dict:
        return {"pk": {"S": f"w{self.number}-p{self.rng.randrange(PARTITIONS)}"},
                "sk": {"S": f"s{self.rng.randrange(SORT_KEYS)}"}}

    def item(self, key: dict, version: int) -> dict:
        return dict(key, v={"N": str(version)}, l={"S": f"l{self.rng.randrange(5)}"},
                    g={"S": f"g{self.rng.randrange(4)}"}, exp={"N": FAR_FUTURE})

    def run(self) -> None:
        try:
            while True:
                if not self.step():
                    return
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            self.error = error

    def step(self) -> bool:
        """One operation; False once a request went unanswered (the server is gone)."""
        kind = self.rng.choices(["put", "update", "delete", "batch", "transaction"], [30, 30, 10, 15, 15])[0]
        version = next(self.counter)
        if kind == "put":
            item = self.item(self.key(), version)
            return self.send([(key_of(item), item)], lambda: self.ddb.put_item(TableName=TABLE, Item=item))
        if kind == "delete":
            key = self.key()
            return self.send([(key_of(key), None)], lambda: self.ddb.delete_item(TableName=TABLE, Key=key))
        if kind == "update":
            return self.conditional_update(self.key(), version)
        keys = {}
        while len(keys) < (25 if kind == "batch" else 100):
            key = self.key()
            keys[key_of(key)] = key
        if kind == "batch":
            changes = [(k, None if self.rng.random() < 0.2 else self.item(key, version)) for k, key in keys.items()]
            requests = [{"DeleteRequest": {"Key": keys[k]}} if item is None else {"PutRequest": {"Item": item}}
                        for k, item in changes]

            def batch():
                answer = self.ddb.batch_write_item(RequestItems={TABLE: requests})
                if answer.get("UnprocessedItems"):
                    raise AssertionError(f"unprocessed items: {answer['UnprocessedItems']}")
            return self.send(changes, batch)
        changes = [(k, self.item(key, version)) for k, key in keys.items()]
        actions = [{"Put": {"TableName": TABLE, "Item": item}} for _, item in changes]
        return self.send(changes, lambda: self.ddb.transact_write_items(TransactItems=actions), transaction=True)

    def conditional_update(self, key: dict, version: int) -> bool:
        """SET v, ADD n, on the condition that the item holds what the model says it holds."""
        current = self.model.known(key_of(key))
        new_g = f"g{self.rng.randrange(4)}"
        values = {":v": {"N": str(version)}, ":g": {"S": new_g}, ":one": {"N": "1"}}
        if current is None:
            condition = "attribute_not_exists(pk)"
        else:
            condition = "v = :old"
            values[":old"] = current["v"]
        expected = dict(current or key)
        expected.update(v={"N": str(version)}, g={"S": new_g})
        expected["n"] = {"N": str(int(expected.get("n", {"N": "0"})["N"]) + 1)}

        def update():
            self.ddb.update_item(TableName=TABLE, Key=key, UpdateExpression="SET v = :v, g = :g ADD n :one",
                                 ConditionExpression=condition, ExpressionAttributeValues=values)
        return self.send([(key_of(key), expected)], update)

    def send(self, changes, call, transaction: bool = False) -> bool:
        try:
            call()
        except ClientError as error:
            # An answer: the write was refused and changed nothing (a conditional check that
            # failed would mean the model is wrong: these keys are this writer's alone).
            raise AssertionError(f"write refused: {error}") from error
        except Exception:  # noqa: BLE001 - no answer: the server died under the request
            for key, item in changes:
                self.model.maybe(key, item)
            if transaction:
                with self.model.lock:
                    self.model.pending_transactions.append(changes)
            self.model.unanswered += 1
            return False
        for key, item in changes:
            self.model.acknowledge(key, item)
        self.model.acknowledged += 1
        return True


class StreamReplica:
    """The table rebuilt from its stream, continued across restarts."""

    def __init__(self) -> None:
        self.items: dict[tuple[str, str], dict] = {}
        self.positions: dict[str, str] = {}
        self.records = 0

    def catch_up(self, url: str, session) -> None:
        streams = client(url, "dynamodbstreams", session=session)
        arn = client(url, session=session).describe_table(TableName=TABLE)["Table"]["LatestStreamArn"]
        shards = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]
        records = []
        for shard in shards:
            shard_id = shard["ShardId"]
            if shard_id in self.positions:
                iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard_id, ShardIteratorType="AFTER_SEQUENCE_NUMBER",
                                                      SequenceNumber=self.positions[shard_id])["ShardIterator"]
            else:
                iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard_id,
                                                      ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
            while iterator:
                page = streams.get_records(ShardIterator=iterator, Limit=1000)
                if not page["Records"]:
                    break
                records.extend(page["Records"])
                self.positions[shard_id] = page["Records"][-1]["dynamodb"]["SequenceNumber"]
                iterator = page.get("NextShardIterator")
        records.sort(key=lambda record: int(record["dynamodb"]["SequenceNumber"]))
        for record in records:
            key = key_of(record["dynamodb"]["Keys"])
            if record["eventName"] == "REMOVE":
                self.items.pop(key, None)
            else:
                self.items[key] = record["dynamodb"]["NewImage"]
        self.records += len(records)


def scan_all(ddb) -> dict[tuple[str, str], dict]:
    items, start = {}, None
    while True:
        page = ddb.scan(TableName=TABLE, ConsistentRead=True, **({"ExclusiveStartKey": start} if start else {}))
        for item in page["Items"]:
            items[key_of(item)] = item
        start = page.get("LastEvaluatedKey")
        if not start:
            return items


def settle(url: str) -> None:
    """`serve --consistency service`: makes every stream record readable now (a record of the
    last moment before the kill would otherwise wait out its delay)."""
    request = urllib.request.Request(url + "/_localdynamo/consistency/settle", data=b"{}", method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        if answer.status != 200:
            raise AssertionError(f"settle answered {answer.status}")


def verify(url: str, model: Model, replica: StreamReplica, session, service: bool = False) -> int:
    """Checks the restarted server against the model; settles unanswered writes to what is
    there. Returns the number of items."""
    if service:
        settle(url)
    ddb = client(url, session=session)
    table = scan_all(ddb)
    for key, states in model.states.items():
        actual = table.get(key)
        if actual not in states:
            raise AssertionError(f"{key}: found {actual}, acknowledged {states[0]}"
                                 + (f" or an unanswered write's {states[1:]}" if len(states) > 1 else ""))
        model.states[key] = [actual]
    stray = set(table) - set(model.states)
    if stray:
        raise AssertionError(f"items nobody wrote: {sorted(stray)[:5]}")
    for changes in model.pending_transactions:
        applied = sum(1 for key, item in changes if table.get(key) == item)
        if applied not in (0, len(changes)):
            raise AssertionError(f"a transaction was half applied: {applied} of {len(changes)} items")
    model.pending_transactions.clear()
    count = ddb.describe_table(TableName=TABLE)["Table"]["ItemCount"]
    if count != len(table):
        raise AssertionError(f"DescribeTable says {count} items, a Scan finds {len(table)}")
    replica.catch_up(url, session)
    if replica.items != table:
        missing = set(table) - set(replica.items)
        differing = [k for k in table if k in replica.items and replica.items[k] != table[k]]
        extra = set(replica.items) - set(table)
        raise AssertionError(f"the stream disagrees with the table: {len(missing)} items without records, "
                             f"{len(differing)} different, {len(extra)} removed items still in the stream")
    return len(table)


def bulk_line(number: int) -> bytes:
    """One record of the bulk put's input; every line the same length, so bytes count items."""
    return (json.dumps({"Item": {"pk": {"S": f"b{number:06d}"}, "g": {"S": f"g{number % 5}"}}}) + "\n").encode()


def start_bulk_put(ddb, table: str) -> str:
    ddb.create_table(
        TableName=table, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "g", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[{"IndexName": "byG", "Projection": {"ProjectionType": "KEYS_ONLY"},
                                 "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}]}])
    return ddb.start_bulk_put_items(
        TableName=table, MaxWriteRequestUnits=1024,
        InputS3Configuration={"S3Bucket": "bulk-in", "InputFormat": "DYNAMODB_JSON"},
        OutputS3Configuration={"S3Bucket": "bulk-out", "OutputType": ["ERROR"]})["BulkOperationDescription"]["BulkOperationArn"]


def verify_bulk(url: str, table: str, arn: str, session) -> int:
    """The bulk put a kill cut short: FAILED, and its counts are exactly what it wrote."""
    ddb = client(url, session=session)
    done = ddb.describe_bulk_operation(BulkOperationArn=arn)["BulkOperationDescription"]
    processed = done["ProcessedItemCount"]
    if done["BulkOperationStatus"] != "FAILED" or processed >= BULK_ITEMS:
        raise AssertionError(f"bulk put {arn}: {done['BulkOperationStatus']} after {processed} items, expected FAILED part-way")
    keys, start = set(), None
    while True:
        page = ddb.scan(TableName=table, ConsistentRead=True, **({"ExclusiveStartKey": start} if start else {}))
        keys |= {item["pk"]["S"] for item in page["Items"]}
        start = page.get("LastEvaluatedKey")
        if not start:
            break
    if keys != {f"b{number:06d}" for number in range(processed)}:
        raise AssertionError(f"bulk put {arn}: ProcessedItemCount {processed}, the table holds {len(keys)} items")
    if ddb.describe_table(TableName=table)["Table"]["ItemCount"] != processed or done["FailedItemCount"] != 0:
        raise AssertionError(f"bulk put {arn}: DescribeTable or FailedItemCount disagree with {processed} items")
    # A kill before the input was read leaves TotalInputBytes out (and nothing processed).
    total = done.get("TotalInputBytes", BULK_ITEMS * len(bulk_line(0)) if processed else None)
    if done["ProcessedInputBytes"] != processed * len(bulk_line(0)) or total not in (None, BULK_ITEMS * len(bulk_line(0))):
        raise AssertionError(f"bulk put {arn}: {done['ProcessedInputBytes']} bytes processed for {processed} items")
    if ddb.describe_bulk_operation(BulkOperationArn=arn)["BulkOperationDescription"] != done:
        raise AssertionError(f"bulk put {arn}: its end state changed when described again")
    return processed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/crash-test", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=50, help="SIGKILLs (default 50)")
    parser.add_argument("--seed", type=int, default=None, help="seed of every random choice (default: random, printed)")
    parser.add_argument("--writers", type=int, default=4, help="writer threads (default 4)")
    parser.add_argument("--sync", choices=["normal", "full"], default="normal", help="the server's --sync")
    parser.add_argument("--consistency", choices=["exact", "service"], default="exact",
                        help="the server's --consistency (service: drawn from --seed; settled before each check)")
    parser.add_argument("--db-path", type=Path, help="data directory (default: a temporary one, removed on success)")
    parser.add_argument("--max-run", type=float, default=2.0, help="the most time, after 0.2 s, between the writers' start and the kill, seconds")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    rng = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix="localdynamo-crash-"))
    db_path = args.db_path or work / "db"
    print(f"crash-test: {args.rounds} rounds, seed {seed}, --sync {args.sync}, --consistency {args.consistency}, data in {db_path}",
          flush=True)
    s3_dir = work / "s3"
    for bucket in ("bulk-in", "bulk-out"):
        (s3_dir / bucket).mkdir(parents=True)
    (s3_dir / "bulk-in" / "items.json").write_bytes(b"".join(bulk_line(number) for number in range(BULK_ITEMS)))
    service = args.consistency == "service"
    extra = ["--s3-dir", str(s3_dir)] + (["--sync", "full"] if args.sync == "full" else [])
    extra += ["--consistency", "service", "--consistency-seed", str(seed)] if service else []
    server = Server(db_path, extra, log=work / "server.log")
    bulk_items = 0
    model, replica, versions = Model(), StreamReplica(), itertools.count(1)  # next() is atomic
    started = time.monotonic()
    items = 0
    try:
        session = boto3.session.Session()  # clients made in this thread from one session load its models once
        server.start()
        create_table(client(server.url, session=session))
        for round_number in range(1, args.rounds + 1):
            bulk_table = f"Bulk{round_number}"
            bulk_arn = start_bulk_put(client(server.url, session=session), bulk_table)
            writers = [Writer(n, client(server.url, timeout=60, session=session), model, rng.randrange(1 << 30), versions)
                       for n in range(args.writers)]
            for writer in writers:
                writer.start()
            time.sleep(0.2 + rng.random() * args.max_run)
            server.kill()
            for writer in writers:
                writer.join(timeout=60)
                if writer.error:
                    raise writer.error
            check_storage(db_path)
            server.start()
            items = verify(server.url, model, replica, session, service)
            bulk = verify_bulk(server.url, bulk_table, bulk_arn, session)
            bulk_items += bulk
            print(f"round {round_number}: ok ({model.acknowledged} writes answered, {model.unanswered} cut off, "
                  f"{items} items, {replica.records} stream records, bulk put FAILED after {bulk} items)", flush=True)
        server.stop()
        check_storage(db_path)
    except BaseException:
        server.kill()
        print(f"crash-test: FAILED (seed {seed}); data and server log kept in {work}", file=sys.stderr)
        raise
    elapsed = time.monotonic() - started
    print(f"crash-test: passed: {args.rounds} SIGKILLs, {model.acknowledged} acknowledged writes "
          f"(puts, conditional updates, deletes, 25-item batches, 100-action transactions), "
          f"{model.unanswered} cut off by a kill, 0 lost, 0 half-applied, {replica.records} stream records replayed, "
          f"{items} items at the end, {args.rounds} bulk puts cut short with exact counts ({bulk_items} items), {elapsed:.0f} s")
    if args.json:
        args.json.write_text(json.dumps({
            "rounds": args.rounds, "seed": seed, "sync": args.sync, "writers": args.writers,
            "acknowledged_writes": model.acknowledged, "cut_off_writes": model.unanswered, "lost": 0,
            "half_applied_transactions": 0, "stream_records": replica.records, "items_at_end": items,
            "bulk_items_counted": bulk_items,
            "seconds": round(elapsed)}, indent=1))
    if args.db_path is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
