"""Measuring a running server: wrk runs with the server's CPU and the machine's noise around them,
the medians of repeated runs, a whole server's pass over the workloads, the table-size sweep, the
client comparison and the perf profile."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import clients

from .common import HOST, LUA, log, machine_busy_seconds, median
from .report import fmt, fmt_mb
from .servers import RunningServer, ServerSpec, display_command, python_with, server_specs, start
from .workloads import PER_PARTITION, TABLE, create_table, preload, probe


def wait_idle(server: RunningServer, timeout: float = 60.0) -> float:
    """Waits until the server uses under 5% of a core (it is still working on requests a previous
    wrk run abandoned at its deadline: a slow server's backlog would otherwise eat into the next
    run). Returns the seconds waited; bounded by `timeout`."""
    started = time.perf_counter()
    last = server.cpu()
    while time.perf_counter() - started < timeout:
        time.sleep(0.2)
        now = server.cpu()
        if now - last < 0.01:
            break
        last = now
    return time.perf_counter() - started


def run_wrk(server: RunningServer, workload: str, conns: int, duration: int, items: int,
            scratch: Path) -> dict:
    out = scratch / f"wrk-{server.spec.key}-{workload}-{conns}-{time.monotonic_ns()}.json"
    threads = min(conns, 2)
    command = ["wrk", "-t", str(threads), "-c", str(conns), "-d", f"{duration}s", "--timeout", "10s",
               "-s", str(LUA), f"http://{HOST}:{server.port}/"]
    env = dict(os.environ, BENCH_OP=workload, BENCH_TABLE=TABLE,
               BENCH_PARTITIONS=str(max(1, items // PER_PARTITION)), BENCH_PER_PART=str(PER_PARTITION),
               BENCH_NONCE=f"{os.getpid()}x{time.monotonic_ns() % 10**9}", BENCH_OUT=str(out))
    drained = wait_idle(server)
    if server.proc.poll() is not None:
        raise RuntimeError(f"{server.spec.key} exited with {server.proc.returncode}: {server.log_tail()}")
    before_children = os.times()
    cpu0, busy0, wall0 = server.cpu(), machine_busy_seconds(), time.perf_counter()
    completed = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=duration + 60, check=False)
    cpu1, busy1, wall1 = server.cpu(), machine_busy_seconds(), time.perf_counter()
    after_children = os.times()
    if completed.returncode != 0 or not out.exists():
        raise RuntimeError(f"wrk failed ({completed.returncode}): {completed.stdout.decode(errors='replace')[-800:]}")
    result = json.loads(out.read_text())
    out.unlink()
    requests = result["requests"]
    seconds = result["duration_us"] / 1e6
    wrk_cpu = ((after_children.children_user + after_children.children_system)
               - (before_children.children_user + before_children.children_system))
    server_cpu = cpu1 - cpu0
    wall = wall1 - wall0
    errors = result["errors"]
    if requests == 0:
        result["latency_us"] = {key: None for key in result["latency_us"]}
    result.update(
        rps=requests / seconds if seconds else 0.0,
        server_cpu_s=server_cpu,
        cpu_us_per_req=(server_cpu / requests * 1e6) if requests else None,
        wrk_cpu_s=wrk_cpu,
        # Cores busy with anything but the server and wrk during the run: the noise from the
        # other processes sharing this machine.
        other_cores=max(0.0, (busy1 - busy0) - server_cpu - wrk_cpu) / wall if wall else None,
        non2xx=errors["status"],
        socket_errors=errors["connect"] + errors["read"] + errors["write"] + errors["timeout"],
        rss_kb=server.rss_kb(),
        drained_s=round(drained, 2),
    )
    return result


MIN_REQUESTS = 30

MAX_EXTENDED_SECONDS = 10  # --quick lowers it to 5


def measure(server: RunningServer, workload: str, conns: int, duration: int, items: int, scratch: Path) -> dict:
    """One wrk run; a run too short to complete MIN_REQUESTS requests (a slow peer) is redone
    once with a duration long enough for about that many, at most MAX_EXTENDED_SECONDS."""
    result = run_wrk(server, workload, conns, duration, items, scratch)
    cap = MAX_EXTENDED_SECONDS
    if result["requests"] < MIN_REQUESTS and duration < cap:
        longer = cap if result["requests"] == 0 else min(cap, -(-duration * MIN_REQUESTS // result["requests"]))
        if longer > duration:
            result = run_wrk(server, workload, conns, longer, items, scratch)
            result["extended_to_s"] = longer
    return result


def summarize(runs: list[dict]) -> dict:
    return dict(
        rps=median([r["rps"] for r in runs]),
        p50_us=median([r["latency_us"]["p50"] for r in runs]),
        p99_us=median([r["latency_us"]["p99"] for r in runs]),
        cpu_us_per_req=median([r["cpu_us_per_req"] for r in runs]),
        other_cores=median([r["other_cores"] for r in runs]),
        requests=sum(r["requests"] for r in runs),
        non2xx=sum(r["non2xx"] for r in runs),
        socket_errors=sum(r["socket_errors"] for r in runs),
        reps=len(runs),
        extended=max((r.get("extended_to_s") or 0) for r in runs) or None,
        rps_all=[round(r["rps"], 1) for r in runs],
    )


def bench_server(spec: ServerSpec, args, logs: Path, scratch: Path) -> dict:
    record: dict = dict(key=spec.key, label=spec.label, kind=spec.kind, workloads={}, problems=[],
                        command=display_command(spec))
    try:
        _bench_server(spec, args, logs, scratch, record)
    except (RuntimeError, subprocess.SubprocessError, OSError, ValueError) as error:
        log(f"{spec.label}: FAILED: {error}")
        record["problems"].append(f"failed: {str(error)[:300]}")
    return record


def _bench_server(spec: ServerSpec, args, logs: Path, scratch: Path, record: dict) -> None:
    server = start(spec, logs)
    record["cold_start_ms"] = server.cold_start_ms
    try:
        time.sleep(1.0)
        record["idle_rss_kb"] = server.rss_kb()
        record["idle_threads"] = server.threads()
        if spec.kind != "ceiling":
            cpu0 = server.cpu()
            create_table(server.port)
            seconds = preload(server.port, 0, args.items)
            record["preload_s"] = seconds
            record["preload_cpu_s"] = server.cpu() - cpu0
            log(f"{spec.label}: preloaded {args.items:,} items in {seconds:.2f} s")
            time.sleep(0.5)
            record["loaded_rss_kb"] = server.rss_kb()
        for workload in args.workloads:
            problem = probe(server.port, workload, args.items, spec.kind == "ceiling")
            if problem:
                log(f"{spec.label} {workload}: probe failed, skipped: {problem}")
                record["problems"].append(f"{workload}: {problem}")
                continue
            if args.warmup:
                run_wrk(server, workload, 8, args.warmup, args.items, scratch)
            per_conns = {}
            for conns in args.conns:
                runs = [measure(server, workload, conns, args.duration, args.items, scratch) for _ in range(args.reps)]
                per_conns[conns] = dict(summary=summarize(runs), runs=runs)
                s = per_conns[conns]["summary"]
                log(f"{spec.label} {workload} c={conns}: {s['rps']:.0f} req/s, p50 {s['p50_us']} us, "
                    f"p99 {s['p99_us']} us, {fmt(s['cpu_us_per_req'], 1)} us CPU/req, non-2xx {s['non2xx']}")
            record["workloads"][workload] = per_conns
        record["final_rss_kb"] = server.rss_kb()
        record["peak_rss_kb"] = server.hwm_kb()
        record["threads"] = server.threads()
    finally:
        server.stop()


def size_sweep(spec: ServerSpec, sizes: list[int], args, logs: Path, scratch: Path) -> list[dict]:
    """GetItem and Query latency at 1 connection and RSS as the table grows (one server process,
    loaded incrementally)."""
    rows = []
    server = start(spec, logs)
    try:
        create_table(server.port)
        loaded = 0
        for size in sizes:
            seconds = preload(server.port, loaded, size)
            rate = (size - loaded) / seconds if seconds else None
            log(f"{spec.label}: table at {size:,} items (+{size - loaded:,} in {seconds:.1f} s)")
            loaded = size
            time.sleep(1.0)
            row = dict(items=size, rss_kb=server.rss_kb(), load_items_per_s=rate)
            for workload in ("get", "query"):
                if args.warmup:
                    run_wrk(server, workload, 1, args.warmup, size, scratch)
                runs = [measure(server, workload, 1, args.duration, size, scratch) for _ in range(args.reps)]
                row[workload] = summarize(runs)
            rows.append(row)
            log(f"{spec.label} {size:,} items: get p50 {row['get']['p50_us']} us, query p50 "
                f"{row['query']['p50_us']} us, RSS {fmt_mb(row['rss_kb'])}")
    finally:
        server.stop()
    return rows


def client_comparison(localdynamo: Path, client_bench: Path, store_bench: Path, args,
                      logs: Path) -> tuple[list[dict], dict]:
    """DynamoClient next to boto3 against one in-memory LocalDynamo with the bench table loaded,
    then DynamoStore's saves and fetches (store-bench) against the same server."""
    spec = server_specs(localdynamo, Path("/nonexistent"), ["ld-mem"], {})[0]
    boto3_python = python_with("boto3", "venv-boto3", "boto3")
    server = start(spec, logs)
    rows: list[dict] = []
    store: dict = {}
    try:
        try:
            create_table(server.port)
            preload(server.port, 0, args.items)
            rows = clients.bench_clients(server.port, args.items, args.client_seconds, args.client_reps,
                                         client_bench, boto3_python, log)
        except (RuntimeError, subprocess.SubprocessError, OSError, ValueError) as error:
            log(f"client comparison FAILED: {error}")
        try:
            store = clients.bench_store(server.port, 5 if args.profile == "full" else 3, store_bench, log)
        except (RuntimeError, subprocess.SubprocessError, OSError, ValueError, KeyError) as error:
            log(f"store benchmark FAILED: {error}")
        try:
            seeds = 200 if args.profile == "full" else 50
            store["graph"] = clients.bench_graph(seeds, 6, 40, log)
        except (subprocess.SubprocessError, OSError) as error:
            log(f"store graph long run FAILED: {error}")
    finally:
        server.stop()
    return rows, store
