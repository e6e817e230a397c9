"""The vector-search measurement (issue #40): SearchVectors latency over a large vector index, the
rate at which UpdateTable builds (backfills) an index over a loaded table, the index's resident
memory against its raw f32 bytes, and what a vector index adds to a PutItem's CPU.

Run on LocalDynamo only: no peer has vector indexes. Figures, not ratios, except PutItem's CPU
with an index against without one, measured in the same run. Each figure is one run on a shared
machine: read them as orders of magnitude and trends, never as a gate.
"""

from __future__ import annotations

import http.client
import random
import shutil
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from .common import HOST, dynamo_request, log
from .servers import ServerSpec, start
from .ttl import admin

TABLE = "bench-vectors"
INDEX = "by-embedding"
PUTS = 1_000  # PutItems timed with and without the index


def vector_text(rng: random.Random, dimensions: int) -> str:
    """A random vector as DynamoDB JSON (`{"L": [{"N": ...}, ...]}`), four decimals a component."""
    return '{"L":[' + ",".join('{"N":"%.4f"}' % (rng.random() * 2 - 1) for _ in range(dimensions)) + "]}"


def create(port: int, name: str, dimensions: int | None) -> None:
    body: dict = {
        "TableName": name, "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
    }
    if dimensions:
        body["VectorIndexes"] = [index_spec(dimensions)]
    status, answer = dynamo_request(port, "CreateTable", body)
    if status != 200:
        raise RuntimeError(f"CreateTable answered {status}: {str(answer)[:300]}")


def index_spec(dimensions: int) -> dict:
    return {"IndexName": INDEX, "VectorAttribute": {"AttributeName": "emb"}, "Projection": {"ProjectionType": "KEYS_ONLY"},
            "Dimensions": dimensions, "DistanceFunction": "COSINE"}


def load(port: int, name: str, items: int, dimensions: int, seed: int) -> float:
    """Writes `items` items with a random vector each (BatchWriteItem, 25 a request); seconds."""
    rng = random.Random(seed)
    conn = http.client.HTTPConnection(HOST, port, timeout=120)
    started = time.perf_counter()
    try:
        for first in range(0, items, 25):
            puts = ",".join('{"PutRequest":{"Item":{"pk":{"S":"item-%07d"},"emb":%s}}}' % (n, vector_text(rng, dimensions))
                            for n in range(first, min(items, first + 25)))
            status, answer = dynamo_request(port, "BatchWriteItem", '{"RequestItems":{"%s":[%s]}}' % (name, puts), conn=conn)
            if status != 200 or answer.get("UnprocessedItems"):
                raise RuntimeError(f"BatchWriteItem answered {status}: {str(answer)[:300]}")
    finally:
        conn.close()
    return time.perf_counter() - started


def wait_active(port: int) -> None:
    """Moves the server clock past the index's backfilling second and waits for ACTIVE."""
    for _ in range(600):
        status, answer = dynamo_request(port, "DescribeTable", {"TableName": TABLE})
        indexes = answer.get("Table", {}).get("VectorIndexes", [])
        if status == 200 and indexes and indexes[0].get("IndexStatus") == "ACTIVE" and not indexes[0].get("Backfilling"):
            return
        admin(port, "/_localdynamo/clock", {"advanceSeconds": 2})
        time.sleep(0.05)
    raise RuntimeError("the vector index never became ACTIVE")


def searches(port: int, dimensions: int, count: int, seed: int) -> dict:
    """The first search (it loads the index into memory) and `count` more, TopK 10, one connection."""
    rng = random.Random(seed)
    conn = http.client.HTTPConnection(HOST, port, timeout=120)
    latencies = []
    try:
        for n in range(count + 1):
            body = '{"TableName":"%s","IndexName":"%s","TopK":10,"SearchVector":%s}' % (
                TABLE, INDEX, vector_text(rng, dimensions)[5:-1])
            started = time.perf_counter()
            status, answer = dynamo_request(port, "SearchVectors", body, conn=conn)
            latencies.append(time.perf_counter() - started)
            if status != 200 or len(answer.get("SearchResults", [])) != 10:
                raise RuntimeError(f"SearchVectors answered {status}: {str(answer)[:300]}")
    finally:
        conn.close()
    rest = sorted(latencies[1:])
    return dict(first_ms=latencies[0] * 1000, p50_ms=statistics.median(rest) * 1000,
                p99_ms=rest[min(len(rest) - 1, int(len(rest) * 0.99))] * 1000, searches=count)


def put_cpu_per_request(server, name: str, dimensions: int, count: int, seed: int, prefix: str) -> float:
    """Server CPU seconds per PutItem of a new item (`<prefix>-<n>`) with a vector into `name`."""
    rng = random.Random(seed)
    bodies = ['{"TableName":"%s","Item":{"pk":{"S":"%s-%07d"},"emb":%s}}' % (name, prefix, n, vector_text(rng, dimensions))
              for n in range(count)]
    conn = http.client.HTTPConnection(HOST, server.port, timeout=60)
    try:
        before = server.cpu()
        for body in bodies:
            status, answer = dynamo_request(server.port, "PutItem", body, conn=conn)
            if status != 200:
                raise RuntimeError(f"PutItem answered {status}: {str(answer)[:300]}")
        return (server.cpu() - before) / count
    finally:
        conn.close()


def vector_benchmark(spec: ServerSpec, items: int, dimensions: int, logs) -> dict:
    """Loads `items` vectors, builds the index over them, searches (also after a restart, on disk),
    and compares PutItem's CPU with and without the index."""
    directory = Path(tempfile.mkdtemp(prefix="localdynamo-bench-vectors-"))
    on_disk = spec.needs_dir
    if on_disk:
        # One data directory for both runs of the server, so the second reads what the first wrote.
        spec = replace(spec, command=lambda port, _d, c=spec.command: c(port, directory), needs_dir=False)
    result: dict = dict(items=items, dimensions=dimensions, raw_mb=items * dimensions * 4 / 1e6)
    server = start(spec, logs)
    try:
        create(server.port, TABLE, None)
        seconds = load(server.port, TABLE, items, dimensions, seed=40)
        result["load_items_per_s"] = items / seconds
        log(f"{spec.label}: loaded {items:,} vectors of {dimensions} dimensions in {seconds:.1f} s")
        # PutItem's CPU is compared on the same table, as large, before and after it has the index.
        without = put_cpu_per_request(server, TABLE, dimensions, PUTS, seed=44, prefix="before")
        started = time.perf_counter()
        status, answer = dynamo_request(server.port, "UpdateTable", {
            "TableName": TABLE, "VectorIndexUpdates": [{"Create": index_spec(dimensions)}]}, timeout=600)
        if status != 200:
            raise RuntimeError(f"UpdateTable answered {status}: {str(answer)[:300]}")
        wait_active(server.port)
        result["backfill_vectors_per_s"] = (items + PUTS) / (time.perf_counter() - started)
        rss_before = server.rss_kb() or 0
        result["search"] = searches(server.port, dimensions, 100, seed=41)
        result["index_rss_mb"] = ((server.rss_kb() or 0) - rss_before) / 1024
        with_index = put_cpu_per_request(server, TABLE, dimensions, PUTS, seed=43, prefix="after")
        result["put_cpu_us"] = dict(with_index=with_index * 1e6, without=without * 1e6,
                                    ratio=with_index / without if without else None)
        log(f"{spec.label} SearchVectors: p50 {result['search']['p50_ms']:.1f} ms, p99 {result['search']['p99_ms']:.1f} ms; "
            f"backfill {result['backfill_vectors_per_s']:,.0f} vectors/s; PutItem CPU ×{result['put_cpu_us']['ratio'] or 0:.2f}")
    finally:
        server.stop()
    if on_disk:
        server = start(spec, logs)
        try:
            result["after_restart"] = searches(server.port, dimensions, 100, seed=45)
            log(f"{spec.label} after a restart: first search {result['after_restart']['first_ms']:.0f} ms, "
                f"p50 {result['after_restart']['p50_ms']:.1f} ms")
        finally:
            server.stop()
    shutil.rmtree(directory, ignore_errors=True)
    return result
