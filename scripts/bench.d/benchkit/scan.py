"""The Scan measurement (issue 19): items per second of a whole-table Scan of a large table, over
one connection, and of a parallel Scan with 2 segments (one thread and connection each).

Not a wrk workload: one Scan of a table is many requests (1 MB pages, each following the previous
one's `LastEvaluatedKey`), and what matters is how fast the whole table comes back. Run on
LocalDynamo only: loading 100,000 items into the slower peers takes minutes.
"""

from __future__ import annotations

import http.client
import threading
import time

from .common import HOST, dynamo_request, log
from .servers import ServerSpec, start
from .workloads import TABLE, create_table, preload


def scan_all(port: int, segment: int | None = None, total_segments: int | None = None) -> tuple[int, int]:
    """Scans `TABLE` (or one segment of it) to the end over one keep-alive connection; returns
    (items, pages)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=120)
    items = pages = 0
    start_key = None
    try:
        for _ in range(1_000_000):
            body: dict = {"TableName": TABLE}
            if total_segments:
                body.update(Segment=segment, TotalSegments=total_segments)
            if start_key:
                body["ExclusiveStartKey"] = start_key
            status, answer = dynamo_request(port, "Scan", body, conn=conn)
            if status != 200:
                raise RuntimeError(f"Scan answered {status}: {str(answer)[:300]}")
            items += answer.get("Count", 0)
            pages += 1
            start_key = answer.get("LastEvaluatedKey")
            if not start_key:
                break
    finally:
        conn.close()
    return items, pages


def scan_rates(port: int, expected: int, reps: int) -> dict:
    """The best of `reps` runs of a whole-table Scan and of a 2-segment parallel Scan, in items/s."""
    sequential, parallel = [], []
    pages = 0
    for _ in range(reps):
        started = time.perf_counter()
        items, pages = scan_all(port)
        seconds = time.perf_counter() - started
        if items != expected:
            raise RuntimeError(f"Scan returned {items:,} items, expected {expected:,}")
        sequential.append(items / seconds)

        counts: list[int] = [0, 0]
        errors: list[str] = []

        def worker(segment: int) -> None:
            try:
                counts[segment] = scan_all(port, segment, 2)[0]
            except (RuntimeError, OSError, http.client.HTTPException) as error:
                errors.append(str(error))

        threads = [threading.Thread(target=worker, args=(segment,)) for segment in range(2)]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.perf_counter() - started
        if errors or sum(counts) != expected:
            raise RuntimeError(f"parallel Scan: {errors[:1] or counts}")
        parallel.append(expected / seconds)
    return dict(items=expected, pages=pages, items_per_s=max(sequential), parallel_items_per_s=max(parallel))


def scan_benchmark(spec: ServerSpec, items: int, reps: int, logs) -> dict:
    """Loads `items` items into a fresh server and measures ``scan_rates``."""
    server = start(spec, logs)
    try:
        create_table(server.port)
        seconds = preload(server.port, 0, items)
        log(f"{spec.label}: loaded {items:,} items for the Scan in {seconds:.1f} s")
        result = scan_rates(server.port, items, reps)
        result["rss_kb"] = server.rss_kb()
        log(f"{spec.label} Scan: {result['items_per_s']:,.0f} items/s, 2 segments "
            f"{result['parallel_items_per_s']:,.0f} items/s")
        return result
    finally:
        server.stop()
