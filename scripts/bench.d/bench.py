#!/usr/bin/env python3
"""The LocalDynamo benchmark harness behind `scripts/bench` (issue 9).

Starts each server in turn on a free loopback port (LocalDynamo in memory and on disk, moto,
ministack, and the bare-NIO ceiling server from Benchmarks/), preloads the same table through
the DynamoDB API, drives it with wrk and scripts/bench.d/dynamo.lua, and reports medians of
requests/s, p50/p99 latency, server CPU time per request and RSS, with the ratios ours/peer and
ours/ceiling. Writes a Markdown report between the bench markers of docs/performance.md (the rest
of that file is left alone) and raw results under bench-results/.

Standard library only. Every server is stopped by its own PID; every loop is bounded; every
address is 127.0.0.1.
"""

from __future__ import annotations

import argparse
import datetime
import json
import shlex
import shutil
import signal
import statistics
import sys
import time
from pathlib import Path

from benchkit import instructions, measurement
from benchkit.common import DOC, RESULTS, ROOT, log
from benchkit.measurement import bench_server, client_comparison, size_sweep
from benchkit.perf import perf_profile
from benchkit.scan import scan_benchmark
from benchkit.ttl import ttl_benchmark
from benchkit.vectors import vector_benchmark
from benchkit.report import machine_info, render, write_doc
from benchkit import startup
from benchkit.servers import RUNNING, build, cold_starts, server_specs
from benchkit.targets import evaluate_targets
from benchkit.workloads import WORKLOAD_ORDER, WORKLOADS

PROFILES = {
    "quick": dict(duration=1, reps=3, warmup=1, conns=[1, 8, 32], cold_starts=9, sizes=[],
                  client_seconds=2, client_reps=1, scan_items=100_000, scan_reps=1, ttl_items=20_000, ttl_reps=1,
                  vector_items=100_000),
    "full": dict(duration=5, reps=5, warmup=2, conns=[1, 8, 32], cold_starts=20,
                 sizes=[1_000, 100_000, 1_000_000], client_seconds=5, client_reps=3, scan_items=100_000,
                 scan_reps=3, ttl_items=100_000, ttl_reps=3, vector_items=100_000),
}


def parse_args(argv: list[str]):
    parser = argparse.ArgumentParser(
        prog="scripts/bench",
        description="Benchmarks LocalDynamo against moto, ministack and a bare-NIO ceiling with wrk, "
                    "and writes the table into docs/performance.md.")
    profile = parser.add_mutually_exclusive_group()
    profile.add_argument("--quick", action="store_const", dest="profile", const="quick",
                         help="short runs, 3 repetitions, no table-size sweep (default; ~7 minutes after the build)")
    profile.add_argument("--full", action="store_const", dest="profile", const="full",
                         help="the issue's full matrix: longer runs, 5 repetitions, 20 cold starts, "
                              "latency and RSS at 1k/100k/1M items (about an hour)")
    parser.add_argument("--duration", type=int, help="seconds per wrk run")
    parser.add_argument("--reps", type=int, help="wrk runs per cell (the median is reported)")
    parser.add_argument("--warmup", type=int, help="seconds of warm-up per server and workload (0: none)")
    parser.add_argument("--conns", help="comma-separated connection counts (default 1,8,32)")
    parser.add_argument("--servers", default="ld-mem,ld-disk,moto,ministack,ceiling",
                        help="comma-separated subset of ld-mem,ld-disk,moto,ministack,ceiling")
    parser.add_argument("--workloads", default=",".join(WORKLOAD_ORDER),
                        help="comma-separated subset of " + ",".join(WORKLOAD_ORDER))
    parser.add_argument("--items", type=int, default=10_000, help="items preloaded per server (default 10000)")
    parser.add_argument("--sizes", help="comma-separated table sizes for the latency/RSS sweep of localdynamo")
    parser.add_argument("--cold-starts", type=int, help="fresh starts of localdynamo to time")
    parser.add_argument("--scan-items", type=int, help="items in the table localdynamo's Scan measurement "
                        "reads (default 100000; 0 skips it)")
    parser.add_argument("--vector-items", type=int, help="vectors in localdynamo's vector-search measurement "
                        "(default 100000; 0 skips it)")
    parser.add_argument("--vector-dimensions", type=int, default=384, help="dimensions of those vectors (default 384)")
    parser.add_argument("--ttl-items", type=int, help="items in the table localdynamo's TTL sweep measurement "
                        "expires half of (default 20000, 100000 with --full; 0 skips it)")
    parser.add_argument("--perf", nargs="?", const="get", default=None, choices=sorted(WORKLOADS),
                        metavar="WORKLOAD", help="also profile localdynamo (memory) with perf stat/record under "
                        "a workload's load at 8 connections (default: get)")
    parser.add_argument("--instructions", action=argparse.BooleanOptionalAction, default=None,
                        help="count instructions per request of each workload with callgrind beside the "
                             "counts before issue 19 (default: on with --full, off with --quick; ~10 minutes)")
    parser.add_argument("--ref", help="benchmark localdynamo as of this commit (exported with git archive "
                        "into .build-bench/ and built there) instead of the work tree")
    parser.add_argument("--start-only", action="store_true",
                        help="only the cold starts and the resident set by part of localdynamo (memory and "
                             "disk; 9 starts unless --cold-starts says); prints them, leaves the doc alone")
    parser.add_argument("--no-build", action="store_true", help="use the existing release builds")
    parser.add_argument("--client-seconds", type=int, help="seconds per client run (default 2, 5 with --full)")
    parser.add_argument("--client-reps", type=int, help="runs per client cell, the median reported "
                        "(default 1, 3 with --full)")
    parser.add_argument("--no-clients", dest="clients", action="store_false",
                        help="skip the DynamoClient-vs-boto3 comparison and the DynamoStore benchmark")
    parser.add_argument("--no-doc", action="store_true", help="do not touch docs/performance.md")
    parser.add_argument("--doc", type=Path, default=DOC, help="the Markdown file to update")
    parser.add_argument("--note", help="a sentence to put at the top of the report (e.g. about the machine)")
    args = parser.parse_args(argv)
    args.profile = args.profile or "quick"
    defaults = PROFILES[args.profile]
    for name in ("duration", "reps", "warmup", "cold_starts", "scan_items", "ttl_items", "vector_items", "client_seconds",
                 "client_reps"):
        if getattr(args, name) is None:
            setattr(args, name, defaults[name])
    if args.start_only and not any(w.startswith("--cold-starts") for w in argv):
        args.cold_starts = 9
    if args.start_only and not any(w.startswith("--servers") for w in argv):
        args.servers = "ld-mem,ld-disk"
    if args.instructions is None:
        args.instructions = args.profile == "full"
    args.scan_reps = defaults["scan_reps"]
    args.ttl_reps = defaults["ttl_reps"]
    args.conns = [int(c) for c in args.conns.split(",")] if args.conns else defaults["conns"]
    args.sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else defaults["sizes"]
    args.servers = [s for s in args.servers.split(",") if s]
    args.workloads = [w for w in WORKLOAD_ORDER if w in args.workloads.split(",")]
    if args.duration < 1 or args.reps < 1 or args.items < 100 or not args.workloads:
        parser.error("need --duration ≥ 1, --reps ≥ 1, --items ≥ 100 and at least one workload")
    return args


def shown_command(argv: list[str]) -> str:
    """The command line for the report, without the --note text."""
    shown, skip = [], False
    for word in argv:
        if skip:
            skip = False
        elif word == "--note":
            skip = True
        elif not word.startswith("--note="):
            shown.append(word)
    return " ".join(["scripts/bench"] + [shlex.quote(w) for w in shown])


def for_each_ours(specs, what: str, measure) -> dict:
    """`measure(spec)` for each LocalDynamo server, by key; a failure is logged and left out."""
    measured = {}
    for spec in specs:
        if spec.kind == "ours":
            try:
                measured[spec.key] = measure(spec)
            except (RuntimeError, OSError, ValueError) as error:
                log(f"{spec.label} {what} FAILED: {error}")
    return measured


def start_only(args, out_dir: Path, logs: Path) -> int:
    """`--start-only`: localdynamo's cold starts and resident set by part, printed and saved."""
    localdynamo, _, _, _ = build(args.no_build, args.ref, clients=False, only_server=True)
    versions: dict[str, str] = {}
    specs = [s for s in server_specs(localdynamo, None, args.servers, versions) if s.kind == "ours"]
    results: dict = dict(cold_starts={}, targets=[])
    for spec in specs:
        results["cold_starts"][spec.key] = cold_starts(spec, args.cold_starts, logs)
        print("\n".join(startup.summary_lines(spec.label, results["cold_starts"][spec.key])))
    for what, value, met in evaluate_targets(dict(servers=[dict(key=s.key, label=s.label, workloads={}) for s in specs],
                                                  cold_starts=results["cold_starts"])):
        results["targets"].append(dict(target=what, value=value, met=met))
        print(f"| {what} | {value} | {'met' if met else 'MISSED'} |")
    (out_dir / "results.json").write_text(json.dumps(results, indent=1, default=str))
    return 0


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.profile == "quick":
        measurement.MAX_EXTENDED_SECONDS = 5
    if shutil.which("wrk") is None and not args.start_only:
        raise SystemExit("wrk not found (scripts/bench installs it; apt-get install wrk)")
    started = time.time()
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    out_dir = RESULTS / stamp
    logs = out_dir / "logs"
    scratch = out_dir / "scratch"
    logs.mkdir(parents=True, exist_ok=True)
    scratch.mkdir(parents=True, exist_ok=True)

    if args.start_only:
        return start_only(args, out_dir, logs)
    localdynamo, ceiling, client_bench, store_bench = build(args.no_build, args.ref, clients=args.clients)
    machine = machine_info(args.ref)
    versions: dict[str, str] = {}
    specs = server_specs(localdynamo, ceiling, args.servers, versions)
    results: dict = dict(
        date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        profile=f"--{args.profile}", machine=machine, versions=versions, note=args.note,
        command=shown_command(argv),
        args=dict(duration=args.duration, reps=args.reps, warmup=args.warmup, conns=args.conns,
                  items=args.items, workloads=args.workloads, sizes=args.sizes),
        servers=[], cold_starts={}, sizes={}, scan={}, ttl={}, vectors={}, perf={}, clients=[], store={}, instructions={})
    log(f"{args.profile}: {len(specs)} servers × {len(args.workloads)} workloads × {len(args.conns)} "
        f"connection counts × {args.reps} runs of {args.duration} s; results in {out_dir.relative_to(ROOT)}")

    for spec in specs:
        results["servers"].append(bench_server(spec, args, logs, scratch))
        if spec.kind == "ours" and args.cold_starts:
            samples = cold_starts(spec, args.cold_starts, logs)
            results["cold_starts"][spec.key] = samples
            log(f"{spec.label}: cold start median {statistics.median(s['ms'] for s in samples):.1f} ms "
                f"over {len(samples)} starts")
    if args.scan_items:
        results["scan"] = for_each_ours(specs, "Scan", lambda spec: scan_benchmark(spec, args.scan_items,
                                                                                    args.scan_reps, logs))
    if args.ttl_items:
        results["ttl"] = for_each_ours(specs, "TTL sweep", lambda spec: ttl_benchmark(spec, args.ttl_items,
                                                                                       args.ttl_reps, logs))
    if args.vector_items:
        results["vectors"] = for_each_ours(specs, "vector search", lambda spec: vector_benchmark(
            spec, args.vector_items, args.vector_dimensions, logs))
    if args.sizes:
        for spec in specs:
            if spec.kind == "ours":
                results["sizes"][spec.key] = size_sweep(spec, args.sizes, args, logs, scratch)
    if args.clients:
        results["clients"], results["store"] = client_comparison(localdynamo, client_bench, store_bench, args, logs)
    if args.instructions:
        results["instructions"] = instructions.count_instructions(localdynamo, out_dir / "callgrind", logs)
    if args.perf:
        spec = next((s for s in specs if s.key == "ld-mem"), None) or next((s for s in specs if s.kind == "ours"), None)
        if spec:
            profile = perf_profile(spec, args, logs, scratch, out_dir, args.perf)
            if profile:
                results["perf"][spec.key] = profile

    results["elapsed_s"] = time.time() - started
    (out_dir / "results.json").write_text(json.dumps(results, indent=1, default=str))
    report = render(results)
    (out_dir / "report.md").write_text(report)
    print()
    print(report)
    if not args.no_doc:
        write_doc(report, args.doc)
        log(f"wrote {args.doc.relative_to(ROOT) if args.doc.is_relative_to(ROOT) else args.doc}")
    shutil.rmtree(scratch, ignore_errors=True)
    log(f"done in {results['elapsed_s'] / 60:.1f} min; raw results in {out_dir.relative_to(ROOT)}/results.json")
    failed = any(r["problems"] for r in results["servers"] if r["kind"] != "peer")
    return 1 if failed else 0


def _terminate(signum, _frame):
    raise KeyboardInterrupt(f"signal {signum}")


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _terminate)
    signal.signal(signal.SIGINT, _terminate)
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        log("interrupted")
        sys.exit(130)
    finally:
        for running in list(RUNNING):
            running.stop()
