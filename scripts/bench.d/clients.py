"""The client comparison of scripts/bench (issue 6): DynamoClient (Benchmarks/Sources/ClientBench)
next to boto3 (boto3_bench.py), the same requests against the same in-memory LocalDynamo, one
client after the other, and then the store benchmark (Benchmarks/Sources/StoreBench: DynamoStore's
save of 500 new objects and fetches of 1,000 by Query and by Scan) against the same server.

Used by bench.py; standard library only (boto3 runs in its own interpreter).
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import time
from pathlib import Path

OPERATIONS = {"get": "GetItem", "put": "PutItem (new key)", "query": "Query (10 items)"}
CONCURRENCY = [1, 8]


def run_json(command: list[str], timeout: float, env: dict | None = None) -> dict:
    """Runs a benchmark client (with `env` added to the environment) and returns the JSON line it prints."""
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **env} if env else None)
    if done.returncode != 0:
        raise RuntimeError(f"{Path(command[0]).name} failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def bench_clients(port: int, items: int, seconds: float, reps: int, client_bench: Path,
                  boto3_python: str | None, log) -> list[dict]:
    """Median requests/s and latencies of each client, operation and concurrency."""
    endpoint = f"http://127.0.0.1:{port}"
    boto3_script = Path(__file__).resolve().parent / "boto3_bench.py"
    # DynamoClient once per transport (DYNAMOCLIENT_TRANSPORT picks it; on Linux both exist).
    clients = [("DynamoClient", [str(client_bench)], {"DYNAMOCLIENT_TRANSPORT": "curl"}),
               ("DynamoClient/URLSession", [str(client_bench)], {"DYNAMOCLIENT_TRANSPORT": "urlsession"})]
    if boto3_python:
        clients.append(("boto3", [boto3_python, str(boto3_script)], None))
    rows = []
    for operation in OPERATIONS:
        for concurrency in CONCURRENCY:
            for name, command, env in clients:
                runs = [run_json(command + ["--endpoint", endpoint, "--operation", operation,
                                            "--concurrency", str(concurrency), "--seconds", str(seconds),
                                            "--items", str(items)], timeout=seconds * 10 + 60, env=env)
                        for _ in range(reps)]
                row = dict(client=name, operation=operation, concurrency=concurrency,
                           rps=statistics.median(r["rps"] for r in runs),
                           p50_us=statistics.median(r["p50_us"] for r in runs),
                           p99_us=statistics.median(r["p99_us"] for r in runs),
                           requests=sum(r["requests"] for r in runs))
                rows.append(row)
                log(f"client {name} {operation} c={concurrency}: {row['rps']:.0f} req/s, "
                    f"p50 {row['p50_us']:.0f} us, p99 {row['p99_us']:.0f} us")
    return rows


def render_clients(rows: list[dict], fmt, fmt_us) -> list[str]:
    """The Markdown table of the client comparison, with DynamoClient/boto3 ratios."""
    if not rows:
        return []
    lines = ["### Clients: DynamoClient and boto3 against LocalDynamo (memory)", "",
             "Each client in its own process against the same server, one after the other; "
             "concurrency is async tasks (DynamoClient) or threads sharing one client (boto3). "
             "DynamoClient runs on libcurl and again on URLSession (`DYNAMOCLIENT_TRANSPORT`); "
             "the ratio is libcurl's against boto3.", "",
             "| operation | conc. | DynamoClient req/s | URLSession req/s | boto3 req/s | ratio | DynamoClient p50 "
             "| URLSession p50 | boto3 p50 |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    keyed = {(r["client"], r["operation"], r["concurrency"]): r for r in rows}
    for operation, label in OPERATIONS.items():
        for concurrency in CONCURRENCY:
            ours = keyed.get(("DynamoClient", operation, concurrency))
            session = keyed.get(("DynamoClient/URLSession", operation, concurrency))
            theirs = keyed.get(("boto3", operation, concurrency))
            if not ours:
                continue
            ratio = f"{ours['rps'] / theirs['rps']:.1f}×" if theirs and theirs["rps"] else "–"
            lines.append(f"| {label} | {concurrency} | {fmt(ours['rps'])} | {fmt(session['rps']) if session else '–'} "
                         f"| {fmt(theirs['rps']) if theirs else '–'} | {ratio} | {fmt_us(ours['p50_us'])} "
                         f"| {fmt_us(session['p50_us']) if session else '–'} | {fmt_us(theirs['p50_us']) if theirs else '–'} |")
    lines.append("")
    return lines


STORE_ROWS = [("save_500_ms", "`save()` of 500 new objects (5 transactions of 100)", 40.0),
              ("query_1000_ms", "fetch of 1,000 objects planned as a Query (one partition)", 50.0),
              ("scan_1000_ms", "fetch of 1,000 objects planned as a Scan", None)]

# Write cost per save: (key prefix, label, the requests it should take or None).
STORE_WRITES = [("save_500", "`save()` of 500 new objects", None),
                ("single_insert", "`save()` of one new object", 1),
                ("single_update", "`save()` of one changed attribute of one object", 1)]


def bench_store(port: int, reps: int, store_bench: Path, log) -> dict:
    """DynamoStore's save and fetch times (medians over `reps`, measured by store-bench)."""
    result = run_json([str(store_bench), "--endpoint", f"http://127.0.0.1:{port}", "--reps", str(reps)],
                      timeout=120 + 30 * reps)
    log(f"store: save 500 {result['save_500_ms']:.1f} ms, query 1,000 {result['query_1000_ms']:.1f} ms, "
        f"scan 1,000 {result['scan_1000_ms']:.1f} ms (medians of {result['reps']})")
    return result


def bench_graph(seeds: int, workers: int, steps: int, log) -> dict:
    """The long run of DynamoStore's concurrency property test (GraphConcurrencyTests: contexts
    editing one graph at once under random merge policies, then the graph checker), in the test
    build; scripts/test runs its short form."""
    root = Path(__file__).resolve().parents[2]
    subprocess.run(["swift", "build", "--build-tests"], cwd=root, check=True, capture_output=True, timeout=3600)
    environment = dict(os.environ, STORE_GRAPH_SEEDS=str(seeds), STORE_GRAPH_WORKERS=str(workers),
                       STORE_GRAPH_STEPS=str(steps))
    started = time.monotonic()
    run = subprocess.run(["swift", "test", "--skip-build", "--filter", "GraphConcurrencyTests"], cwd=root,
                         env=environment, capture_output=True, text=True, timeout=3600)
    seconds = time.monotonic() - started
    failed = sorted(set(re.findall(r"seed (\d+)", run.stdout + run.stderr))) if run.returncode else []
    outcome = "no failure" if run.returncode == 0 else \
        f"FAILED (exit {run.returncode}; seeds {', '.join(failed) or 'unknown'})"
    log(f"store graph long run: {seeds} seeds x {workers} x {steps}: {outcome} in {seconds:.0f} s")
    return {"seeds": seeds, "workers": workers, "steps": steps, "outcome": outcome, "seconds": seconds,
            "passed": run.returncode == 0}


def render_store(result: dict) -> list[str]:
    """The Markdown table of the store benchmark, with the save goal of issue 7."""
    if not result:
        return []
    graph = result.get("graph")
    graph_lines = [f"Concurrency property test, long run: {graph['seeds']} seeds × {graph['workers']} contexts × "
                   f"{graph['steps']} saves each, one server per seed, the graph checker after each: "
                   f"{graph['outcome']} ({graph['seconds']:.0f} s).", ""] if graph else []
    if "save_500_ms" not in result:
        return ["### DynamoStore against LocalDynamo (memory)", "", "The timings failed (see the log).", "", *graph_lines]
    lines = ["### DynamoStore against LocalDynamo (memory)", "",
             f"One process (`store-bench`, release build), median of {result['reps']} reps, each fetch in a "
             f"fresh context (every object read and materialized); the scanned table holds "
             f"{result['scan_table_items']:,} items. Every count is checked.", "",
             "| operation | ms | goal |", "|---|---:|---|"]
    for key, label, goal in STORE_ROWS:
        verdict = "–" if goal is None else f"≤ {goal:.0f} ms: {'met' if result[key] <= goal else 'NOT met'}"
        lines.append(f"| {label} | {result[key]:.1f} | {verdict} |")
    if "save_500_wcu" in result:
        lines += ["", "Write cost per save (the `ConsumedCapacity` the store asks for, summed by a client observer):", "",
                  "| save | write units | requests | goal |", "|---|---:|---:|---|"]
        for key, label, requests in STORE_WRITES:
            verdict = "–" if requests is None else \
                f"{requests} request: {'met' if result[key + '_requests'] == requests else 'NOT met'}"
            lines.append(f"| {label} | {result[key + '_wcu']:g} | {result[key + '_requests']} | {verdict} |")
    lines.append("")
    return lines + graph_lines
