#!/usr/bin/env python3
"""boto3's side of the client comparison in scripts/bench: the same requests as
Benchmarks/Sources/ClientBench (DynamoClient), for a fixed time, over `--concurrency` threads
sharing one boto3 client (boto3 clients are thread-safe), printing one JSON line.

    boto3_bench.py --endpoint http://127.0.0.1:8000 --operation get --concurrency 8 --seconds 3

Every request must succeed; a failure ends the run with exit status 1.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time

import boto3
from botocore.config import Config

PAYLOAD = "abcdefghij" * 12


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--endpoint", default="http://127.0.0.1:8000")
    parser.add_argument("--operation", choices=["get", "put", "query"], default="get")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--table", default="bench")
    args = parser.parse_args()

    client = boto3.client(
        "dynamodb", endpoint_url=args.endpoint, region_name="us-east-1",
        aws_access_key_id="localdynamo", aws_secret_access_key="localdynamo",
        config=Config(max_pool_connections=max(10, args.concurrency), retries={"mode": "standard"}))
    deadline = time.perf_counter() + args.seconds
    latencies: list[list[float]] = [[] for _ in range(args.concurrency)]
    failures: list[str] = []

    def request(worker: int, sequence: int) -> None:
        if args.operation == "get":
            index = random.randrange(args.items)
            answer = client.get_item(TableName=args.table, Key={
                "pk": {"S": "p%08d" % (index // 10)}, "sk": {"N": str(index % 10)}})
            if "Item" not in answer:
                raise RuntimeError(f"GetItem found no item for {index}")
        elif args.operation == "put":
            index = args.items + 10_000_000 * (worker + 1) + sequence
            client.put_item(TableName=args.table, Item={
                "pk": {"S": "p%08d" % (index // 10)}, "sk": {"N": str(index % 10)},
                "data": {"S": PAYLOAD}, "n": {"N": str(index)}})
        else:
            partition = random.randrange(args.items // 10)
            answer = client.query(TableName=args.table, KeyConditionExpression="pk = :p",
                                  ExpressionAttributeValues={":p": {"S": "p%08d" % partition}})
            if answer["Count"] != 10:
                raise RuntimeError(f"Query returned {answer['Count']} items, not 10")

    def worker(number: int) -> None:
        sequence = 0
        try:
            while time.perf_counter() < deadline:
                begin = time.perf_counter()
                request(number, sequence)
                latencies[number].append((time.perf_counter() - begin) * 1e6)
                sequence += 1
        except Exception as error:  # noqa: BLE001 - reported below
            failures.append(f"{type(error).__name__}: {error}")

    started = time.perf_counter()
    threads = [threading.Thread(target=worker, args=(n,)) for n in range(args.concurrency)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - started
    if failures:
        print(f"boto3_bench: {failures[0]}", file=sys.stderr)
        return 1
    merged = sorted(value for per_worker in latencies for value in per_worker)

    def percentile(fraction: float) -> float:
        return merged[min(len(merged) - 1, int(len(merged) * fraction))] if merged else 0.0

    print(json.dumps(dict(client="boto3", operation=args.operation, concurrency=args.concurrency,
                          requests=len(merged), seconds=seconds, rps=len(merged) / seconds,
                          p50_us=percentile(0.5), p99_us=percentile(0.99)), sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
