"""Issue 19's targets, each with its measured value and verdict, from a run's results.

Pure functions of the results dictionary that bench.py writes to results.json, so they are
tested (Tests/scripts/test_bench_report.py) without running anything.
"""

from __future__ import annotations

import statistics

import clients

from .workloads import WORKLOADS

# (workload, minimum share of the ceiling's requests/s at 8 connections, servers it applies to)
CEILING_SHARES = [
    ("get", 0.60, ("ld-mem", "ld-disk")),
    ("put", 0.45, ("ld-disk",)),
    ("mix", 0.50, ("ld-mem", "ld-disk")),
    ("query", 0.45, ("ld-mem", "ld-disk")),
    ("batch", 0.20, ("ld-disk",)),
    ("update", 0.40, ("ld-mem", "ld-disk")),
]
SINGLE_ITEM = ("get", "put", "mix", "update", "put-gsi2", "put-stream", "ql-get")
# (workload, base workload, the most CPU per request it may cost relative to the base)
COST_RATIOS = [
    ("put-gsi2", "put", 1.5),
    ("put-stream", "put", 1.15),
    ("transact", "put", 4.0),  # 10 items: under 0.4 of a PutItem per item
]
MIN_SCAN_ITEMS_PER_S = 250_000
# The TTL sweep: expired items deleted per second, and a pass with nothing due (which reads the
# expiry index's due range, not the table's unexpired half).
MIN_TTL_DELETES_PER_S = 20_000
MAX_TTL_IDLE_PASS_MS = 10.0
# Issue #40's vector-search targets: SearchVectors TopK 10 over 100,000 vectors of 384 dimensions.
MAX_VECTOR_P50_MS = 15.0
MAX_VECTOR_P99_MS = 30.0
MIN_BACKFILL_VECTORS_PER_S = 50_000
MAX_VECTOR_INDEX_RSS_SHARE = 1.5  # of the raw f32 bytes
MAX_VECTOR_PUT_CPU_RATIO = 1.3  # a PutItem into a table with one vector index, against one without
MIN_PARTIQL_SHARE_OF_GET = 0.80
IDLE_RSS_KB = 15 * 1024
MAX_COLD_START_MS = 15.0
MILLION_RSS_KB = 300 * 1024
# DynamoClient's requests/s against boto3's, both at 8 requests in flight (the store's goals are
# clients.STORE_ROWS').
MIN_CLIENT_MULTIPLE_OF_BOTO3 = 10

Verdict = tuple[str, str, "bool | None"]


def cell(record: dict | None, workload: str, conns: int, metric: str):
    """One summary metric of a server's workload at a connection count, or None."""
    if not record:
        return None
    per = record["workloads"].get(workload, {}).get(conns)
    if per is None:
        per = record["workloads"].get(workload, {}).get(str(conns))  # results.json keys are strings
    return per["summary"].get(metric) if per else None


def evaluate_targets(results: dict) -> list[Verdict]:
    """(target, measured value, met?) for every target the run has the numbers for."""
    keyed = {r["key"]: r for r in results["servers"]}
    out: list[Verdict] = []
    ceiling = keyed.get("ceiling")
    ours = [key for key in ("ld-mem", "ld-disk") if key in keyed]

    for key in ours:
        label = keyed[key]["label"]
        for workload, minimum, servers in CEILING_SHARES:
            if key not in servers or not ceiling:
                continue
            a, b = cell(keyed[key], workload, 8, "rps"), cell(ceiling, workload, 8, "rps")
            if a is not None and b:
                out.append((f"{label} {WORKLOADS[workload]}, 8 conns ≥ {minimum:.0%} of ceiling",
                            f"{a / b:.0%} ({a:,.0f} / {b:,.0f})", a / b >= minimum))
        a, b = cell(keyed[key], "get", 1, "p50_us"), cell(ceiling, "get", 1, "p50_us")
        if a is not None and b:
            out.append((f"{label} GetItem p50 at 1 conn ≤ 2× ceiling's", f"{a / b:.2f}× ({a:.0f} µs vs {b:.0f} µs)",
                        a <= 2 * b))
        for peer, minimum, workloads in (("moto", 50, SINGLE_ITEM), ("ministack", 15, tuple(WORKLOADS))):
            for workload in workloads:
                a, b = cell(keyed[key], workload, 8, "rps"), cell(keyed.get(peer), workload, 8, "rps")
                if a is not None and b:
                    out.append((f"{label} {WORKLOADS[workload]}, 8 conns ≥ {minimum}× {peer}",
                                f"{a / b:,.0f}×", a / b >= minimum))
        for workload, base, maximum in COST_RATIOS:
            a, b = cell(keyed[key], workload, 8, "cpu_us_per_req"), cell(keyed[key], base, 8, "cpu_us_per_req")
            if a is not None and b:
                out.append((f"{label} {WORKLOADS[workload]}: CPU per request ≤ {maximum}× {WORKLOADS[base]}",
                            f"{a / b:.2f}× ({a:.0f} µs vs {b:.0f} µs)", a <= maximum * b))
        a, b = cell(keyed[key], "ql-get", 8, "rps"), cell(keyed[key], "get", 8, "rps")
        if a is not None and b:
            out.append((f"{label} PartiQL SELECT by key ≥ {MIN_PARTIQL_SHARE_OF_GET:.0%} of GetItem",
                        f"{a / b:.0%}", a / b >= MIN_PARTIQL_SHARE_OF_GET))
        kb = keyed[key].get("idle_rss_kb")
        if kb:
            out.append((f"{label} idle RSS ≤ 15 MB", f"{kb / 1024:.1f} MB", kb <= IDLE_RSS_KB))

    for key, scan in (results.get("scan") or {}).items():
        label = keyed[key]["label"] if key in keyed else key
        for field, what in (("items_per_s", "Scan"), ("parallel_items_per_s", "parallel Scan (2 segments)")):
            value = scan.get(field)
            if value is not None:
                out.append((f"{label} {what} of {scan['items']:,} items ≥ {MIN_SCAN_ITEMS_PER_S:,} items/s",
                            f"{value:,.0f} items/s", value >= MIN_SCAN_ITEMS_PER_S))

    for key, ttl in (results.get("ttl") or {}).items():
        label = keyed[key]["label"] if key in keyed else key
        out.append((f"{label} TTL sweep of {ttl['expired']:,} expired items ≥ {MIN_TTL_DELETES_PER_S:,} items/s",
                    f"{ttl['deleted_per_s']:,.0f} items/s", ttl["deleted_per_s"] >= MIN_TTL_DELETES_PER_S))
        out.append((f"{label} TTL pass with {ttl['items'] - ttl['expired']:,} items none due ≤ {MAX_TTL_IDLE_PASS_MS:.0f} ms",
                    f"{ttl['idle_pass_ms']:.1f} ms", ttl["idle_pass_ms"] <= MAX_TTL_IDLE_PASS_MS))

    for key, vectors in (results.get("vectors") or {}).items():
        label = keyed[key]["label"] if key in keyed else key
        size = f"{vectors['items']:,} × {vectors['dimensions']}"
        for when, search in (("", vectors.get("search")), (" after a restart", vectors.get("after_restart"))):
            if not search:
                continue
            out.append((f"{label} SearchVectors p50 over {size}{when} ≤ {MAX_VECTOR_P50_MS:.0f} ms",
                        f"{search['p50_ms']:.1f} ms", search["p50_ms"] <= MAX_VECTOR_P50_MS))
            out.append((f"{label} SearchVectors p99 over {size}{when} ≤ {MAX_VECTOR_P99_MS:.0f} ms",
                        f"{search['p99_ms']:.1f} ms", search["p99_ms"] <= MAX_VECTOR_P99_MS))
        out.append((f"{label} vector index backfill ≥ {MIN_BACKFILL_VECTORS_PER_S:,} vectors/s",
                    f"{vectors['backfill_vectors_per_s']:,.0f} vectors/s",
                    vectors["backfill_vectors_per_s"] >= MIN_BACKFILL_VECTORS_PER_S))
        share = vectors["index_rss_mb"] / vectors["raw_mb"]
        out.append((f"{label} vector index RSS ≤ {MAX_VECTOR_INDEX_RSS_SHARE}× its raw f32 bytes", f"{share:.2f}×",
                    share <= MAX_VECTOR_INDEX_RSS_SHARE))
        ratio = vectors["put_cpu_us"]["ratio"]
        if ratio is not None:
            out.append((f"{label} PutItem CPU with a vector index ≤ {MAX_VECTOR_PUT_CPU_RATIO}× without", f"{ratio:.2f}×",
                        ratio <= MAX_VECTOR_PUT_CPU_RATIO))

    for key, rows in (results.get("sizes") or {}).items():
        label = keyed[key]["label"] if key in keyed else key
        million = next((r for r in rows if r["items"] == 1_000_000), None)
        if million and million.get("rss_kb"):
            out.append((f"{label} RSS with 1,000,000 items ≤ 300 MB", f"{million['rss_kb'] / 1024:.0f} MB",
                        million["rss_kb"] <= MILLION_RSS_KB))
    for operation, label in clients.OPERATIONS.items():
        at8 = {r["client"]: r for r in results.get("clients") or []
               if r["operation"] == operation and r["concurrency"] == 8}
        ours, theirs = at8.get("DynamoClient"), at8.get("boto3")
        if ours and theirs and theirs["rps"]:
            multiple = ours["rps"] / theirs["rps"]
            out.append((f"DynamoClient {label}, 8 in flight ≥ {MIN_CLIENT_MULTIPLE_OF_BOTO3}× boto3",
                        f"{multiple:.1f}×", multiple >= MIN_CLIENT_MULTIPLE_OF_BOTO3))
    store = results.get("store") or {}
    for key, label, goal in clients.STORE_ROWS:
        if goal is not None and store.get(key) is not None:
            out.append((f"DynamoStore {label} ≤ {goal:.0f} ms", f"{store[key]:.1f} ms", store[key] <= goal))
    for key, samples in (results.get("cold_starts") or {}).items():
        value = statistics.median([s["ms"] for s in samples])
        label = keyed[key]["label"] if key in keyed else key
        out.append((f"{label} cold start ≤ 15 ms", f"{value:.1f} ms (median of {len(samples)})",
                    value <= MAX_COLD_START_MS))
        rss = [s["rss_kb"] for s in samples if s.get("rss_kb")]
        if rss:
            kb = statistics.median(rss)
            out.append((f"{label} RSS at first answer ≤ 15 MB", f"{kb / 1024:.1f} MB (median of {len(rss)})",
                        kb <= IDLE_RSS_KB))
    return out


def bytes_per_item(rows: list[dict]) -> float | None:
    """What the database costs per item: the RSS growth between the smallest and the largest
    table of a size sweep, divided by the items added."""
    measured = [r for r in rows if r.get("rss_kb")]
    if len(measured) < 2:
        return None
    small, large = measured[0], measured[-1]
    added = large["items"] - small["items"]
    return (large["rss_kb"] - small["rss_kb"]) * 1024 / added if added > 0 else None
