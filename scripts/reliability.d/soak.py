"""scripts/soak: 64 connections of mixed operations against a server on disk for --minutes.

Each connection (a thread with its own keep-alive client, no retries) runs GetItem, PutItem,
UpdateItem, Query (table and global index), Scan pages, BatchGetItem, BatchWriteItem,
TransactGetItems and TransactWriteItems over a bounded key space (so the data, and with it the
memory the server needs, stops growing once every key exists). A sampler records the server's
RSS, the WAL file's size and the operations done every few seconds.

Passes when: no request failed (any error at all, SQLite busy states included), the RSS after
warm-up (the first fifth of the run) stays within 10% of its lowest value, and the WAL never
exceeds --wal-limit-mib. Prints one line per window (a minute, or 10 s in runs under 5 minutes)
with operations, errors and p50/p99 latency; --json writes the figures for docs/reliability.md.
"""

from __future__ import annotations

import argparse
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import Server, check_storage, client  # noqa: E402

TABLE = "Soak"
PARTITIONS = 200
SORT_KEYS = 25


def create_table(ddb) -> None:
    ddb.create_table(
        TableName=TABLE,
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "N"},
                              {"AttributeName": "g", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        GlobalSecondaryIndexes=[{"IndexName": "byG", "Projection": {"ProjectionType": "ALL"},
                                 "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"},
                                               {"AttributeName": "sk", "KeyType": "RANGE"}]}],
        BillingMode="PAY_PER_REQUEST",
    )


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: list[tuple[float, float]] = []  # (finished at, seconds)
        self.errors: list[tuple[float, str]] = []
        self.operations = 0

    def record(self, finished: float, seconds: float) -> None:
        with self.lock:
            self.latencies.append((finished, seconds))
            self.operations += 1

    def fail(self, finished: float, message: str) -> None:
        with self.lock:
            self.errors.append((finished, message))


class Connection(threading.Thread):
    def __init__(self, ddb, seed: int, stats: Stats, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.ddb, self.rng, self.stats, self.stop = ddb, random.Random(seed), stats, stop

    def key(self) -> dict:
        return {"pk": {"S": f"p{self.rng.randrange(PARTITIONS)}"}, "sk": {"N": str(self.rng.randrange(SORT_KEYS))}}

    def item(self, key: dict | None = None) -> dict:
        return dict(key or self.key(), g={"S": f"g{self.rng.randrange(50)}"},
                    v={"N": str(self.rng.randrange(10**6))}, pad={"S": "x" * self.rng.randrange(10, 400)})

    def keys(self, count: int) -> list[dict]:
        unique = {}
        while len(unique) < count:
            key = self.key()
            unique[(key["pk"]["S"], key["sk"]["N"])] = key
        return list(unique.values())

    def run(self) -> None:
        operations = [self.get, self.put, self.update, self.query, self.query_index, self.scan,
                      self.batch_get, self.batch_write, self.transact_get, self.transact_write]
        weights = [25, 15, 10, 12, 8, 3, 8, 7, 6, 6]
        while not self.stop.is_set():
            operation = self.rng.choices(operations, weights)[0]
            started = time.monotonic()
            try:
                operation()
            except Exception as error:  # noqa: BLE001 - every failure is counted
                self.stats.fail(time.monotonic(), f"{operation.__name__}: {type(error).__name__}: {error}"[:300])
                continue
            finished = time.monotonic()
            self.stats.record(finished, finished - started)

    def get(self):
        self.ddb.get_item(TableName=TABLE, Key=self.key(), ConsistentRead=self.rng.random() < 0.5)

    def put(self):
        self.ddb.put_item(TableName=TABLE, Item=self.item())

    def update(self):
        self.ddb.update_item(TableName=TABLE, Key=self.key(), UpdateExpression="ADD n :one SET g = :g",
                             ExpressionAttributeValues={":one": {"N": "1"}, ":g": {"S": f"g{self.rng.randrange(50)}"}})

    def query(self):
        self.ddb.query(TableName=TABLE, KeyConditionExpression="pk = :p AND sk >= :s",
                       ExpressionAttributeValues={":p": {"S": f"p{self.rng.randrange(PARTITIONS)}"},
                                                  ":s": {"N": str(self.rng.randrange(SORT_KEYS))}})

    def query_index(self):
        self.ddb.query(TableName=TABLE, IndexName="byG", KeyConditionExpression="g = :g", Limit=50,
                       ExpressionAttributeValues={":g": {"S": f"g{self.rng.randrange(50)}"}})

    def scan(self):
        segments = 8
        self.ddb.scan(TableName=TABLE, Limit=200, Segment=self.rng.randrange(segments), TotalSegments=segments)

    def batch_get(self):
        answer = self.ddb.batch_get_item(RequestItems={TABLE: {"Keys": self.keys(50)}})
        if answer.get("UnprocessedKeys"):
            raise RuntimeError("unprocessed keys")

    def batch_write(self):
        requests = [{"DeleteRequest": {"Key": key}} if self.rng.random() < 0.2 else {"PutRequest": {"Item": self.item(key)}}
                    for key in self.keys(25)]
        answer = self.ddb.batch_write_item(RequestItems={TABLE: requests})
        if answer.get("UnprocessedItems"):
            raise RuntimeError("unprocessed items")

    def transact_get(self):
        self.ddb.transact_get_items(TransactItems=[{"Get": {"TableName": TABLE, "Key": key}} for key in self.keys(10)])

    def transact_write(self):
        self.ddb.transact_write_items(TransactItems=[{"Put": {"TableName": TABLE, "Item": self.item(key)}}
                                                     for key in self.keys(10)])


MEMORY_FAMILIES = {"localdynamo_malloc_in_use_bytes": "malloc_in_use_kib", "localdynamo_malloc_held_bytes": "malloc_held_kib",
                   "localdynamo_sqlite_memory_bytes": "sqlite_kib"}


def memory_breakdown(url: str) -> dict:
    """The server's own account of its memory from /metrics (allocator and SQLite, in KiB), so a
    growing RSS can be told apart: SQLite's caches, the heap in use, or memory the allocator holds
    free. Empty where the platform does not report them."""
    try:
        with urllib.request.urlopen(url + "/metrics", timeout=10) as answer:
            text = answer.read().decode()
    except OSError:
        return {}
    found = {}
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name in MEMORY_FAMILIES:
            found[MEMORY_FAMILIES[name]] = int(float(value)) // 1024
    return found


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def wal_bytes(db_path: Path) -> int:
    return sum(file.stat().st_size for file in db_path.glob("*.db-wal") if file.exists())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/soak", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=30, help="how long (default 30)")
    parser.add_argument("--connections", type=int, default=64, help="concurrent connections (default 64)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--wal-limit-mib", type=float, default=64, help="the largest WAL allowed (default 64 MiB)")
    parser.add_argument("--rss-tolerance", type=float, default=0.10, help="allowed RSS spread after warm-up (default 0.10)")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    duration = args.minutes * 60
    window = 60.0 if args.minutes >= 5 else 10.0
    work = Path(tempfile.mkdtemp(prefix="localdynamo-soak-"))
    db_path = work / "db"
    server = Server(db_path, log=work / "server.log")
    stats, stop = Stats(), threading.Event()
    samples: list[dict] = []
    print(f"soak: {args.connections} connections for {args.minutes:g} min, data in {db_path}", flush=True)
    try:
        server.start()
        session = boto3.session.Session()
        setup = client(server.url, session=session)
        create_table(setup)
        loader = Connection(setup, args.seed, stats, stop)
        for partition in range(PARTITIONS):  # every key exists from the start: the data size is flat
            for start in range(0, SORT_KEYS, 25):
                setup.batch_write_item(RequestItems={TABLE: [
                    {"PutRequest": {"Item": loader.item({"pk": {"S": f"p{partition}"}, "sk": {"N": str(sk)}})}}
                    for sk in range(start, min(start + 25, SORT_KEYS))]})
        clients = [client(server.url, session=session, timeout=60, pool=1) for _ in range(args.connections)]
        threads = [Connection(ddb, args.seed * 1000 + n, stats, stop) for n, ddb in enumerate(clients)]
        began = time.monotonic()
        for thread in threads:
            thread.start()
        next_window = began + window
        window_start_ops = 0
        while (now := time.monotonic()) < began + duration:
            time.sleep(min(2.0, began + duration - now))
            now = time.monotonic()
            samples.append({"t": round(now - began, 1), "rss_kib": server.rss_kib(), "wal_bytes": wal_bytes(db_path),
                            "operations": stats.operations})
            if now >= next_window or now >= began + duration:
                with stats.lock:
                    recent = [seconds for finished, seconds in stats.latencies if finished >= next_window - window]
                    errors = sum(1 for finished, _ in stats.errors if finished >= next_window - window)
                samples[-1].update(memory_breakdown(server.url))
                samples[-1].update(window_operations=stats.operations - window_start_ops, window_errors=errors,
                                   p50_ms=round(percentile(recent, 0.50) * 1000, 1),
                                   p99_ms=round(percentile(recent, 0.99) * 1000, 1))
                window_start_ops = stats.operations
                print(f"  {now - began:6.0f} s: {samples[-1]['window_operations']} ops, {errors} errors, "
                      f"p50 {samples[-1]['p50_ms']} ms, p99 {samples[-1]['p99_ms']} ms, "
                      f"RSS {samples[-1]['rss_kib'] / 1024:.1f} MiB"
                      + "".join(f", {label} {samples[-1][key] / 1024:.1f} MiB" for key, label in
                                (("malloc_in_use_kib", "heap in use"), ("malloc_held_kib", "heap held"), ("sqlite_kib", "SQLite"))
                                if key in samples[-1])
                      + f", WAL {samples[-1]['wal_bytes'] / 2**20:.1f} MiB", flush=True)
                next_window += window
        stop.set()
        for thread in threads:
            thread.join(timeout=120)
        elapsed = time.monotonic() - began
        exit_code = server.stop()
        check_storage(db_path)
    except BaseException:
        stop.set()
        server.kill()
        print(f"soak: aborted; server log in {work}", file=sys.stderr)
        raise
    warm = [s["rss_kib"] for s in samples if s["t"] >= duration * 0.2]
    rss_spread = (max(warm) - min(warm)) / min(warm) if warm else 0.0
    wal_max = max((s["wal_bytes"] for s in samples), default=0)
    busy = sum(1 for _, message in stats.errors if "busy" in message.lower() or "locked" in message.lower())
    p99s = [s["p99_ms"] for s in samples if "p99_ms" in s]
    result = {
        "minutes": args.minutes, "connections": args.connections, "operations": stats.operations,
        "operations_per_second": round(stats.operations / elapsed, 1), "errors": len(stats.errors),
        "busy_errors": busy, "rss_mib_after_warmup": [round(min(warm) / 1024, 1), round(max(warm) / 1024, 1)] if warm else [],
        "rss_spread": round(rss_spread, 4), "wal_max_mib": round(wal_max / 2**20, 2),
        "p99_ms_per_window": p99s, "window_seconds": window, "server_exit": exit_code, "samples": samples,
        "first_errors": [message for _, message in stats.errors[:10]],
    }
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    problems = []
    if stats.errors:
        problems.append(f"{len(stats.errors)} errors ({busy} busy/locked), first: {result['first_errors'][:3]}")
    if rss_spread > args.rss_tolerance:
        problems.append(f"RSS after warm-up spread {rss_spread:.1%} (from {min(warm)} to {max(warm)} KiB)")
    if wal_max > args.wal_limit_mib * 2**20:
        problems.append(f"WAL reached {wal_max / 2**20:.1f} MiB")
    if exit_code != 0:
        problems.append(f"the server exited {exit_code} on SIGTERM")
    print(f"soak: {stats.operations} operations ({result['operations_per_second']}/s), {len(stats.errors)} errors, "
          f"RSS after warm-up {result['rss_mib_after_warmup']} MiB (spread {rss_spread:.1%}), "
          f"WAL at most {result['wal_max_mib']} MiB, p99 per window {p99s} ms")
    if problems:
        print("soak: FAILED: " + "; ".join(problems) + f" (server log in {work})", file=sys.stderr)
        return 1
    shutil.rmtree(work, ignore_errors=True)
    print("soak: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
